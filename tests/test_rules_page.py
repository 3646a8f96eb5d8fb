"""The committed rules page is what the rule declarations render (scripts/gen_rules_page.py writes it), and its
中文 version gives every rule's catches and why in 中文 (verl_cookbook/rules/zh.py), one entry per declared code."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import pytest

from verl_cookbook.rules import Example, declarations, page_examples
from verl_cookbook.rules.render import _shown, anchor, linked, render, shown_fix, texts
from verl_cookbook.rules.zh import ZH

DOCS = Path(__file__).resolve().parent.parent / "docs" / "tools"


@pytest.mark.parametrize(("lang", "name"), [("zh", "rules.md"), ("en", "rules.en.md")])
def test_the_committed_rules_page_is_current(lang: str, name: str):
    assert (DOCS / name).read_text(encoding="utf-8") == render(lang), "run: python scripts/gen_rules_page.py"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_rule_has_its_own_section_with_its_anchor(lang: str):
    page = render(lang)
    for r in declarations():
        assert f"{{ #{anchor(r)} }}" in page, r.code


# The Chinese page's catches and why come from rules/zh.py, one entry per declared code.
_CJK = re.compile(r"[\u4e00-\u9fff]")
_SPAN = re.compile(r"(`+)(.+?)\1")


def missing_chinese(declared: list[str], zh: Mapping[str, tuple[str, str]]) -> list[str]:
    """Declared codes without 中文 in ``zh``."""
    return sorted(set(declared) - set(zh))


def stale_chinese(declared: list[str], zh: Mapping[str, tuple[str, str]]) -> list[str]:
    """Entries of ``zh`` for codes no rule declares (renamed or removed)."""
    return sorted(set(zh) - set(declared))


CODES = [r.code for r in declarations()]


def test_every_declared_rule_has_chinese_catches_and_why():
    assert not missing_chinese(CODES, ZH), "add them to verl_cookbook/rules/zh.py"


def test_rules_zh_names_no_code_that_is_not_declared():
    assert not stale_chinese(CODES, ZH), "remove or rename them in verl_cookbook/rules/zh.py"


def test_the_coverage_checks_name_a_missing_and_a_stale_entry():
    gone = CODES[0]
    edited = {code: text for code, text in ZH.items() if code != gone}
    edited["config/no-such-rule"] = ("检查内容。", "原因。")
    assert missing_chinese(CODES, edited) == [gone]
    assert stale_chinese(CODES, edited) == ["config/no-such-rule"]


def test_each_chinese_text_is_chinese_and_keeps_the_english_code_spans():
    for r in declarations():
        for english, chinese in zip((r.catches, r.why), ZH[r.code], strict=True):
            assert _CJK.search(chinese), (r.code, chinese)
            kept = {m.group(0) for m in _SPAN.finditer(chinese)}
            assert {m.group(0) for m in _SPAN.finditer(english)} <= kept, r.code


def test_the_chinese_page_shows_the_chinese_texts_and_the_english_page_the_english_ones():
    zh, en = render("zh"), render("en")
    for r in declarations():
        catches, why = ZH[r.code]
        assert f"- 检查内容：{linked(catches)}\n- 影响：{linked(why)}\n" in zh, r.code
        assert f"- What it catches: {linked(r.catches)}\n- Why: {linked(r.why)}\n" in en, r.code


def test_a_verl_pull_request_a_rule_cites_is_linked_on_the_page():
    assert (
        linked("timeouts (verl PR #5546)")
        == "timeouts ([verl PR #5546](https://github.com/verl-project/verl/pull/5546))"
    )
    assert linked("see verl #6259") == "see [verl #6259](https://github.com/verl-project/verl/issues/6259)"
    for lang in ("en", "zh"):  # no verl reference on the page is left unlinked
        assert not re.search(r"(?<!\[)verl (PR )?#\d+(?!\])", render(lang))


def test_a_rule_without_chinese_keeps_its_english_on_the_chinese_page(monkeypatch: pytest.MonkeyPatch):
    rule = declarations()[0]
    monkeypatch.delitem(ZH, rule.code)
    assert texts(rule, "zh") == (rule.catches, rule.why)


def test_each_page_shows_every_rules_message_and_fix_in_its_own_language():
    zh, en = render("zh"), render("en")
    for r in declarations():
        m = r.declared.message
        for case in m.cases:
            assert _shown(m.zh[case]) in zh and _shown(m.en[case]) in en, (r.code, case)
        if r.fix:
            assert shown_fix(r.fix_text({}, "zh")) in zh and shown_fix(r.fix_text({}, "en")) in en, r.code


# -- the page's own examples, run as a reader runs them ----------------------------------------------------------
def _reported(args: list[str], cwd: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The rules ``verl-cookbook ARGS --format json`` reports, run from ``cwd``, in order."""
    import json
    import os

    from verl_cookbook import cli

    here = Path.cwd()
    os.chdir(cwd)
    try:
        code = cli.main([*args, "--format", "json"])
    finally:
        os.chdir(here)
    out = json.loads(capsys.readouterr().out or "[]")
    findings = out["findings"] if isinstance(out, dict) else out
    assert code == (1 if findings else 0)
    return [f["rule"] for f in findings]


def _write(ex: Example, folder: Path, name: str) -> Path:
    path = folder / name
    path.write_text(ex.text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("options", "codes"),
    page_examples.SELECT_COMMANDS,
    ids=[page_examples.command(o) for o, _ in page_examples.SELECT_COMMANDS],
)
def test_each_select_command_on_the_page_reports_the_rules_its_comment_names(
    options: tuple[str, ...], codes: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    _write(page_examples.SELECT_SCRIPT, tmp_path, page_examples.SELECT_NAME)
    got = _reported(["doctor", *options, page_examples.SELECT_NAME], tmp_path, capsys)
    assert sorted(got) == sorted(codes)


@pytest.mark.parametrize("example", page_examples.SUPPRESSIONS, ids=lambda ex: ex.kind)
def test_each_suppression_example_silences_a_finding_its_file_has_without_the_comment(
    example: Example, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    name = f"example.{example.kind}"
    command = "check" if example.kind == "md" else "doctor"
    _write(example, tmp_path, name)
    assert _reported([command, name], tmp_path, capsys) == []
    bare, code = page_examples.without_suppression(example.text)
    (tmp_path / name).write_text(bare, encoding="utf-8")
    assert _reported([command, name], tmp_path, capsys) == [code]


def test_a_suppression_example_that_silences_nothing_is_caught(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    # the example the page once showed: `+my_plugin.setting=1` adds a top-level key, which no rule reports
    stale = Example(
        "sh",
        page_examples.SUPPRESSIONS[1].text.replace("actor_rollout_ref.rollout.my_plugin_setting", "my_plugin.setting"),
    )
    _write(stale, tmp_path, "example.sh")
    assert _reported(["doctor", "example.sh"], tmp_path, capsys) == ["suppression/unused"]
    bare, code = page_examples.without_suppression(stale.text)
    (tmp_path / "example.sh").write_text(bare, encoding="utf-8")
    assert code not in _reported(["doctor", "example.sh"], tmp_path, capsys)


def test_a_select_comment_that_names_the_wrong_rules_would_fail(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    _write(page_examples.SELECT_SCRIPT, tmp_path, page_examples.SELECT_NAME)
    got = _reported(["doctor", "--select", "engine", page_examples.SELECT_NAME], tmp_path, capsys)
    assert sorted(got) != sorted(("engine/unknown-backend", "config/unknown-key"))


def test_the_page_shows_every_select_command_and_suppression_example():
    for lang in ("zh", "en"):
        page = render(lang)
        for options, codes in page_examples.SELECT_COMMANDS:
            assert page_examples.command(options) in page and ("、" if lang == "zh" else ", ").join(codes) in page
        for ex in page_examples.SUPPRESSIONS:
            assert ex.text.rstrip("\n") in page
