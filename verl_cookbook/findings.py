"""Findings: what a check reports, and the three output formats (text, json, github)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

# The exit-code contract of every verl-cookbook command: 3 is a bug in verl-cookbook itself, never the input's fault.
EXIT_OK, EXIT_FINDINGS, EXIT_ERROR, EXIT_INTERNAL = 0, 1, 2, 3


@dataclass(frozen=True)
class Finding:
    """One disagreement between a page (or file) and verl's source.

    ``fact`` says what verl actually has; ``fact_source`` where (``verl/...py:LINE``).
    """

    path: str
    line: int
    col: int
    rule: str
    message: str
    fact: str | None = None
    fact_source: str | None = None

    def sort_key(self) -> tuple:
        return (self.path, self.line, self.col, self.rule, self.message)


def plural(n: int, noun: str) -> str:
    """``1 page``, ``2 pages``, ``0 findings``: a count with its noun in the right number."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def format_text(findings: list[Finding]) -> str:
    lines = []
    for f in findings:
        lines.append(f"{f.path}:{f.line}:{f.col}: {f.rule} {f.message}")
        if f.fact or f.fact_source:
            detail = f.fact or ""
            if f.fact_source:
                detail = f"{detail} ({f.fact_source})" if detail else f"({f.fact_source})"
            label = "verl" if (f.fact_source or "verl/").startswith("verl/") else "source"
            lines.append(f"    {label}: {detail}")
    return "\n".join(lines)


def _gh_escape(value: str, prop: bool = False) -> str:
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        value = value.replace(":", "%3A").replace(",", "%2C")
    return value


def format_github(findings: list[Finding]) -> str:
    out = []
    for f in findings:
        msg = f.message
        if f.fact or f.fact_source:
            label = "verl" if (f.fact_source or "verl/").startswith("verl/") else "source"
            msg += f" — {label}: {f.fact or ''} ({f.fact_source or ''})"
        out.append(
            f"::error file={_gh_escape(f.path, True)},line={f.line},col={f.col},"
            f"title={_gh_escape(f.rule, True)}::{_gh_escape(msg)}"
        )
    return "\n".join(out)


def format_json(findings: list[Finding]) -> str:
    return json.dumps([asdict(f) for f in findings], ensure_ascii=False, indent=2)
