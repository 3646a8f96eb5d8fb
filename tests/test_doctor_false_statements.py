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


# -- F2: a suggestion never names a key of another kind of parallelism ------------------------------------------------
def test_an_abbreviated_data_parallel_key_is_offered_data_parallel_not_the_nearest_spelling(facts, tmp_path):
    p = _run(
        tmp_path,
        "python3 -m verl.trainer.main_ppo \\\n" + MICRO + "    actor_rollout_ref.rollout.dp_model_parallel_size=8\n",
    )
    f = _only(diagnose(p, facts), "config/unknown-key")
    assert f.data.get("suggestion") == "data_parallel_size"  # was `pipeline_model_parallel_size`: PP=8, silently


def test_abbreviations_are_read_as_verls_keys_spell_them_out():
    from verl_cookbook.checks.config.model import closest_key, parallel_form

    assert parallel_form("dp_model_parallel_size") == parallel_form("data_parallel_size") == ("dp_size", {"dp"})
    assert parallel_form("expert_tensor_parallel_size")[0] == parallel_form("etp_size")[0] == "etp_size"
    assert parallel_form("ppo_micro_batch_size") == ("ppo_micro_batch_size", frozenset())  # `ppo` is not `pp`
    rollout = [
        "data_parallel_size",
        "tensor_model_parallel_size",
        "pipeline_model_parallel_size",
        "expert_parallel_size",
    ]
    assert closest_key("tp_size", rollout) == "tensor_model_parallel_size"
    assert closest_key("ep_size", rollout) == "expert_parallel_size"
    assert closest_key("tensor_model_parallel_szie", rollout) == "tensor_model_parallel_size"  # a typo still is one
    assert closest_key("pipeline_model_paralel_size", rollout) == "pipeline_model_parallel_size"
    # a key of a kind the section does not have gets no suggestion, however near its spelling
    assert closest_key("cp_model_parallel_size", rollout) is None
    assert closest_key("context_parallel_size", rollout) is None
    actor = ["ulysses_sequence_parallel_size", "use_dynamic_bsz"]
    assert closest_key("sequence_parallel_size", actor) == "ulysses_sequence_parallel_size"


def test_a_typo_of_a_key_that_names_no_parallelism_keeps_its_suggestion(facts, tmp_path):
    p = _run(tmp_path, "python3 -m verl.trainer.main_ppo \\\n" + MICRO + "    trainer.total_epoch=2\n")
    assert _only(diagnose(p, facts), "config/unknown-key").data.get("suggestion") == "total_epochs"


# -- F5: a removed entry point is named by its history, not by the nearest name --------------------------------------
TQ = "python3 -m verl.experimental.transfer_queue.main_ppo --config-name=transfer_queue_ppo_trainer \\\n"


def test_transfer_queues_own_trainer_is_read_as_main_ppo_with_transfer_queue_enabled(facts, tmp_path):
    report = diagnose(_run(tmp_path, TQ + "    data.train_batch_size=8\n"), facts)
    f = _only(report, "upgrade/entry-point-moved")
    assert f.data["new"] == "verl.trainer.main_ppo" and "#5454" in f.fact
    assert f.data["keep"] == ["transfer_queue.enable=true"]  # its own config turned TransferQueue on
    assert f.data["drop"] == "--config-name=transfer_queue_ppo_trainer"  # main_ppo has no such config
    assert not [d for d in report.findings if d.finding.rule == "command/unknown-entry-point"]
    assert "one_step_off" not in str(f.data)
    # written the way the current trainer takes it: nothing to add, nothing to drop
    ok = _only(diagnose(_run(tmp_path, TQ.replace(" --config-name=transfer_queue_ppo_trainer", "")
                             + "    transfer_queue.enable=true\n"), facts), "upgrade/entry-point-moved")  # fmt: skip
    assert ok.data.get("keep") is None and ok.data.get("drop") is None


def test_without_transfer_queue_in_the_trainer_config_there_is_no_replacement_and_no_guess(
    facts, tmp_path, monkeypatch
):
    from verl_cookbook.checks import upgrade

    for module in upgrade.REPLACEMENT_NEEDS:
        monkeypatch.setitem(upgrade.REPLACEMENT_NEEDS, module, "transfer_queue.no_such_switch")
    report = diagnose(_run(tmp_path, TQ + "    transfer_queue.enable=true\n"), facts)
    f = _only(report, "command/unknown-entry-point")
    assert f.data.get("suggestion") is None  # was `verl.experimental.one_step_off_policy.main_ppo`


def test_a_misspelt_entry_point_still_gets_the_nearest_name(facts, tmp_path):
    f = _only(diagnose(_run(tmp_path, "python3 -m verl.trainer.main_pp trainer.total_epochs=1\n"), facts),
              "command/unknown-entry-point")  # fmt: skip
    assert f.data.get("suggestion") == "verl.trainer.main_ppo"


# -- missed and noise (scripts15 M1, M2, N1) --------------------------------------------------------------------------
def test_a_legacy_reward_path_from_a_variable_is_still_a_legacy_key(facts, tmp_path):
    for value in ('"${REWARD_PATH}"', "$REWARD_PATH", "/data/reward.py"):
        p = _run(
            tmp_path, "python3 -m verl.trainer.main_ppo \\\n" + MICRO + f"    custom_reward_function.path={value}\n"
        )
        f = _only(diagnose(p, facts), "config/legacy-key")
        assert f.data["key"] == "custom_reward_function.path", value


def test_legacy_reward_keys_are_flagged_under_the_megatron_config_main_ppo_runs(facts, tmp_path):
    for flag in (
        "--config-name=ppo_megatron_trainer",
        "--config-path=config --config-name='ppo_megatron_trainer.yaml'",
        "",
    ):
        p = _run(
            tmp_path, f"python3 -m verl.trainer.main_ppo {flag} \\\n" + MICRO + "    reward_model.reward_manager=dapo\n"
        )
        f = _only(diagnose(p, facts), "config/legacy-key")
        assert f.data["readers"] == ["verl.trainer.main_ppo"], flag


def test_a_legacy_key_whose_value_the_new_key_already_has_says_the_run_is_as_written(facts, tmp_path):
    # scripts15 N2: `reward_model.reward_manager=naive` is dead, but the run it asks for is the one it gets
    same = _only(diagnose(_run(tmp_path, "python3 -m verl.trainer.main_ppo \\\n" + MICRO
                               + "    reward_model.reward_manager=naive\n"), facts), "config/legacy-key")  # fmt: skip
    assert same.data.get("case") == "same" and same.data["value"] == "naive"
    assert "already has the value `naive`" in same.message
    assert "set `reward.reward_manager.name` instead" not in same.message
    # a value the new key does not have still asks for the new key
    other = _only(diagnose(_run(tmp_path, "python3 -m verl.trainer.main_ppo \\\n" + MICRO
                                + "    reward_model.reward_manager=dapo\n"), facts), "config/legacy-key")  # fmt: skip
    assert other.data.get("case") is None and "set `reward.reward_manager.name` instead" in other.message


def test_the_entry_point_that_migrates_legacy_keys_gets_no_legacy_warning(facts, tmp_path):
    cmd = "python3 -m verl.experimental.fully_async_policy.fully_async_main \\\n"
    report = diagnose(_run(tmp_path, cmd + MICRO + "    reward_model.reward_manager=dapo\n"), facts)
    assert not [d for d in report.findings if d.finding.rule == "config/legacy-key"]


def test_a_script_whose_only_trainer_was_named_gets_no_second_nothing_checked_note(facts, tmp_path):
    recipe = diagnose(_run(tmp_path, "python3 -m recipe.dapo.main_dapo \\\n    trainer.nnodes=1\n"), facts)
    assert [n for n in recipe.notes if "is not an entry point" in n]
    assert not [n for n in recipe.notes if "no verl trainer command" in n]
    gone = diagnose(_run(tmp_path, "python3 -m verl.trainer.no_such_main trainer.nnodes=1\n"), facts)
    assert [d for d in gone.findings if d.finding.rule == "command/unknown-entry-point"]
    assert not [n for n in gone.notes if "no verl trainer command" in n]
    plain = diagnose(_run(tmp_path, "echo hello\npython3 -m pip install verl\n"), facts)
    assert [n for n in plain.notes if "no verl trainer command" in n]  # nothing named: the note is the news


def test_fix_runs_main_ppo_with_transfer_queue_on_and_without_the_old_config_name(facts, tmp_path):
    from verl_cookbook import fixes

    text = TQ + "    data.train_batch_size=8\n"
    path = _run(tmp_path, text)
    report = diagnose(path, facts)
    f = _only(report, "upgrade/entry-point-moved")
    plan = fixes.plan([f], fixes.resolver(tmp_path))
    fixed = plan.files[0].result.text
    assert "python3 -m verl.trainer.main_ppo transfer_queue.enable=true \\\n" in fixed
    assert "--config-name" not in fixed and "    data.train_batch_size=8\n" in fixed


def test_fix_drops_the_old_config_name_however_the_script_quotes_it(facts, tmp_path):
    from verl_cookbook import fixes

    flag = "--config-name=transfer_queue_ppo_trainer"
    for written in (
        '--config-name="transfer_queue_ppo_trainer"',
        "'--config-name=transfer_queue_ppo_trainer'",
        "--config-name transfer_queue_ppo_trainer",
        "--config-name 'transfer_queue_ppo_trainer'",
    ):
        path = _run(tmp_path, TQ.replace(flag, written) + "    data.train_batch_size=8\n")
        plan = fixes.plan([_only(diagnose(path, facts), "upgrade/entry-point-moved")], fixes.resolver(tmp_path))
        fixed = plan.files[0].result.text
        assert "python3 -m verl.trainer.main_ppo transfer_queue.enable=true \\\n" in fixed, written
        assert "config-name" not in fixed and "transfer_queue_ppo_trainer" not in fixed, written


def test_fix_leaves_the_command_alone_when_the_old_config_name_is_on_another_line(facts, tmp_path):
    from verl_cookbook import fixes

    text = TQ.replace(" --config-name=", " \\\n    --config-name=") + "    data.train_batch_size=8\n"
    path = _run(tmp_path, text)
    f = _only(diagnose(path, facts), "upgrade/entry-point-moved")
    assert f.data["drop"] == "--config-name=transfer_queue_ppo_trainer"
    plan = fixes.plan([f], fixes.resolver(tmp_path))
    # moving the module alone would leave main_ppo with a config it does not have
    assert not plan.files or "transfer_queue.main_ppo" in plan.files[0].result.text
