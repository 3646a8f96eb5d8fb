"""scripts/hooks/checked_count.py: the line under each title is the page's claim coverage, generated from the figures
of ``verl-cookbook coverage``, so no page's line says more than its figures."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from tests.conftest import REPO
from verl_cookbook import coverage_report
from verl_cookbook.checks.coverage import Figures

_spec = importlib.util.spec_from_file_location("checked_count", REPO / "scripts" / "hooks" / "checked_count.py")
hook = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hook)

PAGE = """# Title { #t }

The engine registers as `nccl`. <!-- check: contains file="verl/a.py" match="x" -->
The merger writes `config.json`.
<!-- run: test_merger_run.py::test_a_plain_fsdp_checkpoint_merges_into_config_weights_and_tokenizer -->
`register` writes into a dict (`verl/checkpoint_engine/base.py:67-69`).
A user saw it hang on 16 nodes.<sup class="unchecked" title="from a user report, not checked">※</sup>
The default is `2048`.
See the next section.
"""


def test_the_figures_count_each_kind_of_binding_and_what_is_left_unbound(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text(PAGE, encoding="utf-8")
    f, generated = hook.page_figures(PAGE, page, tmp_path)
    assert generated is None
    assert (f.statements, f.factual, f.check, f.run, f.cited, f.mark, f.unbound) == (6, 5, 1, 1, 1, 1, 1)


def test_the_line_goes_at_the_pages_end_in_its_language_and_shows_the_marks_even_when_none() -> None:
    f = Figures(statements=9, factual=7, check=2, run=1, cited=1, mark=0, unbound=3)
    en = hook.with_count(PAGE, hook.count_line(f, None, english=True)).splitlines()
    assert en[0].startswith("# Title") and "Of the 7 factual statements on this page, 2 are held by a check" in en[-1]
    assert "and 0 are marked ※" in en[-1] and "3 are not bound to anything yet" in en[-1]
    zh = hook.count_line(f, None, english=False)
    assert "本页共有事实陈述 7 条" in zh and "0 条标 ※（依据报告或阅读，未经检查）" in zh and "另有 3 条尚未核对" in zh


def test_a_kind_with_no_statements_and_an_unbound_count_of_zero_are_left_out() -> None:
    f = Figures(statements=9, factual=7, check=4, run=0, cited=0, mark=3, unbound=0)
    en = hook.count_line(f, None, english=True)
    assert "4 are held by a check, and 3 are marked ※" in en and "running" not in en and "not bound" not in en
    zh = hook.count_line(f, None, english=False)
    assert "其中 4 条由检查核对，3 条标 ※" in zh and "运行" not in zh and "尚未核对" not in zh


def test_a_generated_page_says_who_writes_it_and_judges_none_of_its_statements() -> None:
    f = Figures(generated=40, mark=0)
    line = hook.count_line(f, "test_rules_page.py::test_the_committed_rules_page_is_current", english=True)
    assert "written by the tool" in line and "tests/test_rules_page.py" in line and "40 statements" in line
    assert "checked" not in re.sub(r"<[^>]+>", "", line)


def _numbers(line: str) -> list[int]:
    return [int(n) for n in re.findall(r"(?<![\w.-])\d+(?!\w|\.\d)", re.sub(r"<code>.*?</code>", "", line))]


SITE = sorted((REPO / "docs").rglob("*.md"))


@pytest.mark.parametrize("path", SITE, ids=lambda p: str(p.relative_to(REPO / "docs")))
def test_no_pages_line_says_more_than_its_figures(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    (result,) = coverage_report.measure([path], REPO)
    f = result.figures
    text = path.read_text(encoding="utf-8")
    figures, generated = hook.page_figures(text, path, REPO)
    assert figures == f, "the hook and `verl-cookbook coverage` count differently"
    line = hook.count_line(figures, generated, english=path.name.endswith(".en.md"))
    if generated is None:
        shown = [n for n in (f.check, f.run, f.cited) if n]
        assert _numbers(line) == [f.factual, *shown, f.mark] + ([f.unbound] if f.unbound else [])
        assert f.check + f.run + f.cited + f.mark + f.unbound == f.factual
    else:
        assert _numbers(line) == [f.generated, f.mark]
    assert not re.search(r"\bevery\b|每一?条|所有|全部", line), line
