"""The glossary's tables as data: the terms a site uses and the words it avoids.

A glossary page declares each of its tables with ``<!-- check: terms -->`` (a term table) or
``<!-- check: terms list="avoid" -->`` / ``list="register"`` (words the 中文 pages do not use: terms, and
colloquial or first-person phrasing). Columns, by the header's words:

* a term table: the 中文 form and the English form in the first two columns (either order; the header cell
  ``中文`` says which), then a note. A 中文 form written ``检查点引擎（checkpoint engine）`` is the form a page
  gives at the term's first use; ``A / B`` lists two forms of one term.
* an avoid or register table: the words to avoid (``、`` between several), what to write instead, a word that
  allows them in the same sentence (``GPU`` for 显存), and a note.

Two readers use this one: the checker's ``terms`` table check (``checks/terms.py``), which judges a glossary page
on its own, and the prose lint (``scripts/prose_lint.py``), which applies the lists to every page. Pure over a
parsed page; it judges nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from verl_cookbook.markdown import Page, Table

KIND = "terms"
LISTS = ("", "avoid", "register")  # a term table, and the two lists of words to avoid
_FIRST_USE = re.compile(r"^(?P<zh>[^（()]+?)（(?P<en>[A-Za-z][A-Za-z0-9 .-]*)）$")
_CODE = re.compile(r"`+[^`]*`+")


@dataclass(frozen=True)
class Term:
    """A row of a term table."""

    line: int
    zh: str  # the 中文 cell as written
    en: str  # the English cell as written
    note: str

    def zh_forms(self) -> list[str]:
        """The 中文 forms the row names, English glosses and code left out: ``创建通信域 / 通信域初始化`` →
        both; ``检查点引擎（checkpoint engine）`` → ``检查点引擎``."""
        return [_bare(f) for f in self.zh.split(" / ") if _bare(f)]

    def en_forms(self) -> list[str]:
        """The English forms: ``colocated / disaggregated`` → both; ``trainer (actor)`` → ``trainer``."""
        bare = re.sub(r"\s*\([^)]*\)", "", _CODE.sub("", self.en))
        return [f.strip() for f in bare.split(" / ") if f.strip()]

    def first_use(self) -> tuple[str, str] | None:
        """(``检查点引擎``, ``checkpoint engine``) when the 中文 cell is one term with its English in full-width
        parentheses, the form a page gives at first use; None otherwise."""
        m = _FIRST_USE.match(self.zh.strip())
        return (m.group("zh").strip(), m.group("en").strip()) if m else None


@dataclass(frozen=True)
class Avoided:
    """A row of an avoid or register table: words not to use, and what to write instead."""

    line: int
    words: tuple[str, ...]
    use: str
    unless: str  # a word that allows them in the same sentence ("" for none)
    note: str
    register: bool  # a register row (colloquial or first-person phrasing), not a term


@dataclass(frozen=True)
class Glossary:
    terms: list[Term]
    avoided: list[Avoided]
    problems: list[tuple[int, str]]  # (line, what is wrong with a declared table's shape: a case of table/terms-shape)


def _bare(form: str) -> str:
    return re.sub(r"（[^）]*）", "", _CODE.sub("", form)).strip()


def _cells(row: list[str], n: int) -> list[str]:
    return [(row[i] if i < len(row) else "").strip() for i in range(n)]


def read_term_table(table: Table) -> tuple[list[Term], list[tuple[int, str]]]:
    head = [h.strip() for h in table.header]
    if len(head) < 2 or "中文" not in head[:2]:
        return [], [(table.line, "term-columns")]
    zh_col = head.index("中文")
    out = []
    problems = []
    for line, row in table.rows:
        first, second, note = _cells(row, 3)
        zh, en = (first, second) if zh_col == 0 else (second, first)
        if not zh or not en:
            problems.append((line, "term-row"))
            continue
        out.append(Term(line, zh, en, note))
    return out, problems


def read_avoid_table(table: Table, register: bool) -> tuple[list[Avoided], list[tuple[int, str]]]:
    if len(table.header) < 2:
        return [], [(table.line, "avoid-columns")]
    out = []
    problems = []
    for line, row in table.rows:
        words, use, unless, note = _cells(row, 4)
        split = tuple(w.strip() for w in re.split(r"[、,]\s*", words) if w.strip())
        if not split or not use:
            problems.append((line, "avoid-row"))
            continue
        out.append(Avoided(line, split, use, unless, note, register))
    return out, problems


def read_glossary(page: Page) -> Glossary:
    """The term and avoid tables a page declares with ``<!-- check: terms … -->``."""
    terms: list[Term] = []
    avoided: list[Avoided] = []
    problems: list[tuple[int, str]] = []
    for table in page.tables:
        d = table.directive
        if d is None or d.kind != KIND:
            continue
        which = d.attrs.get("list", "")
        if which not in LISTS:
            problems.append((d.line, "list-kind"))
        elif which:
            rows, bad = read_avoid_table(table, register=which == "register")
            avoided += rows
            problems += bad
        else:
            found, bad = read_term_table(table)
            terms += found
            problems += bad
    return Glossary(terms, avoided, problems)


def note_column(table: Table) -> int:
    """The column of a declared glossary table whose cells are prose (its note): the last one."""
    return max(len(table.header) - 1, 0)
