"""``--format github`` within GitHub's limits.

GitHub shows 10 error, 10 warning and 10 notice annotations per step (and 50 per job); the rest of a step's
annotation lines are dropped without a word (actions/toolkit, docs/problem-matchers.md, "Limitations"). So the first
``ANNOTATIONS`` findings of each level (a rule's severity: ``::notice`` for info, ``::warning`` for a warning,
``::error`` for an error; one notice fewer, kept for the line that says what is left out) become annotations, a
notice says how many more there are, and every finding goes into the job summary (``$GITHUB_STEP_SUMMARY``) as a
Markdown table, cut at GitHub's 1 MiB per step with a line saying so. A finding that another one explains
(:mod:`verl_cookbook.folding`) is not annotated: its cause's annotation counts it, and its row in the summary names
the cause's line.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from verl_cookbook.findings import Extra, Finding, format_github, github_level
from verl_cookbook.folding import fold
from verl_cookbook.interface import plural

ANNOTATIONS = 10  # of each level, per step
SUMMARY_BYTES = 1024 * 1024 - 4096  # GitHub's cap per step summary, less room for the closing line


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", "<br>")


def summary_table(findings: list[Finding], title: str = "verl-cookbook", lang: str = "en") -> str:
    """Every finding as a Markdown table (file:line, rule, message, what verl has), at most ``SUMMARY_BYTES``."""
    head = [f"### {title}: {plural(len(findings), 'finding')}", ""]
    if not findings:
        return "\n".join(head) + "\n"
    head += ["| Where | Rule | Finding | verl |", "|---|---|---|---|"]
    out = "\n".join(head) + "\n"
    folding = fold(findings)
    for k, f in enumerate(findings):
        fact = " ".join(x for x in (f.fact or "", f"({f.fact_source})" if f.fact_source else "") if x)
        cause = folding.cause[k]
        text = f.text(lang) + (f" (caused by line {findings[cause].line})" if cause is not None else "")
        row = f"| `{_cell(f.path)}:{f.line}` | `{f.rule}` | {_cell(text)} | {_cell(fact)} |\n"
        if len((out + row).encode("utf-8")) > SUMMARY_BYTES:
            out += f"\n{len(findings) - k} more finding(s) not shown: the job summary is full (1 MiB)\n"
            break
        out += row
    return out


def emit(
    findings: list[Finding], title: str = "verl-cookbook", lang: str = "en", extra: Sequence[Extra] | None = None
) -> str:
    """The lines to print: at most ``ANNOTATIONS`` annotations of each level and a notice for the rest. The summary
    table is appended to ``$GITHUB_STEP_SUMMARY`` when GitHub set it. ``extra``: lines added under each finding
    (doctor's fix and link)."""
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        try:
            with Path(summary).open("a", encoding="utf-8") as fh:
                fh.write(summary_table(findings, title, lang))
        except OSError:
            summary = None
    folding = fold(findings)
    shown: list[int] = []
    per_level = {"error": 0, "warning": 0, "notice": 0}
    room = {"error": ANNOTATIONS, "warning": ANNOTATIONS, "notice": ANNOTATIONS - 1}  # a notice says what is left out
    for k in folding.shown:
        level = github_level(findings[k])
        if per_level[level] < room[level]:
            per_level[level] += 1
            shown.append(k)
    shown.extend(k for k in range(len(findings)) if folding.cause[k] in shown)  # counted under their cause
    shown.sort()
    chosen = [findings[k] for k in shown]
    lines = [format_github(chosen, [extra[k] for k in shown] if extra else None, lang)] if findings else []
    rest = len(folding.shown) - sum(folding.cause[k] is None for k in shown)
    if rest > 0:
        where = "the job summary" if summary else "the text output (run with --format text)"
        lines.append(
            f"::notice title=verl-cookbook::{rest} more finding(s) are not annotated (GitHub shows "
            f"{ANNOTATIONS} annotations of each level per step): all {len(findings)} are in {where}"
        )
    return "\n".join(lines)
