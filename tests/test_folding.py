"""Folding (verl_cookbook/folding.py): a finding another one explains, as the rules declare it, is shown under that
cause; nothing is lost (JSON keeps every finding, with ``caused_by``), and nothing is folded that no declared rule
explains. The unit tests build findings by hand; the others run ``doctor`` through the command line."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import sample_finding

from verl_cookbook.cli import main
from verl_cookbook.findings import Finding, format_github, format_text
from verl_cookbook.folding import explains, fold
from verl_cookbook.rules.config import CONFIG_UNKNOWN_KEY

CAUSE = "override/group"  # declares that it folds unknown keys (verl_cookbook/rules/config.py)


def _cause(line: int = 9, under=("a.b",), span=(1, 20), path: str = "run.sh") -> Finding:
    data = {"case": "", "config": "c", "override": "g=x", "error": "e", "span": list(span) if span else None}
    if under is not None:
        data["under"] = list(under)
    if span is None:
        del data["span"]
    from verl_cookbook.rules.config import OVERRIDE_GROUP

    return OVERRIDE_GROUP.at(path, line, 1, **data)


def _key(key: str, line: int, path: str = "run.sh", rule: str = "config/unknown-key") -> Finding:
    return sample_finding(rule, path, line, key=key)


def test_a_cause_folds_the_keys_under_its_packages_within_its_lines():
    cause = _cause()
    assert explains(cause, _key("a.b.c", 3)) and explains(cause, _key("+a.b", 4))
    assert not explains(cause, _key("a.bc", 3))  # a prefix of a name is no package
    assert not explains(cause, _key("a.b.c", 21))  # another command's line
    assert not explains(cause, _key("a.b.c", 3, path="other.sh"))


def test_a_cause_folds_only_the_rules_it_declares():
    assert not explains(_cause(), _key("a.b.c", 3, rule="config/legacy-key"))


def test_a_cause_that_says_no_reach_folds_nothing():
    assert not explains(_cause(under=None, span=None), _key("a.b.c", 3))


def test_a_finding_nothing_explains_is_shown_on_its_own_and_causes_come_first():
    found = [_key("x.y", 2), _key("a.b.c", 3), _cause(line=9)]
    folding = fold(found)
    assert folding.shown == [2, 0] and folding.cause == [None, 2, None]
    assert (folding.folded, folding.roots) == (1, 1)


def test_a_chain_of_causes_folds_under_its_root():
    section = sample_finding("config/unknown-section", "run.sh", 3, section="a.b.m", under=["a.b.m"])
    found = [section, _key("a.b.m.x", 3), _key("a.b.m.y", 4), _cause(line=9)]
    folding = fold(found)
    assert folding.cause == [3, 3, 3, None] and folding.shown == [3]


def test_text_shows_the_cause_with_the_count_and_lines_under_it_and_github_annotates_only_the_cause():
    found = [_key("a.b.c", 3), _key("a.b.d", 7), _cause(line=9)]
    text = format_text(found)
    assert text.splitlines()[0].startswith("run.sh:9:1: override/group")
    assert "under it: 2 more findings on lines 3 … 7" in text and "run.sh:3:" not in text
    assert "由此引起：另有 2 条检查结果，第 3~7 行" in format_text(found, lang="zh")
    (annotation,) = format_github(found).splitlines()
    assert annotation.startswith("::error file=run.sh,line=9,") and "2 more findings on lines 3 … 7" in annotation


def test_a_github_annotation_names_the_source_of_its_fact_only_when_there_is_one():
    bare = CONFIG_UNKNOWN_KEY.at("run.sh", 3, 1, key="a.b", config="ppo_trainer", name="b", fact="keys under a: c")
    (annotation,) = format_github([bare]).splitlines()
    assert annotation.endswith("— verl: keys under a: c")
    sourced = CONFIG_UNKNOWN_KEY.at(
        "run.sh", 3, 1, key="a.b", config="ppo_trainer", name="b", fact="c", fact_source="verl/x.yaml:7"
    )
    assert format_github([sourced]).endswith("— verl: c (verl/x.yaml:7)")


MINDSPEED_SCRIPT = """\
ACTOR=(
    actor_rollout_ref.actor.mindspeed.tensor_model_parallel_size=2
    actor_rollout_ref.actor.mindspeed.param_offload=True
    +actor_rollout_ref.actor.mindspeed.llm_kwargs.num_layers=4
    trainer.total_epoch=2
)
python3 -m verl.trainer.main_ppo \\
    model_engine=mindspeed \\
    actor_rollout_ref.rollout.name=vllm \\
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1 \\
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=1 \\
    "${ACTOR[@]}"
"""


def _doctor(tmp_path: Path, capsys, *args: str) -> tuple[int, str, str]:
    script = tmp_path / "run.sh"
    script.write_text(MINDSPEED_SCRIPT, encoding="utf-8")
    code = main(["doctor", "--verl", "0.9.1", str(script), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_doctor_leads_with_the_engine_the_release_lacks_and_folds_what_it_would_define(tmp_path, capsys):
    code, out, err = _doctor(tmp_path, capsys)
    assert code == 1
    heads = [line for line in out.splitlines() if not line.startswith("    ")]
    assert heads[0].split(": ", 1)[1].startswith("override/group `model_engine=mindspeed`: verl 0.9.1 has no")
    assert "verl 0.9.0 was the last release with it" in heads[0]
    # two unknown keys, the section they are in, and a key added below it
    assert "under it: 4 more findings on lines 2 … 4" in out
    assert [h.split(":")[1] for h in heads] == ["8", "5"]  # the typo outside the engine's packages stays shown
    assert "(4 folded under 1 cause)" in err


def test_doctor_json_keeps_every_finding_with_a_pointer_to_its_cause(tmp_path, capsys):
    _code, out, _err = _doctor(tmp_path, capsys, "--format", "json")
    found = json.loads(out)["findings"]
    by_line = {f["line"]: f for f in found}
    assert sorted(by_line) == [2, 3, 4, 5, 8]
    cause = {"path": by_line[8]["path"], "line": 8, "col": 5, "rule": "override/group"}
    assert [by_line[n]["caused_by"] for n in (2, 3, 4)] == [cause] * 3
    assert by_line[5]["caused_by"] is None and by_line[8]["caused_by"] is None


def test_a_cause_left_out_with_ignore_folds_nothing_and_the_next_cause_takes_over(tmp_path, capsys):
    _code, out, _err = _doctor(tmp_path, capsys, "--ignore", "override/group")
    heads = [line for line in out.splitlines() if not line.startswith("    ")]
    assert [int(h.split(":")[1]) for h in heads] == [2, 4, 5]
    assert "config/unknown-section" in heads[0] and "under it: 2 more findings on lines 2 … 3" in out


OLD_GENERATION = """\
python3 -m verl.trainer.main_generation \\
    trainer.nnodes=1 \\
    data.path=$HOME/data/test.parquet \\
    data.n_samples=4 \\
    model.path=Qwen/Qwen2.5-0.5B-Instruct \\
    rollout.temperature=1.0 \\
    rollout.response_length=512
python3 -m verl.trainer.main_ppo trainer.total_epoch=2 actor_rollout_ref.rollout.name=vllm
"""


def test_a_removed_entry_point_folds_what_its_command_sets_against_the_replacement_and_nothing_after(tmp_path, capsys):
    script = tmp_path / "gen.sh"
    script.write_text(OLD_GENERATION, encoding="utf-8")
    main(["doctor", "--verl", "0.9.1", str(script), "--format", "json"])
    found = json.loads(capsys.readouterr().out)["findings"]
    shown = [(f["line"], f["rule"]) for f in found if f["caused_by"] is None]
    assert (1, "upgrade/entry-point-moved") in shown
    assert {line for line, _rule in shown} == {1, 8}  # the next command's findings are its own
    folded = {f["data"].get("key") for f in found if f["caused_by"] and f["caused_by"]["line"] == 1}
    assert {"data.path", "data.n_samples", "model.path"} <= folded


def test_a_config_name_the_release_lacks_is_the_root_cause_of_its_command(tmp_path, capsys):
    script = tmp_path / "gen.sh"
    script.write_text(
        "python3 -m verl.trainer.main_ppo --config-name=generation \\\n    data.path=/d/test.parquet\n"
        "python3 -m verl.trainer.main_ppo --config-name ppo_trainer trainer.total_epochs=1\n",
        encoding="utf-8",
    )
    main(["doctor", "--verl", "0.9.1", str(script), "--format", "json"])
    found = json.loads(capsys.readouterr().out)["findings"]
    (cause,) = [f for f in found if f["rule"] == "config/unknown-config"]
    assert (cause["line"], cause["col"], cause["data"]["case"], cause["data"]["last"]) == (1, 34, "gone", "0.7.0")
    assert "ppo_trainer" in cause["data"]["offered"] and "fully_async_ppo_trainer" not in cause["data"]["offered"]
    assert cause["fact"].startswith("verl/trainer/config/generation.yaml at tag v0.7.0")
    assert all(f["caused_by"]["line"] == 1 for f in found if f["line"] == 1 and f is not cause)
    assert not any(f["line"] == 3 and f["rule"] == "config/unknown-config" for f in found)


# The shape of verl-ascend-recipe's DeepSeek-V4 scripts: the ref reuses the actor's llm_kwargs through a loop over
# the actor's array, rewritten with `${arg/…/…}`, skipping one key with `continue`.
COPIED_KWARGS = """\
ACTOR=(
    actor_rollout_ref.actor.mindspeed.tensor_model_parallel_size=2
    +actor_rollout_ref.actor.mindspeed.llm_kwargs.num_layers=4
    +actor_rollout_ref.actor.mindspeed.llm_kwargs.swap_optimizer=True
    +actor_rollout_ref.actor.mindspeed.llm_kwargs.num_layer_list=LAYERS
)
REF_KWARGS=()
for arg in "${ACTOR[@]}"; do
    if [[ "$arg" == *".actor.mindspeed.llm_kwargs."* ]]; then
        if [[ "$arg" == *".llm_kwargs.swap_optimizer="* ]]; then
            continue
        fi
        REF_KWARGS+=("${arg/actor_rollout_ref.actor.mindspeed/actor_rollout_ref.ref.mindspeed}")
    fi
done
python3 -m verl.trainer.main_ppo \\
    model_engine=mindspeed \\
    actor_rollout_ref.rollout.name=vllm \\
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1 \\
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=1 \\
    "${ACTOR[@]}" \\
    "${REF_KWARGS[@]}"
"""


def _doctor_json(tmp_path: Path, capsys, text: str) -> tuple[list[dict], list[str]]:
    """The findings and the file's notes of ``doctor --format json`` on ``text``."""
    script = tmp_path / "run.sh"
    script.write_text(text, encoding="utf-8")
    main(["doctor", "--verl", "0.9.1", str(script), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    return report["findings"], report["files"][0]["notes"]


def test_overrides_a_loop_copies_from_an_array_keep_their_element_line_and_fold_under_the_engine(tmp_path, capsys):
    found, notes = _doctor_json(tmp_path, capsys, COPIED_KWARGS)
    shown = [(f["line"], f["rule"]) for f in found if f["caused_by"] is None]
    assert shown == [(17, "override/group")]  # the engine choice is the one finding shown
    copied = {  # the keys' own findings (a finding grouping them carries `keys`, not `key`)
        f["data"]["key"]: f["line"] for f in found if ".ref.mindspeed.llm_kwargs." in str(f["data"].get("key"))
    }
    # each copy carries the line of the element it was made from; the key the loop skips is not copied
    assert copied == {
        "actor_rollout_ref.ref.mindspeed.llm_kwargs.num_layers": 3,
        "actor_rollout_ref.ref.mindspeed.llm_kwargs.num_layer_list": 5,
    }
    assert all(f["caused_by"]["line"] == 17 for f in found if f["line"] in (2, 3, 4, 5))
    assert not [n for n in notes if "not known statically" in n]  # every word was known: nothing guessed


def test_a_copied_element_whose_value_is_not_known_gets_one_note_at_the_test_it_decides(tmp_path, capsys):
    text = COPIED_KWARGS.replace("num_layer_list=LAYERS", "num_layer_list=$(python3 layers.py)")
    found, notes = _doctor_json(tmp_path, capsys, text)
    assert [(f["line"], f["rule"]) for f in found if f["caused_by"] is None] == [(17, "override/group")]
    flow = [n for n in notes if "`if`" in n or "loop" in n]
    assert len(flow) == 1 and flow[0].startswith("line 10: `if`")  # the `continue` test, said once


LAUNCH = Path(__file__).resolve().parent / "data" / "launch"


def test_overrides_cut_off_their_command_fold_the_required_values_it_then_lacks(capsys):
    """A missing `\\` leaves the trainer command without its overrides: what verl would then lack is shown under that
    cause (a whole command that lacks them keeps them shown: the next test)."""
    assert main(["doctor", "--verl", "0.9.1", "--format", "json", str(LAUNCH / "array_orphan.sh")]) == 1
    found = json.loads(capsys.readouterr().out)["findings"]
    (cause,) = [f for f in found if f["rule"] == "shell/orphan-overrides"]
    required = [f for f in found if f["rule"] == "config/required-missing"]
    assert len(required) == 3 and all(f["line"] == 10 for f in required)
    assert all(f["caused_by"] == {"path": cause["path"], "line": 11, "col": 5, "rule": cause["rule"]} for f in required)


def test_required_values_a_whole_command_lacks_are_shown_on_their_own(tmp_path, capsys):
    script = tmp_path / "run.sh"
    script.write_text("python3 -m verl.trainer.main_ppo \\\n    trainer.nnodes=1\n", encoding="utf-8")
    main(["doctor", "--verl", "0.9.1", "--format", "json", str(script)])
    found = json.loads(capsys.readouterr().out)["findings"]
    assert {f["rule"] for f in found} == {"config/required-missing"}
    assert all(f["caused_by"] is None for f in found)
