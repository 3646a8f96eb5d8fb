"""Helpers for tests: run the checker on a page and list the rules it reports; doctor on a fixture script."""

from __future__ import annotations

import functools
import os
import shutil
import sys
from pathlib import Path

import pytest

from verl_cookbook.facts import Facts
from verl_cookbook.findings import Finding
from verl_cookbook.runner import _COUNTERS, check_paths


def findings_for(page: Path, facts: Facts) -> list[Finding]:
    return check_paths([page], facts, root=page.parent.parent if page.parent.name == "docs" else page.parent).findings


def on_page_and_in_doctor(page: Path, script: Path, facts: Facts, rule: str) -> tuple[Finding, Finding]:
    """The one finding of ``rule`` that ``check`` gives for ``page`` and the one ``doctor`` gives for ``script`` (the
    same commands, as a shell block and as a launch script): one judge, so the two must match."""
    from verl_cookbook.doctor import diagnose

    (on_page,) = [f for f in findings_for(page, facts) if f.rule == rule]
    (in_doctor,) = [d.finding for d in diagnose(script, facts).findings if d.finding.rule == rule]
    return on_page, in_doctor


def sample_finding(code: str, path: str, line: int, col: int = 1, **data: object) -> Finding:
    """A finding of rule ``code`` made as a check makes one (``RULE.at``), the fields its message needs filled with
    placeholders unless given: for tests of what happens to findings (selection, baselines, output formats)."""
    from verl_cookbook.rules import lookup

    rule = lookup(code)
    filled = {name: f"<{name}>" for name in rule.declared.message.required(str(data.get("case") or ""))}
    return rule.at(path, line, col, **{**filled, **data})


def rules(findings: list[Finding]) -> list[str]:
    return [f.rule for f in findings]


def fence(code: str, info: str) -> str:
    return f"``` {info}\n{code.rstrip()}\n```\n"


def site_with(dest: Path, pages: tuple[str, ...], written: dict[str, str]) -> Path:
    """A site at ``dest``: this project's mkdocs.yml and snippets, its ``pages`` (paths under the repository) and
    pages ``written`` (path -> text)."""
    repo = Path(__file__).resolve().parent.parent
    shutil.copy(repo / "mkdocs.yml", dest / "mkdocs.yml")
    shutil.copytree(repo / "snippets", dest / "snippets")
    for rel in pages:
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(repo / rel, dest / rel)
    for rel, text in written.items():
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        (dest / rel).write_text(text, encoding="utf-8")
    return dest


def site_report(site: Path, facts: Facts, use_cache: bool = False) -> tuple:
    """(findings, counters, included snippets) of a check of ``site``'s docs, run from the site's folder."""

    old = Path.cwd()
    os.chdir(site)
    try:
        report = check_paths([site / "docs"], facts, site, {"use_cache": use_cache})
    finally:
        os.chdir(old)
    return report.findings, tuple(getattr(report, k) for k in _COUNTERS), report.includes


# The newest markdown-it-py release, installed beside the test environment by scripts/install.sh ([5/7]): the parser
# `pip install verl-cookbook` gets, which the environment's test tools keep out of it.
NEWEST_MARKDOWN_IT = Path(sys.prefix) / "newest-markdown-it"


def empty_cache(dest: Path) -> Path:
    """``dest`` made an empty cache folder (no facts, compositions or pages) with the verl releases already in the
    test run's cache linked in (every covered one fetched there first: pages cite older releases), so nothing is
    downloaded again."""
    from verl_cookbook.releases import covered_releases
    from verl_cookbook.verl_source import cache_dir, from_release

    for version in covered_releases():
        from_release(version)
    (dest / "releases").mkdir(parents=True)
    for release in (cache_dir() / "releases").iterdir():
        (dest / "releases" / release.name).symlink_to(release)
    return dest


def line_of(path: Path, needle: str, *, skip_comments: bool = False) -> int:
    """1-based line of the first line of ``path`` containing ``needle`` (so fixtures can change freely); with
    ``skip_comments``, a comment line that mentions it does not count."""
    for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in text and not (skip_comments and text.lstrip().startswith("#")):
            return i
    raise AssertionError(f"{needle!r} not in {path}")


@functools.cache
def doctor_report(facts: Facts, path: Path):
    """doctor's report on a fixture file, computed once per test session (fixtures are only read)."""
    from verl_cookbook.doctor import diagnose

    return diagnose(path, facts)


def rules_and_lines(report) -> list[tuple[str, int]]:
    """(rule, line) of each finding of a doctor report."""
    return [(d.finding.rule, d.finding.line) for d in report.findings]


def startup_python(version: str) -> str:
    """The Python the startup stage's tests run verl in: ``$VERL_COOKBOOK_STARTUP_PYTHON``, else the environment
    install.sh built beside this Python. Not built is a failure, never a skip."""
    from verl_cookbook import startup

    if os.environ.get(startup.PYTHON_ENV):
        return os.environ[startup.PYTHON_ENV]
    py = startup.built_env_python(version)
    if py is None:
        pytest.fail(f"the startup environment is not built: run `bash scripts/startup_env.sh {version}`")
    return str(py)
