"""A rule owns its message: a finding is made by the rule from data (``RULE.at(path, line, col, **data)``), the text
is rendered from the rule's English or 中文 template, and a finding that lacks a field its template reads, or carries
data the rule does not declare, is refused where it is made. Both languages of a case read the same fields,
checked when the rule is declared."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from verl_cookbook import github_output
from verl_cookbook.cli import main
from verl_cookbook.findings import default_lang
from verl_cookbook.rules import Finding, Rule, declarations, replay
from verl_cookbook.rules.pages import FILE_MISSING, SUPPRESSION_UNUSED
from verl_cookbook.rules.template import Message, TemplateError, fields_of


def test_a_finding_is_rendered_from_its_rules_template_in_both_languages() -> None:
    f = SUPPRESSION_UNUSED.at("a.md", 3, 5, code="config/unknown-key")
    assert isinstance(f, Finding) and f.rule is SUPPRESSION_UNUSED and (f.path, f.line, f.col) == ("a.md", 3, 5)
    assert f.message == f.text("en") and "`config/unknown-key`" in f.message and "silences nothing" in f.message
    assert "未生效" in f.text("zh") and "`config/unknown-key`" in f.text("zh")
    assert f.data == {"code": "config/unknown-key"}


def test_a_finding_missing_a_field_its_template_reads_is_refused() -> None:
    with pytest.raises(TypeError, match="missing data code"):
        SUPPRESSION_UNUSED.at("a.md", 1, 1)


def test_a_finding_carrying_undeclared_data_is_refused() -> None:
    with pytest.raises(TypeError, match="undeclared data cdoe"):
        SUPPRESSION_UNUSED.at("a.md", 1, 1, code="x", cdoe="x")


def test_a_case_the_rule_does_not_declare_is_refused() -> None:
    with pytest.raises(TypeError, match="no case 'suggested'"):
        SUPPRESSION_UNUSED.at("a.md", 1, 1, code="x", case="suggested")


def test_the_two_languages_of_a_case_must_read_the_same_fields() -> None:
    with pytest.raises(TemplateError, match="fields"):
        Message.declare("x/y", "unknown key `{key}`", "配置项 `{name}` 不存在")
    with pytest.raises(TemplateError, match="cases"):
        Message.declare("x/y", {"": "a", "suggested": "b {s}"}, {"": "甲"})


@pytest.mark.parametrize("template", ["{0}", "{}", "{key.attr}", "{key[0]}", "{key!x}", "{key"])
def test_a_template_field_that_render_cannot_fill_is_refused(template: str) -> None:
    with pytest.raises(TemplateError):
        fields_of(template)


def test_lists_render_in_the_messages_own_language() -> None:
    m = Message.declare("x/y", "known: {names!c}; {more!l}", "已知：{names!c}；{more!l}")
    data = {"names": ["nccl", "hccl"], "more": ("a", "b")}
    assert m.render(data, "en") == "known: `nccl`, `hccl`; a, b"
    assert m.render(data, "zh") == "已知：`nccl`、`hccl`；a、b"


def test_a_case_picks_its_own_template() -> None:
    m = Message.declare(
        "x/y",
        {"": "no `{key}`", "suggested": "no `{key}`; did you mean `{s}`?"},
        {"": "无 `{key}`", "suggested": "无 `{key}`，是否应为 `{s}`？"},
    )
    assert m.render({"key": "a"}) == "no `a`"
    assert m.render({"key": "a", "s": "b", "case": "suggested"}, "zh") == "无 `a`，是否应为 `b`？"


def test_a_finding_comes_back_from_its_json_form_the_same() -> None:
    f = SUPPRESSION_UNUSED.at("a.md", 3, 5, fact="x", fact_source="verl/a.py:1", code="config/unknown-key")
    again = replay(f.as_dict())
    assert again == f and again.data == f.data and again.fact_source == f.fact_source


def test_every_declared_message_renders_with_placeholder_data_in_both_languages() -> None:
    for r in declarations():
        if r.message is None:
            continue
        parts = r.message.parts
        listed = [{n: f"<{n}>" for n in parts.fields(c)} | {"case": c} for c in parts.cases] if parts else []
        for case in r.message.cases:
            data = {name: f"<{name}>" for name in r.message.fields(case)} | {"case": case}
            data |= dict.fromkeys(r.message.listed_fields(), listed)
            for lang in ("en", "zh"):
                assert r.render(data, lang).strip(), (r.code, case, lang)
        assert isinstance(r, Rule)


# -- the language of the output, and what severity decides ---------------------------------------------------------
UNUSED_AND_UNDECLARED = (
    "# p\n\n<!-- verl-cookbook: ignore[snippet/undeclared] -->\n"
    '```yaml {check="config"}\ntrainer:\n  total_epochs: 2\n```\n\n'
    "```text\nconsole output\n```\n"
)


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().out


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "zh_CN.UTF-8", "LC_ALL": "C.UTF-8"}, "en"),
        ({"LANG": "zh_CN.UTF-8", "LC_ALL": ""}, "zh"),  # an empty variable is not set
        ({}, "en"),
    ],
)
def test_the_default_language_follows_the_posix_locale_order(env: dict[str, str], lang: str) -> None:
    assert default_lang(env) == lang


def test_check_lang_zh_prints_the_chinese_templates_and_marks_warnings(write_page, capsys) -> None:
    page = write_page(UNUSED_AND_UNDECLARED)
    code, out = _run(["check", str(page), "--lang", "zh"], capsys)
    assert code == 1  # a warning alone would set it too: every reported finding counts
    unused = next(line for line in out.splitlines() if "suppression/unused" in line)
    assert "suppression/unused (warning) " in unused and "未生效" in unused
    code, out = _run(["check", str(page), "--lang", "en"], capsys)
    assert "silences nothing" in out and "未生效" not in out


def test_a_warning_alone_sets_exit_code_1(write_page, capsys) -> None:
    page = write_page(UNUSED_AND_UNDECLARED.split("\n\n```text")[0] + "\n")
    code, out = _run(["check", str(page)], capsys)
    assert code == 1 and out.count("\n") == 1 and "suppression/unused (warning)" in out


def test_the_locale_picks_the_language_when_lang_is_not_given(write_page, capsys, monkeypatch) -> None:
    page = write_page(UNUSED_AND_UNDECLARED)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    _code, out = _run(["check", str(page), "--format", "json"], capsys)
    assert any("未生效" in f["message"] for f in json.loads(out))


def test_github_output_prints_warning_for_a_warning_and_error_for_an_error(write_page, capsys, monkeypatch) -> None:
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    page = write_page(UNUSED_AND_UNDECLARED)
    _code, out = _run(["check", str(page), "--format", "github"], capsys)
    levels = {line.split(" ", 1)[0]: line for line in out.splitlines()}
    assert "title=suppression/unused::" in levels["::warning"]
    assert "title=snippet/undeclared::" in levels["::error"]


def test_github_annotates_ten_of_each_level_and_counts_the_rest(monkeypatch) -> None:
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    warnings = [SUPPRESSION_UNUSED.at(f"p{k}.md", 1, 1, code="x") for k in range(12)]
    errors = [FILE_MISSING.at(f"q{k}.md", 1, 1) for k in range(13)]
    out = github_output.emit(warnings + errors)
    assert out.count("::warning ") == 10 and out.count("::error ") == 10
    assert "5 more finding(s)" in out


def test_every_rule_is_a_module_constant_named_after_its_code() -> None:
    import importlib
    import re

    bound: dict[str, list[str]] = {}
    import pkgutil

    from verl_cookbook import rules

    names = [m.name for m in pkgutil.iter_modules(rules.__path__) if m.name not in ("render", "template", "zh")]
    assert {"claims", "config", "coverage", "engines", "pages", "scripts", "stack", "startup", "upgrade"} <= set(names)
    for module in names:
        for name, value in vars(importlib.import_module(f"verl_cookbook.rules.{module}")).items():
            if isinstance(value, Rule):
                bound.setdefault(value.code, []).append(name)
                assert name == re.sub(r"[^A-Z0-9]+", "_", value.code.upper()).strip("_"), (name, value.code)
    assert sorted(bound) == sorted(r.code for r in declarations())
    assert all(len(names) == 1 for names in bound.values())


def test_an_optional_part_shows_only_when_its_fields_have_values() -> None:
    m = Message.declare("x/y", "no `{key}`[[; did you mean `{s}`?]]", "无 `{key}`[[，是否应为 `{s}`？]]")
    assert m.render({"key": "a"}) == "no `a`" and m.render({"key": "a", "s": None}) == "no `a`"
    assert m.render({"key": "a", "s": "b"}) == "no `a`; did you mean `b`?"
    assert m.render({"key": "a", "s": "b"}, "zh") == "无 `a`，是否应为 `b`？"
    assert m.required("") == {"key"} and m.fields("") == {"key", "s"}


@pytest.mark.parametrize("template", ["a [[b", "a ]] b", "[[a [[b]] c]]"])
def test_an_optional_part_that_is_not_closed_is_refused(template: str) -> None:
    with pytest.raises(TemplateError):
        fields_of(template)


def test_doctor_lang_zh_prints_the_fix_from_the_rules_chinese_declaration(tmp_path, capsys) -> None:
    script = tmp_path / "run.sh"
    script.write_text("python3 -m verl.trainer.main_ppo trainer.total_epoch=2\n", encoding="utf-8")
    code, out = _run(["doctor", str(script), "--lang", "zh", "--quiet"], capsys)
    assert code == 1
    fixes = [line for line in out.splitlines() if line.strip().startswith("修改方法：")]
    assert any("按提示修正该配置项" in fix for fix in fixes), fixes
    code, out = _run(["doctor", str(script), "--lang", "en", "--quiet"], capsys)
    assert "    fix: " in out and "修改方法" not in out


def test_a_finding_lists_several_problems_with_the_rules_declared_parts() -> None:
    from verl_cookbook.rules.scripts import PYTHON_OVERRIDE_SIGNATURE as RULE

    problems = [{"case": "missing", "param": "global_step"}, {"case": "no-kwargs", "param": "kwargs"}]
    f = RULE.at("p.md", 8, 5, cls="Mine", method="on_save", base="CheckpointCallback", problems=problems)
    assert f.message.endswith(
        "missing parameter `global_step`; no `**kwargs`: verl passes its hooks keyword arguments and may add more"
    )
    assert "缺少参数 `global_step`；没有 `**kwargs`" in f.text("zh")
    with pytest.raises(TypeError, match="no part 'renamed'"):
        RULE.at("p.md", 8, 5, cls="M", method="m", base="B", problems=[{"case": "renamed", "param": "x"}])


# -- no message is written outside its rule's declaration ---------------------------------------------------------
PACKAGE = Path(__file__).resolve().parent.parent / "verl_cookbook"
RULES_DIR = PACKAGE / "rules"


def _package_trees() -> list[tuple[Path, ast.Module]]:
    return [(p, ast.parse(p.read_text(encoding="utf-8"))) for p in sorted(PACKAGE.rglob("*.py"))]


def finding_constructions(trees: list[tuple[Path, ast.Module]]) -> list[str]:
    """Where ``Finding(...)`` is called, or a finding's message replaced (``dataclasses.replace(f, message=…)``)."""
    out = []
    for path, tree in trees:
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name == "Finding" or (name == "replace" and any(k.arg == "message" for k in node.keywords)):
                out.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    return out


def test_a_finding_is_constructed_only_by_its_rule() -> None:
    made = finding_constructions(_package_trees())
    assert made == ["rules/__init__.py:" + made[0].rsplit(":", 1)[1]] and len(made) == 1, made


def test_the_construction_scan_sees_a_check_that_writes_its_own_text() -> None:
    bad = ast.parse(
        'from x import Finding\nf = Finding("a.md", 1, 1, RULE, "free text")\ng = replace(f, message="x")\n'
    )
    assert finding_constructions([(PACKAGE / "checks" / "bad.py", bad)]) == ["checks/bad.py:2", "checks/bad.py:3"]


CODE = re.compile(r"[a-z]+/[A-Za-z][A-Za-z0-9-]*")


def code_literals(trees: list[tuple[Path, ast.Module]]) -> list[str]:
    """String constants outside the declarations that are a rule's code: a check names its rule by the constant."""
    families = {r.code.split("/")[0] for r in declarations()}
    out = []
    for path, tree in trees:
        if path.parent == RULES_DIR:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.fullmatch(node.value):
                if node.value.split("/")[0] in families:
                    out.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {node.value}")
    return out


def test_no_check_names_a_rule_by_a_string() -> None:
    assert code_literals(_package_trees()) == []


def test_the_literal_scan_sees_a_code_written_as_a_string() -> None:
    tree = ast.parse('if f.rule == "config/unknwon-key":\n    pass\n')
    assert code_literals([(PACKAGE / "doctor" / "x.py", tree)]) == ["doctor/x.py:1: config/unknwon-key"]


def at_calls_with_undeclared_data(trees: list[tuple[Path, ast.Module]]) -> list[str]:
    """``RULE.at(..., name=…)`` calls whose keywords the rule does not declare (a misspelt field), read statically:
    the receiver is a rule constant imported from ``verl_cookbook.rules.…``."""
    import importlib

    out = []
    for path, tree in trees:
        imported: dict[str, Rule] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("verl_cookbook.rules"):
                module = importlib.import_module(node.module or "")
                for alias in node.names:
                    value = getattr(module, alias.name, None)
                    if isinstance(value, Rule):
                        imported[alias.asname or alias.name] = value
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "at":
                rule = imported.get(getattr(node.func.value, "id", ""))
                if rule is None:
                    continue
                allowed = rule.declared.data_names | {"case", "fact", "fact_source"}
                for k in node.keywords:
                    if k.arg is not None and k.arg not in allowed:
                        out.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {rule} has no data `{k.arg}`")
    return out


def test_every_rule_at_call_passes_only_data_its_rule_declares() -> None:
    assert at_calls_with_undeclared_data(_package_trees()) == []


def test_the_at_scan_sees_a_misspelt_field() -> None:
    tree = ast.parse("from verl_cookbook.rules.pages import FILE_MISSING\nFILE_MISSING.at('a', 1, 1, pth='x')\n")
    assert at_calls_with_undeclared_data([(PACKAGE / "x.py", tree)]) == ["x.py:2: file/missing has no data `pth`"]
