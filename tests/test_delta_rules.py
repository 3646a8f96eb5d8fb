"""Site snippets that set up delta_sharded are judged by verl's own run-time guards (its raise statements),
so a page cannot show a delta setup verl would reject."""

from __future__ import annotations

import ast
from pathlib import Path

from helpers import fence, findings_for

from verl_cookbook.doctor import diagnose

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


# -- the separate_async trainer's own asserts (PPOTrainerSeparateAsync.__init__) ----------------------
SEPARATE = """trainer:
  use_v1: true
  nnodes: 2
  n_gpus_per_node: 8
  v1:
    trainer_mode: separate_async
    separate_async:
      parameter_sync_step: 4
data:
  train_batch_size: 256
actor_rollout_ref:
  actor:
    ppo_mini_batch_size: 64
  rollout:
    name: sglang
    nnodes: 2
    n_gpus_per_node: 8
    checkpoint_engine:
      backend: delta_sharded
"""


def _separate_findings(write_page, facts, yaml_text: str) -> list:
    return [f for f in findings_for(write_page(_page(yaml_text)), facts) if f.rule == "delta/rejected"]


def test_a_separate_async_delta_setup_with_rollout_nodes_and_matching_batches_passes(write_page, facts) -> None:
    assert _separate_findings(write_page, facts, SEPARATE) == []


def test_separate_async_without_rollout_nnodes_is_rejected_citing_the_assert(write_page, facts) -> None:
    bad = SEPARATE.replace("    nnodes: 2\n    n_gpus_per_node: 8\n    checkpoint_engine", "    checkpoint_engine")
    found = _separate_findings(write_page, facts, bad)
    assert [f.message.split(": ", 2)[-1] for f in found] == [
        "nnodes must be > 0 in separate async training (actor_rollout_ref.rollout.nnodes=0)"
    ]
    file, line = found[0].fact_source.rsplit(":", 1)
    assert file == "verl/trainer/ppo/v1/trainer_separate_async.py"
    assert "assert config.actor_rollout_ref.rollout.nnodes > 0" in facts.tree.read(file).splitlines()[int(line) - 1]


def test_train_batch_size_not_equal_to_sync_step_times_mini_batch_is_rejected(write_page, facts) -> None:
    bad = SEPARATE.replace("train_batch_size: 256", "train_batch_size: 512")
    found = _separate_findings(write_page, facts, bad)
    assert len(found) == 1
    assert "train_batch_size=512, parameter_sync_step=4, ppo_mini_batch_size=64" in found[0].message
    page_line = bad.splitlines()[found[0].line - 4]  # the fence's first YAML line is page line 4
    assert page_line.split(":")[0].strip() in {"train_batch_size", "parameter_sync_step", "ppo_mini_batch_size"}


def test_rollout_gpus_follow_the_trainers_through_verls_interpolation(write_page, facts) -> None:
    # rollout.n_gpus_per_node defaults to ${oc.select:trainer.n_gpus_per_node,8}: 0 there reaches the assert
    bad = SEPARATE.replace("    n_gpus_per_node: 8\n    checkpoint_engine", "    checkpoint_engine").replace(
        "  n_gpus_per_node: 8\n  v1", "  n_gpus_per_node: 0\n  v1"
    )
    found = _separate_findings(write_page, facts, bad)
    assert [f for f in found if "n_gpus_per_node must be > 0" in f.message]


def test_separate_async_asserts_are_silent_in_other_trainer_modes(write_page, facts) -> None:
    other = SEPARATE.replace("trainer_mode: separate_async", "trainer_mode: sync").replace("    nnodes: 2\n", "")
    assert _separate_findings(write_page, facts, other) == []


def test_a_launch_command_written_as_overrides_passes_the_separate_async_asserts(write_page, facts) -> None:
    cmd = (
        "python3 -m verl.trainer.main_ppo \\\n"
        "    trainer.v1.trainer_mode=separate_async \\\n"
        "    data.train_batch_size=128 \\\n"
        "    actor_rollout_ref.actor.ppo_mini_batch_size=32 \\\n"
        "    actor_rollout_ref.rollout.name=vllm \\\n"
        "    actor_rollout_ref.rollout.nnodes=1 \\\n"
        "    actor_rollout_ref.rollout.checkpoint_engine.backend=delta_sharded\n"
    )
    page = write_page("# p\n\n" + fence(cmd, '{ .bash check="shell" device="gpu" }'))
    assert [f.rule for f in findings_for(page, facts)] == []
    bad = write_page(
        "# p\n\n" + fence(cmd.replace("rollout.nnodes=1", "rollout.nnodes=0"), '{ .bash check="shell" device="gpu" }')
    )
    assert [f.rule for f in findings_for(bad, facts)] == ["delta/rejected"]


def test_doctor_reports_the_separate_async_assert_in_a_users_script_and_passes_the_fixed_one(facts, tmp_path) -> None:
    script = Path(__file__).parent / "data" / "doctor" / "delta_separate_async_no_rollout_nodes.sh"
    hits = [d.finding for d in diagnose(script, facts).findings]
    assert [(f.rule, "nnodes must be > 0" in f.message) for f in hits] == [("delta/rejected", True)]
    fixed = tmp_path / "run.sh"
    fixed.write_text(
        script.read_text().replace(
            "rollout.name=sglang", "rollout.name=sglang \\\n    actor_rollout_ref.rollout.nnodes=1"
        )
    )
    assert not diagnose(fixed, facts).findings


def test_guards_read_back_from_the_facts_are_the_guards_read_from_verls_source(facts) -> None:
    """The guards ship as source text; parsed back, each has the same conditions, locals, message and verdicts as
    the guard read from verl's files with ``ast``."""
    from verl_cookbook.doctor_rules.delta_guards import evaluate
    from verl_cookbook.facts.delta_guards import extract_guards, from_facts

    live, shipped = extract_guards(facts.tree), from_facts(facts.data["delta_guards"])
    assert len(live) == len(shipped) >= 10
    rollout = {"name": "vllm", "data_parallel_size": 2, "checkpoint_engine": {"backend": "delta_sharded"}}
    configs = [
        {"actor_rollout_ref": {"rollout": rollout}},
        {"actor_rollout_ref": {"rollout": {**rollout, "name": "hf", "data_parallel_size": 1}}},
    ]
    for a, b in zip(live, shipped, strict=True):
        assert (a.source, a.error, a.message, a.condition_text, a.spec) == (
            b.source,
            b.error,
            b.message,
            b.condition_text,
            b.spec,
        )
        assert {k: ast.dump(v) for k, v in a.locals.items()} == {k: ast.dump(v) for k, v in b.locals.items()}
        assert [evaluate(a, c).fires for c in configs] == [evaluate(b, c).fires for c in configs]
    assert any(evaluate(g, c).fires is True for g in shipped for c in configs)  # the configs reach some guard
