"""The site's coverage debt (verl_cookbook/checks/coverage_debt.py, coverage-debt.json): recorded statements draw no
finding but count as unbound, entries are keyed by page and sentence text, a stale entry is a finding, and the
committed list only shrinks."""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import REPO
from verl_cookbook import coverage_debt, coverage_report
from verl_cookbook.facts import Facts
from verl_cookbook.runner import check_paths

PAGE = "# A\n\nSee below.\n\nThe port is `16666`.\n\nThe bucket is `2048` MB.\n"


def _site(tmp_path: Path, page: str = PAGE, debt: dict | None = None) -> Path:
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n")
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "docs" / "a.md").write_text(page, encoding="utf-8")
    if debt is not None:
        entries = {"coverage/unbound": {"docs/a.md": debt}} if isinstance(debt, list) else debt
        (tmp_path / coverage_debt.FILE).write_text(coverage_debt.render(entries), encoding="utf-8")
    return tmp_path


def _findings(site: Path, facts: Facts) -> list[tuple[str, str, int]]:
    found = check_paths([site / "docs"], facts, site, {"use_cache": False}).findings
    return [(f.rule, f.path, f.line) for f in found]


def test_a_recorded_statement_draws_no_finding_but_counts_as_unbound(tmp_path, facts, monkeypatch):
    site = _site(tmp_path, debt=["The port is `16666`."])
    monkeypatch.chdir(site)
    assert _findings(site, facts) == [("coverage/unbound", "docs/a.md", 7)]
    (result,) = coverage_report.measure([site / "docs"], site)
    f = result.figures
    assert (f.factual, f.unbound, f.debt) == (2, 2, 1)


def test_an_entry_is_keyed_by_its_text_so_lines_added_above_leave_it_recorded(tmp_path, facts, monkeypatch):
    site = _site(tmp_path, debt=["The port is `16666`.", "The bucket is `2048` MB."])
    monkeypatch.chdir(site)
    assert _findings(site, facts) == []
    (site / "docs" / "a.md").write_text(PAGE.replace("# A\n", "# A\n\nAn intro.\n\nMore intro.\n"))
    assert _findings(site, facts) == []


def test_an_entry_whose_sentence_was_reworded_is_a_finding_at_its_line_in_the_list(tmp_path, facts, monkeypatch):
    site = _site(tmp_path, debt=["The port is `16666`.", "The bucket is `2048` MB."])
    monkeypatch.chdir(site)
    (site / "docs" / "a.md").write_text(PAGE.replace("The port is `16666`.", "The HIXL port is `16666`."))
    found = _findings(site, facts)
    assert ("coverage/debt-fixed", "coverage-debt.json", 5) in found
    assert ("coverage/unbound", "docs/a.md", 5) in found and len(found) == 2


def test_two_equal_sentences_need_two_entries(tmp_path, facts, monkeypatch):
    debt = ["The port is `16666`.", "The bucket is `2048` MB."]
    site = _site(tmp_path, page=PAGE + "\nThe port is `16666`.\n", debt=debt)
    monkeypatch.chdir(site)
    assert _findings(site, facts) == [("coverage/unbound", "docs/a.md", 9)]


def test_entries_of_a_page_that_is_gone_and_a_list_that_is_not_one_are_reported(tmp_path):
    site = _site(tmp_path, debt={"coverage/unbound": {"docs/gone.md": ["x `1`."]}})
    assert [(f.rule, f.line) for f in coverage_debt.problems(site)] == [("coverage/debt-fixed", 4)]  # its page key
    (site / coverage_debt.FILE).write_text(json.dumps({"verl-cookbook-coverage-debt": 1, "claim/x": {}}))
    assert [f.rule for f in coverage_debt.problems(site)] == ["coverage/debt-invalid"]
    (site / coverage_debt.FILE).write_text("[]")
    assert [f.rule for f in coverage_debt.problems(site)] == ["coverage/debt-invalid"]


def test_write_debt_records_what_the_check_reports_and_the_check_is_then_green(tmp_path, facts, monkeypatch):
    site = _site(tmp_path, page=PAGE + "\n本页每一条说法都已核对。\n")
    monkeypatch.chdir(site)
    assert len(_findings(site, facts)) == 3
    n = coverage_report.write_debt(coverage_report.measure([site / "docs"], site), site)
    assert n == 3 and _findings(site, facts) == []
    doc = json.loads((site / coverage_debt.FILE).read_text())
    assert doc["coverage/blanket-checked"] == {"docs/a.md": ["本页每一条说法都已核对。"]}


def _entries(text: str) -> Counter:
    doc = json.loads(text)
    rules = {rule: pages for rule, pages in doc.items() if isinstance(pages, dict)}
    return Counter((rule, page, t) for rule, pages in rules.items() for page, ts in pages.items() for t in ts)


def _git(*args: str) -> str:
    r = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else ""


def test_the_committed_list_only_shrinks():
    """Against the branch point with main (or, on main, the commit before): no entry is added. A new or reworded
    unbound sentence is bound or marked ※, never recorded. A rule the earlier list did not have yet (a rule added
    since, which the list's reader refuses unless the code declares it) brings its own entries: what it finds on the
    pages as they were when it came in."""
    assert _git("rev-parse", "--is-inside-work-tree") == "true", f"{REPO} is not a git checkout"
    head = _git("rev-parse", "HEAD")
    base = ""
    for ref in ("main", "origin/main"):
        base = _git("merge-base", "HEAD", ref)
        if base:
            break
    if not base or base == head:
        base = _git("rev-parse", "HEAD~1")
    before = _git("show", f"{base}:{coverage_debt.FILE}") if base else ""
    if not before:
        return  # the list is introduced after `base`: nothing to shrink from
    known = {rule for rule, pages in json.loads(before).items() if isinstance(pages, dict)}
    now = _entries((REPO / coverage_debt.FILE).read_text(encoding="utf-8"))
    added = Counter({k: n for k, n in (now - _entries(before)).items() if k[0] in known})
    assert not added, "entries added to coverage-debt.json (bind the sentences or mark them ※ instead):\n" + "\n".join(
        f"{page}: {rule}: {text}" for rule, page, text in sorted(added)
    )


def test_the_committed_list_is_exactly_what_the_sites_pages_leave_unbound(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(REPO)
    results = coverage_report.measure([REPO / "docs"], REPO)
    stale = [f for r in results if r.assessment for f in r.assessment.findings]
    assert not stale, "\n".join(f"{f.path}:{f.line}: {f.rule} {f.message}" for f in stale)
    recorded = sum(len(r.assessment.recorded) for r in results if r.assessment)
    assert recorded == sum(_entries((REPO / coverage_debt.FILE).read_text(encoding="utf-8")).values())
