"""doctor on the launch scripts Ascend users write (review scripts15): the statements it printed that were false
(a pointer to the wrong YAML, a suggestion that changes meaning, a note about lines that do not exist, a header hint
cut at a quote, a name-similar entry point), each with a test that fires on the old output and one on input written
the way users write it."""

from __future__ import annotations

import re
from pathlib import Path

from verl_cookbook.doctor import diagnose
from verl_cookbook.verl_source import from_release

MICRO = (
    "    actor_rollout_ref.rollout.name=vllm \\\n"
    "    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1 \\\n"
    "    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=1 \\\n"
)


def _run(tmp_path: Path, body: str) -> Path:
    p = tmp_path / "run.sh"
    p.write_text("#!/bin/bash\n" + body)
    return p


def _only(report, rule: str):
    (f,) = [d.finding for d in report.findings if d.finding.rule == rule]
    return f


# -- F1: the evidence of a removed key is the config the command composes ---------------------------------------
def test_a_megatron_only_key_cites_the_megatron_config_at_the_line_that_had_it(facts, tmp_path):
    p = _run(
        tmp_path,
        "python3 -m verl.trainer.main_ppo --config-name=ppo_megatron_trainer \\\n"
        + MICRO
        + "    actor_rollout_ref.actor.megatron.grad_offload=True\n",
    )
    f = _only(diagnose(p, facts), "upgrade/key-removed")
    assert "_generated_ppo_megatron_trainer.yaml:" in f.fact and "_generated_ppo_trainer.yaml" not in f.fact
    m = re.search(r"(verl/\S+\.yaml):(\d+) at tag v([\d.]+)", f.fact)
    assert m, f.fact
    old = from_release(m.group(3))  # the release the fact names has the key on that line
    line = (old.root / m.group(1)).read_text().splitlines()[int(m.group(2)) - 1]
    assert line.strip().startswith("grad_offload:")


def test_a_key_both_configs_had_is_cited_from_the_config_the_command_selects(facts, tmp_path):
    key = "actor_rollout_ref.rollout.multi_turn.completion_callback=x"  # both generated configs had it until 0.5.0
    plain_run = _run(tmp_path, "python3 -m verl.trainer.main_ppo \\\n" + MICRO + f"    {key}\n")
    plain = _only(diagnose(plain_run, facts), "upgrade/key-removed")
    assert "_generated_ppo_trainer.yaml:" in plain.fact
    mega = _run(
        tmp_path, "python3 -m verl.trainer.main_ppo --config-name=ppo_megatron_trainer \\\n" + MICRO + f"    {key}\n"
    )
    assert "_generated_ppo_megatron_trainer.yaml:" in _only(diagnose(mega, facts), "upgrade/key-removed").fact


# -- F3: a last line ending in `\` skips nothing -----------------------------------------------------------------
def test_a_last_line_ending_in_a_backslash_gets_no_unread_lines_note(facts, tmp_path):
    body = "python3 -m verl.trainer.main_ppo \\\n" + MICRO + "    trainer.no_such_key=1 \\\n"
    report = diagnose(_run(tmp_path, body), facts)
    assert not [n for n in report.notes if "could not be read statically" in n]
    assert [d.finding.rule for d in report.findings] == ["config/unknown-key"]  # the last override is still read


def test_a_script_cut_inside_a_quote_still_says_its_lines_were_not_read(facts, tmp_path):
    report = diagnose(_run(tmp_path, 'echo "unterminated\npython3 -m verl.trainer.main_ppo trainer.x=1\n'), facts)
    assert any("could not be read statically" in n for n in report.notes)


# -- F4: the device hint is shown as bash passes it ------------------------------------------------------------------
def test_a_quoted_device_of_a_command_doctor_does_not_judge_is_shown_after_quote_removal(facts, tmp_path):
    for written in ('trainer.device="npu"', "trainer.device='npu'", "trainer.device=npu"):
        p = _run(tmp_path, f"python3 -m recipe.dapo.main_dapo \\\n    {written} \\\n    trainer.nnodes=1\n")
        guess = diagnose(p, facts).device
        assert (guess.value, guess.why) == ("npu", "line 3: trainer.device=npu"), written
