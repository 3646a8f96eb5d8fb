"""Every rule is one declaration (verl_cookbook/rules/): every code the package reports is declared, every declared
rule is reported somewhere, and each rule's own bad example fires it while its correct example, written the way
users write it, draws no finding at all."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from verl_cookbook import doctor, rules
from verl_cookbook.facts import Facts
from verl_cookbook.findings import Finding, apply_rules_options
from verl_cookbook.rules import Example, Rule, UndeclaredRule, lookup
from verl_cookbook.runner import check_paths

PACKAGE = Path(rules.__file__).resolve().parent.parent
DECLARED = rules.declarations()
FAMILIES = {r.code.split("/")[0] for r in DECLARED}
CODE = re.compile(r"[a-z]+/[A-Za-z][A-Za-z0-9-]*")


def _rule_constants() -> dict[str, str]:
    """The module-level rule constants of the declaring modules (``CONFIG_UNKNOWN_KEY``), each with its code."""
    import importlib

    out = {}
    for path in sorted((PACKAGE / "rules").glob("*.py")):
        module = importlib.import_module(f"verl_cookbook.rules.{path.stem}".removesuffix(".__init__"))
        out.update({name: str(v) for name, v in vars(module).items() if isinstance(v, Rule) and name.isupper()})
    return out


def _code_literals() -> dict[str, list[str]]:
    """String constants shaped like a rule code of a declared family, and rule constants (``CONFIG_UNKNOWN_KEY``),
    outside the declarations, with where each is; the constant parts of f-strings (``f"shellcheck/SC{n}"``) count
    as prefixes."""
    constants = _rule_constants()
    out: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.parent.name == "rules":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Name) and node.id in constants:
                out.setdefault(constants[node.id], []).append(f"{path.name}:{node.lineno}")
            elif isinstance(node, ast.JoinedStr):
                first = node.values[0] if node.values else None
                if isinstance(first, ast.Constant) and re.fullmatch(r"[a-z]+/[A-Za-z-]*", str(first.value)):
                    out.setdefault(str(first.value), []).append(f"{path.name}:{node.lineno}")
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.fullmatch(node.value):
                if node.value.split("/")[0] in FAMILIES:
                    out.setdefault(node.value, []).append(f"{path.name}:{node.lineno}")
    return out


LITERALS = _code_literals()


def test_every_code_the_package_reports_is_declared():
    undeclared = {}
    for code, where in LITERALS.items():
        try:
            lookup(code) if not code.endswith(("/", "-", "SC")) else None
        except UndeclaredRule:
            undeclared[code] = where
    assert not undeclared


def test_every_declared_rule_is_reported_somewhere_in_the_package():
    unused = [r.code for r in DECLARED if not any(lit == r.code or lit.startswith(r.code) for lit in LITERALS)]
    assert not unused


def test_a_finding_with_an_undeclared_code_is_refused():
    with pytest.raises(UndeclaredRule):
        Finding("a.md", 1, 1, "config/unknwon-key", "typo in the checker")


def test_a_family_code_gets_its_familys_declaration_and_prints_itself():
    rule = lookup("shellcheck/SC2086")
    assert isinstance(rule, Rule) and str(rule) == "shellcheck/SC2086" and rule.declared.code == "shellcheck/SC"


def test_every_rule_is_declared_with_both_summaries_a_catch_and_a_why():
    for r in DECLARED:
        assert r.summary and r.summary_zh and r.catches and r.why, r.code
        assert re.search(r"[\u4e00-\u9fff]", r.summary_zh), r.code
        assert r.severity in (rules.ERROR, rules.WARNING, rules.INFO)


# Rules whose bad example is still to be written: each is fired by the tests named beside it instead. The list can
# only shrink: a rule gaining an example must leave it (test below).
WITHOUT_EXAMPLE = {
    "lenient/wrong-language": "test_lenient_reading",  # only --lenient reports it; the examples run plain check
    "config/required-missing": "test_required_values",
    "config/both-set": "test_required_values",
    "config/value-not-accepted": "test_required_values",
    "startup/rejected": "test_startup_stage",
    "startup/missing-value": "test_startup_stage",
    "snippet/orphan-declaration": "test_rst_pages",
    "fact/unknown": "test_stack_checks",
    "fact/no-entry": "test_stack_checks",
    "fact/mismatch": "test_stack_checks",
    "wheel/unknown": "test_stack_checks",
    "wheel/mismatch": "test_stack_checks",
    "combo/conflict": "test_stack_checks",
    "combo/no-conflict": "test_stack_checks",
    "install/uninstall-shared-files": "test_stack_checks",
    "install/checkout-other-release": "test_stack_checks",
    "combo/not-on-index": "test_stack_checks",
    "combo/unresolved": "test_stack_checks",
    "install/command-failed": "test_install_run",
    "install/expectation": "test_install_run",
    "install/manifest": "test_install_run",
    "claim/bad-attr": "test_stack_checks",
    "config/missing-value": "test_config_rules",
    "config/omegaconf": "test_yaml_config",
    "override/unknown-group": "test_overrides",
    "override/rejected": "test_overrides",
    "engine/kwargs-not-mapping": "test_config_rules",
    "verl/config-drift": "test_mutations",
    "file/missing": "test_cli",
    "file/unreadable": "test_garbage_input",
    "file/binary": "test_garbage_input",
    "file/encoding": "test_garbage_input",
    "file/too-large": "test_garbage_input",
    "include/missing": "test_markdown",
    "snippet/orphan": "test_orphan_snippets",
    "shell/timeout": "test_shell_check",
    "shellcheck/SC": "test_shell_check",
    "env/unknown-name": "test_shell_check",
    "env/not-exported": "test_shell_check",
    "env/presence-enables": "test_shell_check",
    "env/invalid-value": "test_shell_check",
    "env/requires": "test_shell_check",
    "env/conflict": "test_shell_check",
    "ascend/whitelist-file": "test_doctor",
    "ascend/rebuild-group-npu": "test_doctor_rebuild_group",
    "cmake/unknown-option": "test_shell_check",
    "cmake/invalid-value": "test_shell_check",
    "json/unknown-schema": "test_json_check",
    "json/schema-": "test_json_check",
    "yaml/empty": "test_yaml_config",
    "python/override-signature": "test_python_check",
    "coverage/debt-invalid": "test_coverage",
    **{r.code: "test_claims / test_claim_mutations" for r in DECLARED if r.code.startswith(("claim/", "cite/"))},
    **{r.code: "test_parity" for r in DECLARED if r.code.startswith("parity/")},
    **{r.code: "test_param_table" for r in DECLARED if r.code.startswith("table/")},
    **{r.code: "test_diagram" for r in DECLARED if r.code.startswith("diagram/")},
    **{r.code: "test_merger_cli" for r in DECLARED if r.code.startswith("merger/")},
}


def test_the_rules_without_an_example_are_exactly_the_listed_ones():
    assert {r.code for r in DECLARED if r.bad is None} == set(WITHOUT_EXAMPLE)


def _run(example: Example, tmp_path: Path, facts: Facts) -> list[Finding]:
    """What ``doctor`` (a script or config) or ``check`` (a page) reports on ``example``, after suppressions."""
    for name, text in example.files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    if example.kind in ("sh", "yaml"):
        path = tmp_path / f"example.{example.kind}"
        path.write_text(example.text, encoding="utf-8")
        opts = dict(zip(example.args[::2], example.args[1::2], strict=True))
        report = doctor.diagnose(
            path, facts, device=opts.get("--device"), cann=opts.get("--cann"), product=opts.get("--product")
        )
        found = [df.finding for df in report.findings]
    else:
        path = tmp_path / "example.md"
        path.write_text(example.text, encoding="utf-8")
        found = check_paths([path], facts, tmp_path, {}).findings
    return apply_rules_options(found, files=[path])


WITH_BAD = [r for r in DECLARED if r.bad is not None]
WITH_GOOD = [r for r in DECLARED if r.good is not None]


@pytest.mark.parametrize("rule", WITH_BAD, ids=str)
def test_the_rules_bad_example_fires_it(rule: Rule, tmp_path: Path, facts: Facts, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    found = _run(rule.bad, tmp_path, facts)
    assert rule in {f.rule for f in found}, [(f.rule, f.message) for f in found]


@pytest.mark.parametrize("rule", WITH_GOOD, ids=str)
def test_the_rules_correct_example_draws_no_finding(
    rule: Rule, tmp_path: Path, facts: Facts, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.chdir(tmp_path)
    found = _run(rule.good, tmp_path, facts)
    assert not found, [(f.rule, f.message) for f in found]
