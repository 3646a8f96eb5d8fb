"""``check --lenient`` judges a shell block that is only a list of overrides (no command of its own) against the
primary config its keys are written for, as it does a YAML fragment: a list of Megatron settings in a page about
the Megatron engine is the Megatron half of a command, which Hydra accepts once ``model_engine=megatron`` is chosen.
A key no config has is still reported."""

from __future__ import annotations

from pathlib import Path

from verl_cookbook.runner import check_paths

MEGATRON = "actor_rollout_ref.actor.megatron"


def _check(tmp_path: Path, facts, fragment: str) -> list:
    page = tmp_path / "page.md"
    page.write_text(f"# Megatron settings\n\nEnable it in the Megatron engine:\n\n```bash\n{fragment}```\n")
    return [(f.rule, f.line, f.message) for f in check_paths([page], facts, tmp_path, {"lenient": True}).findings]


def test_a_megatron_settings_fragment_is_judged_against_the_megatron_config(tmp_path, facts) -> None:
    # the style of verl's docs/advance/dynamic_context_parallel.rst and the Ascend best-practice pages
    fragment = (
        f"{MEGATRON}.context_parallel_size=4 \\\n"
        f"{MEGATRON}.tensor_model_parallel_size=2 \\\n"
        f"{MEGATRON}.use_mbridge=True\n"
    )
    assert _check(tmp_path, facts, fragment) == []


def test_two_megatron_lines_without_backslashes_are_silent(tmp_path, facts) -> None:
    assert _check(tmp_path, facts, f"{MEGATRON}.use_dist_checkpointing=False\n{MEGATRON}.use_mbridge=True\n") == []


def test_a_misspelt_key_in_a_megatron_fragment_is_still_unknown(tmp_path, facts) -> None:
    fragment = f"{MEGATRON}.context_parallel_size=4 \\\n{MEGATRON}.contxt_parallel_size=4\n"
    ((rule, line, message),) = _check(tmp_path, facts, fragment)
    assert (rule, line) == ("config/unknown-key", 7)
    assert "ppo_megatron_trainer" in message and "contxt_parallel_size" in message


def test_a_fragment_no_config_has_is_judged_against_ppo_trainer(tmp_path, facts) -> None:
    ((rule, line, message),) = _check(tmp_path, facts, "actor_rollout_ref.actor.megatrn.use_mbridge=True\n")
    assert (rule, line) == ("config/unknown-key", 6) and "`ppo_trainer`" in message


def test_a_fragment_that_chooses_the_engine_is_composed_with_that_choice(tmp_path, facts) -> None:
    assert _check(tmp_path, facts, f"model_engine=megatron \\\n{MEGATRON}.use_mbridge=True\n") == []
    ((rule, _line, _message),) = _check(tmp_path, facts, f"model_engine=megatron \\\n{MEGATRON}.use_mbrige=True\n")
    assert rule == "config/unknown-key"


def test_a_whole_command_that_never_chooses_megatron_still_fails_on_megatron_keys(tmp_path, facts) -> None:
    # a full command is what Hydra receives: without model_engine=megatron it stops ("Could not override")
    found = _check(tmp_path, facts, f"python3 -m verl.trainer.main_ppo \\\n    {MEGATRON}.use_mbridge=True\n")
    assert [r for r, _, _ in found] == ["config/unknown-key"]
