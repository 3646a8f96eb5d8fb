"""A page and its English twin include the same snippets and state the same claims: an input a check found clean is
checked once a run, an input with findings is checked on each page, so each page gets its own findings."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import fence

from verl_cookbook.checks import BLOCK_CHECKS, CLAIM_CHECKS, load_all
from verl_cookbook.facts import Facts
from verl_cookbook.runner import check_paths

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
def calls(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many times the config block check and the contains claim check run."""
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
