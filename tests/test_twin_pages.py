"""A page and its English twin include the same snippets and state the same claims: an input a check found clean is
checked once a run, an input with findings is checked on each page, so each page gets its own findings."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import fence

from verl_cookbook.checks import BLOCK_CHECKS, CLAIM_CHECKS, load_all
from verl_cookbook.facts import Facts
from verl_cookbook.runner import check_paths
from verl_cookbook.session import Session

GOOD = "actor_rollout_ref:\n  rollout:\n    name: vllm\n"
BAD = "actor_rollout_ref:\n  rollout:\n    nmae: vllm\n"
CLAIM = '<!-- check: contains file="verl/trainer/main_ppo.py" match="{}" -->\n'


def _twins(site: Path, snippet: str, match: str) -> Path:
    """``docs/p.md`` and ``docs/p.en.md``, each including ``snippets/c.yaml`` and stating one claim."""
    (site / "mkdocs.yml").write_text("site_name: t\n")
    (site / "snippets").mkdir()
    (site / "snippets" / "c.yaml").write_text(snippet)
    body = fence('--8<-- "snippets/c.yaml"', '{ .yaml check="config" }') + "\n" + CLAIM.format(match)
    (site / "docs").mkdir()
    for name in ("p.md", "p.en.md"):
        (site / "docs" / name).write_text("# p { #p }\n\n" + body)  # twins: same heading, same anchor
    return site / "docs"


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch, facts: Facts) -> dict[str, int]:
    """How many times the config block check and the contains claim check run (in a run of its own: what another
    test's run found clean is not remembered)."""
    monkeypatch.setattr(facts, "session", Session())
    load_all()
    counted = {"config": 0, "contains": 0}
    for table, kind in ((BLOCK_CHECKS, "config"), (CLAIM_CHECKS, "contains")):

        def counting(what, ctx, _real=table[kind], _kind=kind):
            counted[_kind] += 1
            return _real(what, ctx)

        monkeypatch.setitem(table, kind, counting)
    return counted


def test_a_clean_snippet_and_claim_shared_by_twin_pages_are_checked_once(
    tmp_path: Path, facts: Facts, calls: dict[str, int]
) -> None:
    report = check_paths([_twins(tmp_path, GOOD, "def main(")], facts, tmp_path)
    assert report.findings == []
    assert calls == {"config": 1, "contains": 1}
    assert report.checked == 4  # both pages' block and claim are counted as checked


def test_a_snippet_and_claim_with_findings_are_reported_on_each_twin(
    tmp_path: Path, facts: Facts, calls: dict[str, int]
) -> None:
    report = check_paths([_twins(tmp_path, BAD, "no such code anywhere")], facts, tmp_path)
    claims = sorted(Path(f.path).name for f in report.findings if f.rule.startswith("claim/"))
    assert claims == ["p.en.md", "p.md"]
    assert calls == {"config": 2, "contains": 2}
    assert sum(f.rule == "config/unknown-key" for f in report.findings) == 2


def _inline_twins(site: Path, zh: str, en: str) -> Path:
    """``docs/p.md`` and ``docs/p.en.md`` with their config fences written on the page (no include)."""
    (site / "mkdocs.yml").write_text("site_name: t\n")
    (site / "snippets").mkdir()
    (site / "snippets" / "c.yaml").write_text(GOOD)
    (site / "docs").mkdir()
    (site / "docs" / "p.md").write_text(zh)
    (site / "docs" / "p.en.md").write_text(en)
    return site / "docs"


ON_PAGE = fence(GOOD, '{ .yaml check="config" }')


def test_a_clean_fence_written_on_both_twins_at_other_lines_is_checked_once(
    tmp_path: Path, facts: Facts, calls: dict[str, int]
) -> None:
    """The 中文 page says more before the fence than its twin: the same code at another page line is the same input."""
    zh = "# p { #p }\n\n中文的说明。\n\n再说一句。\n\n" + ON_PAGE
    en = "# p { #p }\n\nIn English.\n\n" + ON_PAGE
    report = check_paths([_inline_twins(tmp_path, zh, en)], facts, tmp_path)
    assert report.findings == []
    assert calls["config"] == 1
    assert report.checked == 2


@pytest.mark.parametrize(
    "en",
    [
        pytest.param(fence('--8<-- "snippets/c.yaml"', '{ .yaml check="config" }'), id="lines-from-an-include"),
        pytest.param(fence(GOOD, '{ .yaml check="config" since="0.7.1" }'), id="other-attributes"),
        pytest.param(fence(GOOD, '{ .yml check="config" }'), id="other-language"),
    ],
)
def test_the_same_code_in_another_context_is_judged_again(
    tmp_path: Path, facts: Facts, calls: dict[str, int], en: str
) -> None:
    """Same code, but its lines come from a snippet file, or the fence carries other attributes or another language:
    the judgement may differ, so the twin's block is checked on its own."""
    report = check_paths([_inline_twins(tmp_path, "# p { #p }\n\n" + ON_PAGE, "# p { #p }\n\n" + en)], facts, tmp_path)
    assert [f for f in report.findings if not f.rule.startswith("parity/")] == []  # the twins differ on purpose
    assert calls["config"] == 2


def test_shell_blocks_are_checked_after_every_pages_other_checks_and_keep_their_page(
    tmp_path: Path, facts: Facts, calls: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shell checks wait for the ``bash -n`` and ShellCheck batches: they run last, after the other blocks of all
    pages, and each finding still names the page of its block."""
    order: list[str] = []
    for kind in ("config", "shell"):

        def noting(what, ctx, _real=BLOCK_CHECKS[kind], _kind=kind):
            order.append(_kind)
            return _real(what, ctx)

        monkeypatch.setitem(BLOCK_CHECKS, kind, noting)
    shell = fence("echo $((1 +", '{ .bash check="shell" }')  # a syntax error: a finding on each page
    page = "# p { #p }\n\n" + shell + "\n" + ON_PAGE
    report = check_paths([_inline_twins(tmp_path, page, page.replace("\n\n", "\n\n\n", 1))], facts, tmp_path)
    assert order == ["config", "shell", "shell"]  # the fence written on both twins: its config check ran once
    syntax = sorted((Path(f.path).name, f.line) for f in report.findings if f.rule == "shell/syntax")
    assert syntax == [("p.en.md", 5), ("p.md", 4)]
