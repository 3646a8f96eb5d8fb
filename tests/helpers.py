"""Helpers for tests: run the checker on a page and list the rules it reports."""

from __future__ import annotations

from pathlib import Path

from verl_cookbook.facts import Facts
from verl_cookbook.findings import Finding
from verl_cookbook.runner import check_paths


def findings_for(page: Path, facts: Facts) -> list[Finding]:
    return check_paths([page], facts, root=page.parent.parent if page.parent.name == "docs" else page.parent).findings


def rules(findings: list[Finding]) -> list[str]:
    return [f.rule for f in findings]


def fence(code: str, info: str) -> str:
    return f"``` {info}\n{code.rstrip()}\n```\n"
