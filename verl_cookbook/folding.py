"""Folding: a finding that another finding explains is shown under that cause, not on its own.

A rule declares which rules' findings it can explain (``folds=`` in its declaration: ``override/group`` explains the
unknown keys of the packages its group choice would have filled). A finding of such a rule says, in its data, how far
it reaches: ``under`` (dotted key prefixes: the key of what it explains lies under one of them) and ``span``
(``[first, last]``: the lines of the command it is about). A cause with neither reaches nothing. Each finding is
folded under the root of the first finding that explains it (a cause that is itself explained passes what it explains
up to its own cause), so a finding is shown on its own only when nothing explains it.

Nothing is dropped: the text and GitHub formats show each root cause once with the count and lines of what is under
it, and JSON keeps every finding, a folded one with ``caused_by`` naming its root cause. ``check`` and ``doctor`` fold
after suppressions and ``--select/--ignore`` (a cause left out folds nothing), so exit codes and baselines still see
every finding. Judging whether a rule explains another is the declarations' business, never the messages'.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from verl_cookbook.rules import Finding, matches


def key_of(f: Finding) -> str | None:
    """The config key a finding is about (``data["key"]``, or ``data["section"]`` for a whole section), without
    Hydra's ``+``/``~`` prefixes; None when it names none."""
    value = f.data.get("key") or f.data.get("section")
    return str(value).lstrip("+~") or None if value else None


def explains(cause: Finding, f: Finding) -> bool:
    """Whether ``cause`` explains ``f``: its rule declares ``f``'s rule among those it folds, both are in one file,
    and ``f`` lies within the reach ``cause`` carries (its ``span`` of lines and the key prefixes it is ``under``)."""
    if cause is f or f.path != cause.path or not matches(f.rule, cause.rule.declared.folds):
        return False
    span = cause.data.get("span")
    under = cause.data.get("under")
    if span is None and under is None:
        return False
    if span is not None and not (int(span[0]) <= f.line <= int(span[1])):
        return False
    if under is not None:
        key = key_of(f)
        if key is None or not any(key == p or key.startswith(p + ".") for p in under):
            return False
    return True


@dataclass(frozen=True)
class Folding:
    """A run's findings folded: ``findings`` as given (in their order); ``cause[i]`` is the index of the root cause
    finding ``i`` is folded under (None: shown on its own); ``shown`` the indexes to show, root causes that explain
    something first in each file."""

    findings: Sequence[Finding]
    cause: Sequence[int | None]
    shown: Sequence[int]

    def under(self, i: int) -> list[Finding]:
        """The findings folded under finding ``i``."""
        return [f for f, c in zip(self.findings, self.cause, strict=True) if c == i]

    @property
    def folded(self) -> int:
        return sum(c is not None for c in self.cause)

    @property
    def roots(self) -> int:
        """How many shown findings have something folded under them."""
        return len({c for c in self.cause if c is not None})


def fold(findings: Sequence[Finding]) -> Folding:
    """Fold ``findings`` (see the module's docstring). A finding's direct cause is the first finding, in the given
    order, that explains it without being explained by it; its root is found by following direct causes."""
    causes = [j for j, c in enumerate(findings) if c.rule.declared.folds]  # only a rule that folds can explain
    parent: list[int | None] = [
        next((j for j in causes if j != i and explains(findings[j], f) and not explains(f, findings[j])), None)
        for i, f in enumerate(findings)
    ]
    root: list[int | None] = []
    for i in range(len(findings)):
        seen, last, j = {i}, None, parent[i]
        while j is not None and j not in seen:
            seen.add(j)
            last, j = j, parent[j]
        root.append(last)
    # a chain that runs into a loop ends on a finding that is itself folded: show such a finding on its own
    root = [None if r is not None and root[r] is not None else r for r in root]
    explaining = {r for r in root if r is not None}
    order = {p: k for k, p in enumerate(dict.fromkeys(f.path for f in findings))}
    shown = sorted(
        (i for i in range(len(findings)) if root[i] is None),
        key=lambda i: (order[findings[i].path], i not in explaining, i),
    )
    return Folding(findings, root, shown)


def lines_text(under: Sequence[Finding]) -> str:
    """``108 … 306`` (the first and last line of what is folded), or the one line."""
    lines = sorted({f.line for f in under})
    return str(lines[0]) if len(lines) == 1 else f"{lines[0]} … {lines[-1]}"


# What a shown cause says about what is under it, in the output's language.
_UNDER = {
    "en": "under it: {n} more finding{s} on line{ls} {lines} (each in --format json, with caused_by)",
    "zh": "由此引起：另有 {n} 条检查结果，第 {lines} 行（--format json 逐条列出，并标注 caused_by）",
}


def under_text(under: Sequence[Finding], lang: str = "en") -> str | None:
    """The line a shown cause carries about what is folded under it; None when nothing is."""
    if not under:
        return None
    lines = lines_text(under)
    shown = lines.replace(" … ", "~") if lang == "zh" else lines  # a range reads 3~7 in 中文, as Ascend docs write it
    return _UNDER[lang].format(
        n=len(under), s="" if len(under) == 1 else "s", ls="" if "…" not in lines else "s", lines=shown
    )


def caused_by(folding: Folding, i: int) -> dict | None:
    """The JSON pointer from finding ``i`` to its root cause (path, line, col, rule), or None."""
    j = folding.cause[i]
    if j is None:
        return None
    c = folding.findings[j]
    return {"path": c.path, "line": c.line, "col": c.col, "rule": str(c.rule)}
