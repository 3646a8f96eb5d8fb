"""Glossary tables (``<!-- check: terms -->``, ``<!-- check: terms list="avoid" -->``, ``list="register"``).

A glossary page declares its term tables and its lists of avoided words; ``verl_cookbook.glossary`` reads them, and
the site's prose lint (``scripts/prose_lint.py``) applies them to every page: the avoided words, the first-use form
of a term (``检查点引擎（checkpoint engine）``), and that each listed term is used and listed alike in both languages.
This check judges the glossary page on its own, so the lists cannot contradict themselves:

- ``table/terms-shape``: a term table has the 中文 and the English form in its first two columns, an avoid or
  register table the words and what to write instead; every row fills them; ``list=`` names a kind there is.
- ``table/terms-avoided-form``: a term's 中文 form, or the replacement an avoid row gives, contains a word that
  the page's own lists avoid (unless the row's exception word is there too).

The note column of these tables is prose: claim coverage reads each note as a statement
(``verl_cookbook.statements``), so a note that states a fact is bound like any other sentence.
"""

from __future__ import annotations

from pathlib import Path

from verl_cookbook.checks import Context, table_check
from verl_cookbook.findings import Finding
from verl_cookbook.glossary import Avoided, read_avoid_table, read_glossary, read_term_table
from verl_cookbook.markdown import MarkdownError, Table, parse_page
from verl_cookbook.rules.pages import TABLE_TERMS_AVOIDED_FORM, TABLE_TERMS_SHAPE


def _avoided_in(form: str, lists: list[Avoided]) -> tuple[str, Avoided] | None:
    for row in lists:
        if row.unless and row.unless in form:
            continue
        for word in row.words:
            if word in form:
                return word, row
    return None


def _page_lists(ctx: Context, table: Table) -> list[Avoided]:
    """The avoid and register lists of the table's own page (read again: a table check is handed the table)."""
    path = Path(table.page)
    path = path if path.is_absolute() else ctx.root / path
    try:
        return read_glossary(parse_page(path, ctx.root)).avoided
    except (OSError, MarkdownError):
        return []


@table_check("terms")
def check_terms(table: Table, ctx: Context) -> list[Finding]:
    d = table.directive
    assert d is not None
    which = d.attrs.get("list", "")
    if which not in ("", "avoid", "register"):
        return [TABLE_TERMS_SHAPE.at(table.page, d.line, 1, case="list-kind", which=which)]
    if which:
        rows, problems = read_avoid_table(table, register=which == "register")
        forms = [(r.line, r.use) for r in rows]
    else:
        terms, problems = read_term_table(table)
        forms = [(t.line, t.zh) for t in terms]
    out = [TABLE_TERMS_SHAPE.at(table.page, line, 1, case=case) for line, case in problems]
    lists = _page_lists(ctx, table)
    for line, form in forms:
        hit = _avoided_in(form, lists)
        if hit is None or (which and line == hit[1].line):
            continue
        word, row = hit
        case = "register" if row.register else ""
        out.append(TABLE_TERMS_AVOIDED_FORM.at(table.page, line, 1, case=case, form=form, word=word, listed=row.line))
    return out
