"""``verl-cookbook coverage``: claim coverage figures per page and for the site, as coverage.py reports lines.

For each page: its statements, how many are factual, and how the factual ones are held — by a check (a claim or the
checked block a sentence introduces), by a run of the real code, by a verified citation, or marked ※ — and how many
are unbound, of which how many the site's debt list records. ``--show-unbound`` lists the unbound ones with their
line and first words (as ``coverage report --show-missing`` lists lines). The figures are a report, not findings:
``verl-cookbook check`` reports the unbound statements that the debt list does not record. The figures need no verl
source (only the shipped file list of the pinned release, where citations resolve), so the site build reads them
for each page's banner (``scripts/hooks/checked_count.py``).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from verl_cookbook.checks.coverage import Assessment, Figures, assess, first_words
from verl_cookbook.coverage_debt import FILE, RULES, render, site_relative
from verl_cookbook.doc_reader import MARKDOWN_SUFFIXES
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import MarkdownError, parse_page
from verl_cookbook.runner import collect, shown_path
from verl_cookbook.session import Session

COLUMNS = ("statements", "factual", "check", "run", "cited", "mark", "unbound", "debt")
HEADINGS = ("Stmts", "Fact", "Check", "Run", "Cited", "※", "Unbound", "Debt")


@dataclass
class PageResult:
    path: str  # as shown (relative to the working folder)
    assessment: Assessment | None  # None: the page cannot be read
    problem: Finding | None = None

    @property
    def figures(self) -> Figures:
        return self.assessment.figures if self.assessment else Figures(pages=1)


def measure(paths: list[Path], root: Path) -> list[PageResult]:
    """The coverage of every Markdown page under ``paths`` (a site at ``root``)."""
    files, _ = collect(paths)
    memo = Session()
    out = []
    cwd = Path.cwd().resolve()
    for f in files:
        if f.suffix.lower() not in MARKDOWN_SUFFIXES:
            continue
        try:
            page = parse_page(f, Path.cwd(), bases=[root])
        except MarkdownError as e:
            out.append(PageResult(shown_path(f, cwd), None, e.rule.at(shown_path(f, cwd), e.line, 1, **e.data)))
            continue
        out.append(PageResult(page.path, assess(page, root, memo)))
    return out


def total(results: list[PageResult]) -> Figures:
    t = Figures()
    for r in results:
        t.add(r.figures)
    return t


def _cells(f: Figures) -> list[str]:
    return [str(getattr(f, c)) for c in COLUMNS] + [f"{f.percent:.0f}%"]


def format_text(results: list[PageResult], show_unbound: bool = False) -> str:
    """A coverage.py-style table: one row a page, then the total; with ``show_unbound``, each unbound statement."""
    rows = []
    for r in results:
        if r.assessment is not None and r.assessment.coverage.generated:
            rows.append([r.path, *["-"] * len(COLUMNS), f"generated ({r.figures.generated})"])
        else:
            rows.append([r.path, *_cells(r.figures)])
    t = total(results)
    head = ["Page", *HEADINGS, "Bound"]
    foot = ["TOTAL", *_cells(t)]
    widths = [max(len(row[i]) for row in [head, *rows, foot]) for i in range(len(head))]

    def line(row: list[str]) -> str:
        return "  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(row)).rstrip()

    rule = "-" * len(line(head))
    out = [line(head), rule, *map(line, rows), rule, line(foot)]
    out.append(
        f"{t.factual} factual statements of {t.statements}: {t.check} held by a check, {t.run} by a run, {t.cited} "
        f"by a verified citation, {t.mark} marked ※, {t.unbound} unbound ({t.debt} recorded in {FILE})"
    )
    if show_unbound:
        out.append("")
        for r in results:
            if r.assessment is None:
                continue
            for j in r.assessment.coverage.unbound():
                st = j.statement
                tag = " [debt]" if r.assessment.is_recorded(j) else ""
                out.append(f"{r.path}:{st.line}:{st.col}:{tag} “{first_words(st.text, 80)}”")
    return "\n".join(out)


def as_json(results: list[PageResult]) -> str:
    """Every page's figures and its unbound statements (line, column, text, whether the debt list records it)."""
    pages = []
    for r in results:
        entry: dict = {"path": r.path, **{k: v for k, v in asdict(r.figures).items() if k != "pages"}}
        if r.assessment is not None:
            a = r.assessment
            entry["generated"] = a.coverage.generated
            entry["unbound_statements"] = [
                {"line": j.statement.line, "col": j.statement.col, "text": j.statement.text, "debt": a.is_recorded(j)}
                for j in a.coverage.unbound()
            ]
        else:
            entry["error"] = r.problem.message if r.problem else "cannot be read"
        pages.append(entry)
    t = total(results)
    site = {k: v for k, v in asdict(t).items()}
    site["percent"] = round(t.percent, 1)
    return json.dumps({"pages": pages, "total": site}, ensure_ascii=False, indent=2)


def write_debt(results: list[PageResult], root: Path) -> int:
    """Rewrite the site's debt list from ``results``: every statement that draws one of the recordable findings
    now. The number of entries written."""
    entries: dict[str, dict[str, list[str]]] = {rule: {} for rule in RULES}
    n = 0
    for r in results:
        if r.assessment is None:
            continue
        page = site_relative(r.path, root)
        items = [(j.statement.line, j.statement.col, rule, j.statement.text) for rule, j in r.assessment.recorded]
        items += [(f.line, f.col, str(f.rule), str(f.data["text"])) for f in r.assessment.findings if f.rule in RULES]
        for _line, _col, rule, text in sorted(items):
            entries[rule].setdefault(page, []).append(text)
            n += 1
    (root / FILE).write_text(render(entries), encoding="utf-8")
    return n
