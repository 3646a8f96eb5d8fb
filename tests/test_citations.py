"""Prose citations of verl source (`verl/...py:LINE`) must name a real file and lines inside it."""

from __future__ import annotations

from helpers import findings_for, rules

from verl_cookbook.facts import load_facts
from verl_cookbook.verl_source import from_release

PAGE = """# p

See `verl/checkpoint_engine/base.py:67-69` and `verl/checkpoint_engine/base.py`.
Past the end: `verl/checkpoint_engine/base.py:99998-99999`.
No such file: `verl/checkpoint_engine/hccl_engine.py:10`.
A pinned link is left alone: https://github.com/verl-project/verl/blob/abc/verl/gone.py#L3
<!-- check: contains file="verl/checkpoint_engine/base.py" match="class CheckpointEngineRegistry" -->
"""


def test_citations_of_missing_files_and_lines_past_the_end_are_findings(write_page, facts) -> None:
    found = findings_for(write_page(PAGE), facts)
    assert [(f.rule, f.line) for f in found] == [("cite/line-out-of-range", 4), ("cite/missing-file", 5)]
    assert "verl/checkpoint_engine/base.py:" in (found[0].fact_source or "")


def test_valid_citations_pass(write_page, facts) -> None:
    assert rules(findings_for(write_page(PAGE.split("Past")[0]), facts)) == []


def test_citations_are_only_judged_against_the_pinned_release(write_page) -> None:
    older = load_facts(from_release("0.9.0"))
    assert [f for f in findings_for(write_page(PAGE), older) if f.rule.startswith("cite/")] == []


def test_files_named_in_claims_are_left_to_the_claims(write_page, facts) -> None:
    page = write_page('# p\n\n<!-- check: contains file="verl/nope.py" match="x" -->\n')
    assert not [f for f in findings_for(page, facts) if f.rule.startswith("cite/")]
