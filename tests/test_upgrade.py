"""Scripts written for an older verl, read as an upgrade (tests/data/upgrade/): a removed entry point names its
replacement once and the rest of the command is judged against the replacement's config; stale keys say where they
moved or that they were removed, and in which release, never "add +"; a missing section is one finding."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from tests import helpers
from tests.conftest import REPO
from verl_cookbook.checks.upgrade import HAND_MOVES, KEY_MOVES, MOVED_ENTRY_POINTS
from verl_cookbook.doctor import diagnose
from verl_cookbook.folding import fold

DATA = Path(__file__).resolve().parent / "data" / "upgrade"


def line_of(name: str, needle: str) -> int:
    return helpers.line_of(DATA / name, needle, skip_comments=True)


def report(facts, name: str):
    return helpers.doctor_report(facts, DATA / name)


def found(facts, name: str) -> list[tuple[str, int]]:
    return helpers.rules_and_lines(report(facts, name))


@pytest.mark.parametrize("name", ["old_sft.sh", "old_recipe.sh"])
def test_a_removed_entry_point_gives_one_finding_naming_its_replacement(facts, name):
    r = report(facts, name)
    moved = [d for d in r.findings if d.finding.rule == "upgrade/entry-point-moved"]
    assert len(moved) == 1
    old = moved[0].finding.data["old"]
    assert moved[0].finding.data["new"] == MOVED_ENTRY_POINTS[old][0]
    assert moved[0].finding.line == line_of(name, f"-m {old}")
    assert not [d for d in r.findings if d.finding.rule == "command/unknown-entry-point"]


@pytest.mark.parametrize("name", ["old_sft.sh", "old_recipe.sh"])
def test_the_rest_of_an_old_command_is_judged_against_the_replacements_config(facts, name):
    assert ("config/unknown-key", line_of(name, "trainer.no_such_key=1")) in found(facts, name)
    assert len(report(facts, name).findings) == 2, found(facts, name)


def test_a_current_entry_point_gives_no_upgrade_finding(facts, tmp_path):
    p = tmp_path / "new_sft.sh"
    p.write_text((DATA / "old_sft.sh").read_text().replace("fsdp_sft_trainer", "sft_trainer"))
    rules = [d.finding.rule for d in diagnose(p, facts).findings]
    assert rules == ["config/unknown-key"]


@pytest.mark.parametrize(
    "needle, rule, new",
    [
        ("train_batch_size=64", "upgrade/key-moved", "data.train_batch_size"),
        ("rollout.test_freq=5", "upgrade/key-moved", "trainer.test_freq"),
        (
            "rollout.update_weights_bucket_megabytes=512",
            "upgrade/key-moved",
            "actor_rollout_ref.rollout.checkpoint_engine.update_weights_bucket_megabytes",
        ),
        # renamed in verl PR #5556 (0.8.0), moved again in verl PR #6097 (0.9.0): the release history, not a name match
        ("skip_rollout=True", "upgrade/key-moved", "skip.rollout.enable"),
    ],
)
def test_a_stale_key_says_where_it_moved_or_that_it_was_removed(facts, needle, rule, new):
    r = report(facts, "stale_keys.sh")
    at = [d.finding for d in r.findings if d.finding.line == line_of("stale_keys.sh", needle)]
    assert [f.rule for f in at] == [rule]
    assert at[0].data.get("new") == new
    assert "+" not in at[0].message and "append" not in at[0].message


def test_a_key_moved_between_covered_releases_names_the_release(facts):
    r = report(facts, "stale_keys.sh")
    f = next(d.finding for d in r.findings if "update_weights_bucket_megabytes" in d.finding.message)
    assert f.data["since"] == "0.7.1" and "in verl 0.7.1" in f.message


def test_a_key_no_release_read_in_its_place_is_said_to_be_misplaced_not_moved(facts):
    """review26b F3: verl has kept train_batch_size under data since v0.1, so "it moved" was false; a key that really
    moved between releases still says so."""
    r = report(facts, "stale_keys.sh")
    at = {d.finding.data["key"]: d.finding for d in r.findings if d.finding.rule == "upgrade/key-moved"}
    misplaced = at["train_batch_size"]
    assert misplaced.data.get("case") == "misplaced"
    assert "no verl release read it here" in misplaced.message and "moved" not in misplaced.message
    assert "各版本均未在此处读取" in misplaced.text("zh") and "迁移" not in misplaced.text("zh")
    moved = next(f for k, f in at.items() if k.endswith("rollout.update_weights_bucket_megabytes"))
    assert not moved.data.get("case") and "it moved to" in moved.message


def test_stale_keys_give_nothing_else(facts):
    assert len(report(facts, "stale_keys.sh").findings) == 4, found(facts, "stale_keys.sh")


def test_hydras_hint_to_append_with_plus_never_reaches_the_user(facts):
    for name in ("old_sft.sh", "old_recipe.sh", "stale_keys.sh", "missing_section.sh"):
        for d in report(facts, name).findings:
            assert "To append to your config" not in d.finding.message


def test_a_missing_section_is_one_finding_at_its_first_line_with_its_keys_folded_under_it(facts):
    r = report(facts, "missing_section.sh")
    found = [d.finding for d in r.findings]
    folding = fold(found)
    assert [found[i].rule for i in folding.shown] == ["config/unknown-section"]
    (k,) = folding.shown
    f = found[k]
    first = line_of("missing_section.sh", "mindspeed.use_fused_rmsnorm")
    assert f.line == first
    assert f.data["count"] == 3 and f.data["lines"] == [first, first + 1, first + 2]
    assert "3 keys" in f.message and "no generated PPO trainer config" in f.message
    under = folding.under(k)
    assert [(u.rule, u.line) for u in under] == [("config/unknown-key", first + n) for n in range(3)]


MEGATRON_KEYS = """python3 -m verl.trainer.main_ppo \\
    actor_rollout_ref.rollout.name=vllm \\
    actor_rollout_ref.actor.strategy=megatron {choice}\\
    actor_rollout_ref.actor.megatron.tensor_model_parallel_size=2 \\
    actor_rollout_ref.actor.megatron.param_offload=True \\
    trainer.total_epochs=2
"""


def test_a_section_another_option_of_the_release_brings_names_that_choice(facts, tmp_path):
    """Megatron's keys written without choosing the megatron engine: the section is there once Hydra composes
    verl's config with `model_engine=megatron`, so that choice is what the finding and its fix name."""
    p = tmp_path / "run.sh"
    p.write_text(MEGATRON_KEYS.format(choice=""))
    found = [d.finding for d in diagnose(p, facts).findings]
    folding = fold(found)
    (k,) = [i for i in folding.shown if found[i].rule == "config/unknown-section"]
    f = found[k]
    assert f.data["section"] == "actor_rollout_ref.actor.megatron" and f.data["choice"] == "model_engine=megatron"
    assert "when the command chooses `model_engine=megatron`" in f.message
    assert "no generated PPO trainer config" not in f.message
    assert "choose `model_engine=megatron`" in (f.rule.fix_text(f.data) or "")
    assert [u.rule for u in folding.under(k)] == ["config/unknown-key", "config/unknown-key"]


def test_the_same_keys_with_the_engine_chosen_are_silent(facts, tmp_path):
    p = tmp_path / "run.sh"
    p.write_text(MEGATRON_KEYS.format(choice="\\\n    model_engine=megatron "))
    assert not [d for d in diagnose(p, facts).findings if "megatron" in str(d.finding.data.get("key", ""))]
    assert "config/unknown-section" not in [d.finding.rule for d in diagnose(p, facts).findings]


def test_a_section_no_option_of_the_release_brings_names_no_choice(facts):
    (f,) = [
        d.finding for d in report(facts, "missing_section.sh").findings if d.finding.rule == "config/unknown-section"
    ]
    assert "choice" not in f.data and "no generated PPO trainer config" in f.message


def test_one_unknown_key_under_a_missing_section_stays_an_unknown_key(facts, tmp_path):
    p = tmp_path / "one.sh"
    p.write_text("python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm actor_rollout_ref.actor.x.y=1\n")
    assert [d.finding.rule for d in diagnose(p, facts).findings] == ["config/unknown-key"]


def test_every_derived_move_cites_the_release_it_was_read_from():
    data = json.loads(KEY_MOVES.read_text())
    for moves in data["moves"].values():
        for key, m in moves.items():
            assert m["last"] in data["releases_read"] and m["source"] == data["releases_read"][m["last"]], key
            if "proof" in m and "commit" in m["proof"]:  # a rename from the release history: each change named
                assert all(re.search(r"commit [0-9a-f]{9} \(verl PR #\d+", p) for p in m["proof"].split("; then ")), key
            elif "proof" in m:  # a renamed section: both places, the old one at the last release that had it
                assert f"(tag v{m['last']})" in m["proof"] and m["proof"].count(".yaml:") == 2, key
    for key, (new, source) in HAND_MOVES.items():
        assert source and new != key
    for old, (new, since, source) in MOVED_ENTRY_POINTS.items():
        assert "commit" in source and since and new != old


def test_a_development_checkout_uses_the_moves_of_the_newest_recorded_release_before_it():
    from verl_cookbook.checks.upgrade import _moves

    assert _moves("0.10.0.dev") == _moves("0.9.1") and _moves("0.9.1")
    assert _moves("0.1.0") == {}


CRITIC = """python3 -m verl.trainer.main_ppo \\
    actor_rollout_ref.rollout.name=vllm \\
    critic.{section}.param_offload=False \\
    critic.{section}.optimizer_offload=False \\
    trainer.total_epochs=2
"""


def test_a_key_of_a_renamed_section_moves_to_the_same_key_of_the_new_one(facts, tmp_path):
    """`critic.model.fsdp_config` (verl 0.7.1) and `critic.fsdp` (0.8.0 on) are both built into FSDPEngineConfig:
    each key is its own key-moved finding, with both places as the fact, and --fix rewrites both lines."""
    from verl_cookbook import cli

    p = tmp_path / "run.sh"
    p.write_text(CRITIC.format(section="model.fsdp_config"))
    found = [d.finding for d in diagnose(p, facts).findings]
    assert [(f.rule, f.data["new"]) for f in found] == [
        ("upgrade/key-moved", "critic.fsdp.param_offload"),
        ("upgrade/key-moved", "critic.fsdp.optimizer_offload"),
    ]
    assert "FSDPEngineConfig" in (found[0].fact or "") and "_generated_ppo_trainer.yaml:444" in (found[0].fact or "")
    cli.main(["doctor", "--verl", "0.9.1", "--fix", "-q", str(p)])
    assert p.read_text() == CRITIC.format(section="fsdp")


def test_the_keys_of_the_new_section_are_silent(facts, tmp_path):
    p = tmp_path / "run.sh"
    p.write_text(CRITIC.format(section="fsdp"))
    assert [d.finding.rule for d in diagnose(p, facts).findings] == []


OLD_GENERATION = """python3 -m verl.trainer.main_generation \\
    trainer.n_gpus_per_node=8 \\
    data.path=$HOME/data/test.parquet \\
    data.prompt_key=prompt \\
    data.n_samples=4 \\
    data.output_path=$HOME/out.parquet \\
    model.path=Qwen/Qwen2.5-7B-Instruct \\
    {name}rollout.temperature=1.0 \\
    rollout.tensor_model_parallel_size=2
"""
NEW_GENERATION = """python3 -m verl.trainer.main_generation_server{name} \\
    trainer.n_gpus_per_node=8 \\
    data.train_files=$HOME/data/test.parquet \\
    data.prompt_key=prompt \\
    actor_rollout_ref.rollout.n=4 \\
    +data.output_path=$HOME/out.parquet \\
    actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct \\
    {set_name}actor_rollout_ref.rollout.temperature=1.0 \\
    actor_rollout_ref.rollout.tensor_model_parallel_size=2
"""


def test_an_old_generation_command_is_rewritten_as_main_generation_server_reads_it(facts, tmp_path):
    """main_generation (gone in 0.7.1) read `data.path`, `data.n_samples`, `model.path` and a top-level `rollout`;
    main_generation_server reads the same values at the keys below (each move cites both reads), and the old
    config's `rollout.name: vllm`, which the new config leaves required, is carried over by the fix."""
    from verl_cookbook import cli

    p = tmp_path / "gen.sh"
    p.write_text(OLD_GENERATION.format(name=""))
    found = [d.finding for d in diagnose(p, facts).findings]
    moved = {f.data["key"]: f.data["new"] for f in found if f.rule == "upgrade/key-moved"}
    assert moved == {
        "data.path": "data.train_files",
        "data.n_samples": "actor_rollout_ref.rollout.n",
        "data.output_path": "+data.output_path",
        "model.path": "actor_rollout_ref.model.path",
        "rollout.temperature": "actor_rollout_ref.rollout.temperature",
        "rollout.tensor_model_parallel_size": "actor_rollout_ref.rollout.tensor_model_parallel_size",
    }
    assert all("main_generation" in (f.fact or "") or "RolloutConfig" in (f.fact or "") for f in found[1:])
    (ep,) = [f for f in found if f.rule == "upgrade/entry-point-moved"]
    assert ep.data["keep"] == ["actor_rollout_ref.rollout.name=vllm"]
    cli.main(["doctor", "--verl", "0.9.1", "--fix", "-q", str(p)])
    assert p.read_text() == NEW_GENERATION.format(name=" actor_rollout_ref.rollout.name=vllm", set_name="")
    assert [d.finding.rule for d in diagnose(p, facts).findings] == []


def test_an_old_generation_command_that_names_its_rollout_keeps_its_choice(facts, tmp_path):
    p = tmp_path / "gen.sh"
    p.write_text(OLD_GENERATION.format(name="rollout.name=sglang \\\n    "))
    (ep,) = [d.finding for d in diagnose(p, facts).findings if d.finding.rule == "upgrade/entry-point-moved"]
    assert ep.data.get("keep") is None


def test_a_generation_command_written_for_main_generation_server_is_silent(facts, tmp_path):
    p = tmp_path / "gen.sh"
    p.write_text(NEW_GENERATION.format(name="", set_name="actor_rollout_ref.rollout.name=vllm \\\n    "))
    assert [d.finding.rule for d in diagnose(p, facts).findings] == []


def test_keys_of_other_commands_are_not_read_as_the_generation_entry_points(facts, tmp_path):
    """`data.path` under main_ppo is an unknown key, not a move: the map belongs to main_generation alone."""
    p = tmp_path / "ppo.sh"
    p.write_text("python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm data.path=x.parquet\n")
    assert [d.finding.rule for d in diagnose(p, facts).findings] == ["config/unknown-key"]


CRITIC_OFFLOAD = """python3 -m verl.trainer.main_ppo \\
    actor_rollout_ref.rollout.name=vllm \\
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 \\
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=2 \\
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=2 \\
    critic.model.fsdp_config.param_offload=True \\
    critic.model.fsdp_config.optimizer_offload=True \\
    trainer.total_epochs=2
"""


def test_fix_takes_a_second_pass_for_what_moving_a_comment_uncovers(facts, tmp_path, capsys):
    """A comment line cut the command short, so the critic key after it was never an argument; once the first pass
    moves the comment, the key is judged as the command's and the second pass moves it too (verl 0.7.1's
    run_deepseek7b_llm_pfppo.sh needed this)."""
    from verl_cookbook import cli

    text = CRITIC_OFFLOAD.replace(
        "    critic.model.fsdp_config.param_offload=True \\\n",
        "    # the critic's memory\n    critic.model.fsdp_config.param_offload=True \\\n",
    )
    p = tmp_path / "run.sh"
    p.write_text(text, encoding="utf-8")
    cli.main(["doctor", "--verl", "0.9.1", "--fix", str(p)])
    assert "in 2 passes" in capsys.readouterr().err
    fixed = p.read_text(encoding="utf-8")
    assert fixed.startswith("# the critic's memory\npython3 -m verl.trainer.main_ppo")
    assert "critic.fsdp.param_offload=True" in fixed and "critic.fsdp.optimizer_offload=True" in fixed
    assert diagnose(p, facts).findings == []


def test_fix_stops_after_one_pass_when_nothing_was_uncovered(tmp_path, capsys):
    from verl_cookbook import cli

    p = tmp_path / "run.sh"
    p.write_text(CRITIC_OFFLOAD, encoding="utf-8")
    cli.main(["doctor", "--verl", "0.9.1", "--fix", str(p)])
    err = capsys.readouterr().err
    assert "fixed 2 of 2 finding(s) in 1 file(s)" in err and "passes" not in err


def test_a_rename_from_the_release_history_is_followed_to_the_key_the_target_has():
    spec = importlib.util.spec_from_file_location("build_key_moves", REPO / "scripts" / "build_key_moves.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    old = "actor_rollout_ref.rollout.skip_rollout"
    for have, new in [
        ({"actor_rollout_ref.rollout.skip.enable"}, "actor_rollout_ref.rollout.skip.enable"),  # 0.8.0
        ({"skip.rollout.enable"}, "skip.rollout.enable"),  # 0.9.x: two renames
    ]:
        moves = {old: {"last": "0.7.1"}}
        build.add_history_moves(moves, have)
        assert moves[old]["new"] == new and "#5556" in moves[old]["proof"]
    gone = {old: {"last": "0.7.1"}}
    build.add_history_moves(gone, {"something.else"})  # the chain leads nowhere the target has: left removed
    assert "new" not in gone[old]
    # the shipped data was written with them: each covered release gets the key it has
    shipped = json.loads(KEY_MOVES.read_text())["moves"]
    assert shipped["0.8.0"][old]["new"] == "actor_rollout_ref.rollout.skip.enable"
    assert shipped["0.9.0"][old]["new"] == shipped["0.9.1"][old]["new"] == "skip.rollout.enable"
    assert "#6097" in shipped["0.9.1"][old]["proof"]
