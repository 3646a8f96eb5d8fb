"""The site's coverage debt: factual statements written before claim coverage was checked, not yet bound.

``coverage-debt.json`` at the site root records them by page (relative to the site root) and sentence text (as the
statement reader gives it: whitespace collapsed, markers left out), never by line number, under the rule they fall
under. A recorded statement draws no finding, but the figures still count it as unbound, and ``verl-cookbook
coverage`` prints how many each page has. The list only shrinks: an entry that no longer matches an unbound
statement of its page (it was bound, reworded or deleted) is a finding (``coverage/debt-fixed``) until it is removed,
and ``tests/test_coverage_debt.py`` fails on a branch whose list holds an entry its base does not. ``verl-cookbook
coverage --write-debt`` rewrites it from the pages as they are.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from verl_cookbook.findings import Finding
from verl_cookbook.rules.coverage import (
    COVERAGE_BLANKET_CHECKED,
    COVERAGE_DEBT_FIXED,
    COVERAGE_DEBT_INVALID,
    COVERAGE_HISTORY_UNBOUND,
    COVERAGE_MARK_WITHOUT_LINK,
    COVERAGE_UNBOUND,
)

FILE = "coverage-debt.json"
FORMAT = 1
RULES = (COVERAGE_UNBOUND, COVERAGE_HISTORY_UNBOUND, COVERAGE_BLANKET_CHECKED, COVERAGE_MARK_WITHOUT_LINK)


@dataclass
class Debt:
    """The whole list: (rule, page) -> texts with their line in the file."""

    path: Path
    shown: str
    entries: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    problem: str = ""  # why the file cannot be read (then it records nothing)
    lines: list[str] = field(default_factory=list)

    def line_of(self, value: str) -> int:
        """The line of the file where ``value`` (a page or an entry) is written, as JSON writes it (1 if nowhere)."""
        needle = json.dumps(value, ensure_ascii=False)
        return next((n for n, line in enumerate(self.lines, 1) if needle in line), 1)


@dataclass
class PageDebt:
    debt: Debt
    page: str  # relative to the site root
    left: dict[str, Counter[str]] = field(default_factory=dict)

    def take(self, rule: str, text: str) -> bool:
        """Whether the list records this statement under ``rule`` (each entry answers once)."""
        c = self.left.get(rule)
        if c and c[text] > 0:
            c[text] -= 1
            return True
        return False

    def stale(self) -> list[Finding]:
        out = []
        for rule, counter in self.left.items():
            for text, n in counter.items():
                if n <= 0:
                    continue
                line = self.debt.line_of(text)
                words = text if len(text) <= 60 else text[:59].rstrip() + "…"
                out.append(
                    COVERAGE_DEBT_FIXED.at(
                        self.debt.shown, line, 1, page=self.page, listed=rule, words=words, text=text
                    )
                )
        return out


def load(root: Path) -> Debt:
    """The debt list of the site at ``root`` (empty when it has none)."""
    path = root / FILE
    shown = _shown(path)
    debt = Debt(path, shown)
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return debt
    except OSError as e:
        debt.problem = f"cannot read it: {e.strerror or e}"  # (an OS error's text travels as data)
        return debt
    try:
        doc = json.loads(raw)
        if not isinstance(doc, dict) or doc.get("verl-cookbook-coverage-debt") != FORMAT:
            raise ValueError("not a coverage debt list")
        debt.lines = raw.splitlines()
        for rule, pages in doc.items():
            if rule == "verl-cookbook-coverage-debt":
                continue
            if rule not in RULES or not isinstance(pages, dict):
                raise ValueError(f"{rule!r} is not one of {', '.join(RULES)}")
            for page, texts in pages.items():
                if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
                    raise ValueError(f"{page}: the entries are not a list of strings")
                debt.entries[(rule, page)] = texts
    except (ValueError, AttributeError, TypeError) as e:
        debt.entries = {}
        debt.problem = str(e)
    return debt


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def site_relative(page_path: str, root: Path) -> str:
    try:
        return Path(os.path.relpath(Path(page_path).resolve(), root.resolve())).as_posix()
    except ValueError:
        return Path(page_path).as_posix()


def for_page(root: Path, page_path: str, memo: Any = None) -> PageDebt:
    """What the list records for one page, to be taken statement by statement. ``memo``: the run's Session, which
    reads the file once."""
    store = getattr(memo, "coverage_debt", None)
    try:
        st = (root / FILE).stat()
        key = f"{root.resolve()}\0{st.st_mtime_ns}\0{st.st_size}"  # a list rewritten since is read again
    except OSError:
        key = f"{root.resolve()}\0-"
    if store is not None and key in store:
        debt = store[key]
    else:
        debt = load(root)
        if store is not None:
            store[key] = debt
    page = site_relative(page_path, root)
    left = {rule: Counter(texts) for (rule, p), texts in debt.entries.items() if p == page}
    return PageDebt(debt, page, left)


def problems(root: Path) -> list[Finding]:
    """The list's own problems: it cannot be read, or it names a page the site does not have."""
    debt = load(root)
    if debt.problem:
        return [COVERAGE_DEBT_INVALID.at(debt.shown, 1, 1, file=FILE, error=debt.problem)]
    out = []
    for (rule, page), items in sorted(debt.entries.items()):
        if not (root / page).is_file() and items:
            out.append(COVERAGE_DEBT_FIXED.at(debt.shown, debt.line_of(page), 1, case="gone", page=page, listed=rule))
    return out


def render(entries: dict[str, dict[str, list[str]]]) -> str:
    """The file's text: one entry a line, pages and rules in order (merges stay line-wise)."""
    parts = ['{\n "verl-cookbook-coverage-debt": 1']
    for rule in RULES:
        pages = entries.get(rule) or {}
        if not pages:
            continue
        body = []
        for page in sorted(pages):
            texts = ",\n".join("   " + json.dumps(t, ensure_ascii=False) for t in pages[page])
            body.append(f"  {json.dumps(page)}: [\n{texts}\n  ]")
        parts.append(f" {json.dumps(rule)}: {{\n" + ",\n".join(body) + "\n }")
    return ",\n".join(parts) + "\n}\n"
