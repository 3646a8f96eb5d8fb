"""Site snippets that set up delta_sharded are judged by verl's own run-time guards (its raise statements),
so a page cannot show a delta setup verl would reject."""

from __future__ import annotations

from helpers import fence, findings_for

GOOD = """actor_rollout_ref:
  rollout:
    name: vllm
    checkpoint_engine:
      backend: delta_sharded
"""


def _page(yaml_text: str) -> str:
    return "# p\n\n" + fence(yaml_text, '{ .yaml check="config" device="gpu" }')


def test_a_delta_setup_verl_accepts_passes(write_page, facts) -> None:
    assert [f.rule for f in findings_for(write_page(_page(GOOD)), facts)] == []


def test_vllm_with_data_parallel_is_rejected_citing_the_raise(write_page, facts) -> None:
    bad = GOOD.replace("    name: vllm\n", "    name: vllm\n    data_parallel_size: 2\n")
    found = [f for f in findings_for(write_page(_page(bad)), facts) if f.rule == "delta/rejected"]
    assert len(found) == 1
    assert found[0].line == 7  # the data_parallel_size line of the page
    assert "vllm_async_server.py:" in (found[0].fact_source or "")


def test_a_rollout_without_a_delta_consumer_is_rejected(write_page, facts) -> None:
    bad = GOOD.replace("name: vllm", "name: trtllm")
    found = [f for f in findings_for(write_page(_page(bad)), facts) if f.rule == "delta/rejected"]
    assert found and "verl/checkpoint_engine/base.py:" in (found[0].fact_source or "")
