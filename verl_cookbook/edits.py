"""Edits: the one way ``--fix`` and ``--diff`` change a user's file, and the unified diff they print.

An :class:`Edit` replaces one exact piece of text on one line (``old`` must be found at ``col`` on ``line``, as the
file is now) with ``new``. A fix is computed from a finding's data by its rule, never by parsing a message; this module
only applies edits and shows them. It never writes a file: the caller decides whether the user asked for that.

Edits that do not apply to the text as it is (the line changed since the check, or two fixes touch the same span)
are returned as *rejected*, not applied, so a fix never turns one problem into a garbled line.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Edit:
    """Replace ``old`` at 1-based ``line``, 1-based ``col``, with ``new`` (``new`` may span lines; ``old`` may not,
    but it may end with the line's newline: ``Edit(n, 1, whole_line_with_newline, "")`` deletes line ``n``)."""

    line: int
    col: int
    old: str
    new: str
    rule: str = ""  # the rule code whose finding this edit fixes, for the report

    def __post_init__(self) -> None:
        if "\n" in self.old.removesuffix("\n").removesuffix("\r"):
            raise ValueError("an edit replaces text on one line: old may end with its newline, not contain one")
        if self.line < 1 or self.col < 1:
            raise ValueError(f"line and col are 1-based, got {self.line}:{self.col}")


@dataclass(frozen=True)
class Applied:
    """The text after the edits that applied, and those that did not (with why)."""

    text: str
    applied: tuple[Edit, ...]
    rejected: tuple[tuple[Edit, str], ...]


def apply_edits(text: str, edits: Iterable[Edit]) -> Applied:
    """Apply ``edits`` to ``text``. An edit whose ``old`` is not at its place, or that overlaps an edit already
    accepted, is rejected with the reason; identical edits (two findings with one fix) apply once."""
    lines = text.splitlines(keepends=True)
    accepted: list[Edit] = []
    rejected: list[tuple[Edit, str]] = []
    for e in sorted(set(edits)):
        if e.line > len(lines):
            rejected.append((e, f"line {e.line} is past the end of the file ({len(lines)} lines)"))
            continue
        start = e.col - 1
        if lines[e.line - 1][start : start + len(e.old)] != e.old:
            rejected.append((e, f"{e.old!r} is no longer at line {e.line}, column {e.col}"))
            continue
        span = (start, start + len(e.old))
        clash = next(
            (a for a in accepted if a.line == e.line and a.col - 1 < span[1] and span[0] < a.col - 1 + len(a.old)),
            None,
        )
        if clash is not None or any(a.line == e.line and a.col == e.col for a in accepted):
            rejected.append((e, f"overlaps another fix at line {e.line} ({clash.rule if clash else 'same column'})"))
            continue
        accepted.append(e)
    # right to left on each line, so earlier columns stay valid
    for e in sorted(accepted, key=lambda a: (a.line, -a.col)):
        i, start = e.line - 1, e.col - 1
        lines[i] = lines[i][:start] + e.new + lines[i][start + len(e.old) :]
    return Applied("".join(lines), tuple(accepted), tuple(rejected))


def unified_diff(path: str, before: str, after: str) -> str:
    """The change as ``diff -u`` prints it (``a/PATH`` → ``b/PATH``), empty when nothing changed."""
    if before == after:
        return ""
    out = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), f"a/{path}", f"b/{path}"
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in out)


def describe_rejected(path: str, rejected: Sequence[tuple[Edit, str]]) -> list[str]:
    """One line per fix not applied: ``path:line:col: RULE not fixed: why``."""
    return [f"{path}:{e.line}:{e.col}: {e.rule or 'fix'} not fixed: {why}" for e, why in rejected]
