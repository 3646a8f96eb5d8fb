"""Findings of a check on input it has already judged in this run, moved to where the repeat stands.

A Chinese page and its English mirror hold the same code blocks (most are included from ``snippets/``), the
same claims and the same parameter tables: in this site about half of what a check judges is a repeat (106
distinct blocks of 194, 223 distinct claims of 538). What a check finds depends on what it reads of the input
(a block's kind, language, code and attributes; a claim's kind and attributes; a table's declaration, header and
cells) and on the run's facts and options, which every page of a run shares. Only where the findings point
differs. So a repeat is given the first one's findings, each moved from the first's place to the same place in
the repeat: the fence, directive or table line, or the file and line a code line came from.

A finding that points at no such place, or whose text names a file of the first that the repeat is not in, or holds
a number that may be a line of the first which the repeat has elsewhere (``the command started on line 239``), is
not moved: the check runs again on the repeat, so a repeat never gets a finding it would not have got by itself.
A title differs between the two languages and no check reads it, so it is not part of what a block is.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Hashable

from verl_cookbook.findings import Finding
from verl_cookbook.markdown import CodeBlock, Directive, Table

Spot = tuple[str, int]  # (file, line) a finding may point at
_NUMBER = re.compile(r"\d{1,9}")
_MARGIN = 2  # lines either side of the first's that a message might cite (the line after a block, ...)

# Fence attributes only MkDocs reads (how a block is shown, never what it holds).
_SHOWN_ONLY = frozenset({"title"})


def block_input(kind: str, block: CodeBlock) -> tuple[Hashable, list[Spot], int]:
    """(what a block check reads, the places its findings may point at, the fence's column)."""
    attrs = tuple(sorted((k, v) for k, v in block.attrs.items() if k not in _SHOWN_ONLY))
    return ("block", kind, block.lang, block.code, attrs), [(block.page, block.line), *block.line_map], block.col


def claim_input(d: Directive) -> tuple[Hashable, list[Spot], int]:
    return ("claim", d.kind, tuple(sorted(d.attrs.items()))), [(d.page, d.line), (d.page, d.end_line)], 1


def table_input(table: Table) -> tuple[Hashable, list[Spot], int] | None:
    d = table.directive
    if d is None:
        return None
    cells = tuple(tuple(c) for _, c in table.rows)
    key = ("table", d.kind, tuple(sorted(d.attrs.items())), tuple(table.header), cells)
    rows = [(table.page, n) for n, _ in table.rows]
    spots = [(d.page, d.line), (d.page, d.end_line), (table.page, table.line), *rows]
    return key, spots, 1


class Repeats:
    """The findings of each input checked so far in this process (one run), and where it stood."""

    def __init__(self) -> None:
        self._seen: dict[Hashable, tuple[list[Spot], int, list[Finding]]] = {}
        self.reused = 0  # repeats answered without running the check (the tests count them)

    def run(self, got: tuple[Hashable, list[Spot], int], check: Callable[[], list[Finding]]) -> list[Finding]:
        key, spots, col = got
        first = self._seen.get(key)
        if first is not None:
            moved = _moved(first[2], first[0], first[1], spots, col)
            if moved is not None:
                self.reused += 1
                return moved
        out = check()
        if first is None:
            self._seen[key] = (spots, col, out)
        return out


def _moved(
    findings: list[Finding], old: list[Spot], old_col: int, new: list[Spot], new_col: int
) -> list[Finding] | None:
    """``findings`` (made at ``old``) moved to ``new``, place for place; None where that is not certain."""
    if len(old) != len(new):
        return None
    to: dict[Spot, Spot] = {}
    for a, b in zip(old, new, strict=True):
        if to.setdefault(a, b) != b:
            return None  # one place of the first is two places of the repeat
    renamed = {a[0] for a, b in zip(old, new, strict=True) if a[0] != b[0]}  # files of the first, not the repeat's
    shifted = [a[1] for a, b in zip(old, new, strict=True) if a[1] != b[1]]  # its lines that are others in the repeat
    near = range(min(shifted) - _MARGIN, max(shifted) + _MARGIN + 1) if shifted else range(0)
    out = []
    for f in findings:
        spot = to.get((f.path, f.line))
        if spot is None:
            return None
        if (f.path, f.line) == old[0] and old_col != new_col:
            return None  # at the fence, whose column differs
        texts = [t for t in (f.message, f.fact, f.fact_source) if t]
        if any(name in t for name in renamed for t in texts):
            return None  # the text names a file of the first
        if any(int(n) in near for t in texts for n in _NUMBER.findall(t)):
            return None  # the text may cite a line of the first (any number about its lines counts)
        out.append(dataclasses.replace(f, path=spot[0], line=spot[1]))
    return out
