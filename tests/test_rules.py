"""Every rule is one declaration (verl_cookbook/rules/), and every declared rule is used: its bad example, run through
the command line as a user runs it (``verl-cookbook check`` on a page, ``verl-cookbook doctor`` on a script or
config), fires it, and its correct example, written the way users write it, draws no finding at all. The examples
are batched: one ``check`` for every page, one ``doctor`` for every group of scripts that share options."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from verl_cookbook import rules
from verl_cookbook.findings import Finding
from verl_cookbook.rules import Rule, UndeclaredRule, lookup

DECLARED = rules.declarations()


def test_a_finding_with_an_undeclared_code_is_refused():
    with pytest.raises(UndeclaredRule):
        lookup("config/unknwon-key")
    with pytest.raises(TypeError, match="made by its rule"):
        Finding("a.md", 1, 1, "config/unknown-key", "text written by a check")  # type: ignore[arg-type]


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
    "coverage/unknown-test": "test_run_markers",
    **{r.code: "test_claims / test_claim_mutations" for r in DECLARED if r.code.startswith(("claim/", "cite/"))},
    **{r.code: "test_parity" for r in DECLARED if r.code.startswith("parity/")},
    **{r.code: "test_param_table" for r in DECLARED if r.code.startswith("table/")},
    **{r.code: "test_diagram" for r in DECLARED if r.code.startswith("diagram/")},
    **{r.code: "test_merger_cli" for r in DECLARED if r.code.startswith("merger/")},
}


def test_the_rules_without_an_example_are_exactly_the_listed_ones():
    assert {r.code for r in DECLARED if r.bad is None} == set(WITHOUT_EXAMPLE)


def _slug(rule: Rule, which: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", rule.code).strip("-") + f"-{which}"


def _cli(args: list[str], cwd: Path) -> list[dict]:
    """What ``verl-cookbook ARGS --format json`` prints, run in its own process from ``cwd``: the findings."""
    done = subprocess.run(
        [sys.executable, "-m", "verl_cookbook", *args, "--format", "json", "--lang", "en"],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        timeout=600,
    )
    assert done.returncode in (0, 1), done.stderr
    out = json.loads(done.stdout or "[]")
    return out["findings"] if isinstance(out, dict) else out


def _run_examples(root: Path) -> dict[tuple[str, str], list[str]]:
    """(rule code, bad|good) -> the rules the command line reports on that example. The pages go to one ``check``
    (an example with files of its own, such as a site's coverage-debt.json, to a ``check`` of its own site); the
    scripts and configs to one ``doctor`` per set of options."""
    examples = [(r, w, getattr(r, w)) for r in DECLARED for w in ("bad", "good") if getattr(r, w) is not None]
    shared = root / "site"
    shared.mkdir()
    (shared / "mkdocs.yml").write_text("site_name: rule examples\n", encoding="utf-8")
    where: dict[tuple[str, str], Path] = {}
    checks: list[Path] = [shared]
    doctor: dict[tuple[str, ...], list[Path]] = {}
    for rule, which, ex in examples:
        name = _slug(rule, which)
        if ex.kind == "md" and ex.files:  # a site of its own, as the example's files say
            site = root / name
            site.mkdir()
            (site / "mkdocs.yml").write_text("site_name: rule example\n", encoding="utf-8")
            for rel, text in ex.files.items():
                (site / rel).write_text(text, encoding="utf-8")
            page = site / "example.md"
            checks.append(site)
        elif ex.kind == "md":
            page = shared / f"{name}.md"
        else:
            folder = root / ("doctor-" + "-".join(a.strip("-") for a in ex.args) if ex.args else "doctor")
            folder.mkdir(exist_ok=True)
            page = folder / f"{name}.{ex.kind}"
            doctor.setdefault(ex.args, []).append(page)
        page.write_text(ex.text, encoding="utf-8")
        where[(rule.code, which)] = page
    found: dict[Path, list[str]] = {}
    for site in checks:
        for f in _cli(["check", "--root", str(site), str(site)], site):
            # an example with a site of its own owns every finding of it (one on its coverage-debt.json, say)
            path = (site / f["path"]).resolve() if site == shared else (site / "example.md").resolve()
            found.setdefault(path, []).append(f["rule"])
    for args, files in doctor.items():
        folder = files[0].parent
        for f in _cli(["doctor", "--quiet", *args, *(p.name for p in files)], folder):
            found.setdefault((folder / f["path"]).resolve(), []).append(f["rule"])
    return {key: found.get(page.resolve(), []) for key, page in where.items()}


@pytest.fixture(scope="module")
def reported(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], list[str]]:
    return _run_examples(tmp_path_factory.mktemp("rule-examples"))


WITH_BAD = [r for r in DECLARED if r.bad is not None]
WITH_GOOD = [r for r in DECLARED if r.good is not None]


@pytest.mark.parametrize("rule", WITH_BAD, ids=str)
def test_the_rules_bad_example_fires_it_through_the_command_line(rule: Rule, reported) -> None:
    assert rule.code in reported[(rule.code, "bad")] or any(
        r.startswith(rule.code) for r in reported[(rule.code, "bad")] if rule.family
    ), reported[(rule.code, "bad")]


@pytest.mark.parametrize("rule", WITH_GOOD, ids=str)
def test_the_rules_correct_example_draws_no_finding_through_the_command_line(rule: Rule, reported) -> None:
    assert reported[(rule.code, "good")] == []


def test_the_example_runner_tells_a_silent_example_from_a_firing_one(tmp_path: Path) -> None:
    """The harness itself: a page that breaks a rule is reported under it, one that does not is not."""
    site = tmp_path / "s"
    site.mkdir()
    (site / "mkdocs.yml").write_text("site_name: t\n", encoding="utf-8")
    (site / "bad.md").write_text("```yaml\ntrainer:\n  total_epochs: 2\n```\n", encoding="utf-8")
    (site / "good.md").write_text('```yaml {check="skip" reason="r"}\nx: 1\n```\n', encoding="utf-8")
    found = {Path(f["path"]).name: f["rule"] for f in _cli(["check", "--root", str(site), str(site)], site)}
    assert found == {"bad.md": "snippet/undeclared"}
