"""The shell reader on launch scripts written in users' styles (tests/data/shell_reader/): each fixture with the
findings it must give, at the line where the mistake is written, and the findings it must not give."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import helpers
from verl_cookbook.doctor import diagnose
from verl_cookbook.shell.evaluate import parse_script

DATA = Path(__file__).resolve().parent / "data" / "shell_reader"


def line_of(name: str, needle: str) -> int:
    return helpers.line_of(DATA / name, needle, skip_comments=True)


def report(facts, name: str):
    return helpers.doctor_report(facts, DATA / name)


def rules_at(facts, name: str) -> list[tuple[str, int]]:
    return helpers.rules_and_lines(report(facts, name))


@pytest.mark.parametrize(
    "name, rule, needle",
    [
        ("plain.sh", "config/unknown-key", "trainer.no_such_key=1"),
        ("arrays.sh", "config/unknown-key", "trainer.no_such_key=1"),
        ("for_loop.sh", "config/unknown-key", 'ARGS+=("trainer.${k}=2")'),
        ("tilde_default.sh", "override/malformed", "data.val_files=$QUOTED"),
    ],
)
def test_each_fixture_gives_its_planted_finding_at_the_line_it_is_written(facts, name, rule, needle):
    assert (rule, line_of(name, needle)) in rules_at(facts, name)


@pytest.mark.parametrize(
    "name, count",
    [("plain.sh", 1), ("arrays.sh", 1), ("for_loop.sh", 1), ("tilde_default.sh", 1), ("external_modules.sh", 0)],
)
def test_each_fixture_gives_nothing_else(facts, name, count):
    assert len(report(facts, name).findings) == count, rules_at(facts, name)


def test_the_module_of_a_continued_torchrun_line_is_reported_where_it_is_written(facts):
    found = rules_at(facts, "torchrun_continuation.sh")
    module_line = line_of("torchrun_continuation.sh", "-m verl.trainer.fsdp_sft_trainer")
    assert module_line == line_of("torchrun_continuation.sh", "torchrun") + 1
    assert any(line == module_line for _rule, line in found), found
    assert not any(line == module_line - 1 for _rule, line in found), found


def test_a_tilde_in_an_assignment_and_in_a_default_is_the_home_folder_not_a_malformed_override(facts):
    r = report(facts, "tilde_default.sh")
    lines = {line_of("tilde_default.sh", k) for k in ("data.train_files=", "trainer.default_local_dir=")}
    assert not [d for d in r.findings if d.finding.line in lines], rules_at(facts, "tilde_default.sh")
    # the home folder is the machine's: the value is said to be unknown, not guessed
    assert any("data.train_files" in n and "not known statically" in n for n in r.notes)


def test_values_bash_computes_from_the_script_are_computed():
    script = parse_script((DATA / "tilde_default.sh").read_text())
    args = dict(a.split("=", 1) for a in script.commands[-1].argv if a.startswith("trainer.n"))
    assert args == {"trainer.n_gpus_per_node": "8", "trainer.nnodes": "1"}


def test_a_tilde_the_script_gives_home_for_is_expanded_to_it():
    script = parse_script("HOME=/h\nD=${D:-~/x}\nE=a:~/b\npython3 -m verl.trainer.main_ppo x.y=$D x.z=$E\n")
    assert script.commands[0].argv[-2:] == ["x.y=/h/x", "x.z=a:/h/b"]
    assert not any(w.has_var for w in script.commands[0].words)


def test_overrides_appended_in_a_loop_over_a_literal_list_are_all_read():
    script = parse_script((DATA / "for_loop.sh").read_text())
    argv = script.commands[-1].argv
    assert [a for a in argv if a.startswith("trainer.")] == [
        "trainer.total_epochs=1",
        "trainer.save_freq=1",
        "trainer.test_freq=1",
        "trainer.no_such_key=2",
    ]
    assert len(script.commands) == 1  # the loops' bodies hold no command: nothing is judged twice


def test_a_loop_over_words_not_known_statically_is_said_in_a_note(facts):
    r = report(facts, "for_loop.sh")
    loop_line = line_of("for_loop.sh", '"${!EXTRA[@]}"')
    assert any(n.startswith(f"line {loop_line}:") and "may be incomplete" in n for n in r.notes), r.notes


def test_a_command_inside_a_loop_is_judged_once():
    script = parse_script("for s in 1 2 3; do python3 -m verl.trainer.main_ppo trainer.seed=$s; done\n")
    assert [c.argv[-1] for c in script.commands] == ["trainer.seed=1"]


def test_external_modules_are_noted_and_the_keys_they_may_add_are_not_reported(facts):
    r = report(facts, "external_modules.sh")
    assert any("VERL_USE_EXTERNAL_MODULES" in n and "my_recipe.plugin" in n for n in r.notes), r.notes
    assert not [d for d in r.findings if d.finding.rule == "config/unknown-key"]


def test_without_external_modules_the_same_unknown_key_is_reported(facts, tmp_path):
    text = (DATA / "external_modules.sh").read_text().replace("export VERL_USE_EXTERNAL_MODULES", "export OTHER")
    p = tmp_path / "no_plugin.sh"
    p.write_text(text)
    r = diagnose(p, facts)
    assert [d.finding.rule for d in r.findings] == ["config/unknown-key"]


def test_overrides_built_from_an_associative_array_in_a_loop_are_all_read():
    script = parse_script((DATA / "assoc_loop.sh").read_text())
    argv = sorted(script.commands[-1].argv[3:])
    assert argv == [
        "actor_rollout_ref.rollout.enforce_eager=True",
        "actor_rollout_ref.rollout.max_num_seqs=256",
        "actor_rollout_ref.rollout.no_such_section.x=1",
    ]
    assert not script.notes


def test_a_key_added_to_an_associative_array_reaches_the_checker(facts):
    rules = [(d.finding.rule, d.finding.data.get("key")) for d in report(facts, "assoc_loop.sh").findings]
    assert rules == [("config/unknown-key", "actor_rollout_ref.rollout.no_such_section.x")]


# -- arrays built in loops ----------------------------------------------------------------------------------------
def test_a_loop_over_an_array_with_a_pattern_test_continue_and_a_renaming_builds_what_bash_builds():
    script = parse_script((DATA / "array_copy_loop.sh").read_text(encoding="utf-8"))
    words = script.commands[-1].words
    ref = [(w.text.split("=")[0], w.line) for w in words if w.text.startswith("actor_rollout_ref.ref.megatron.")]
    # the renamed copies, each at the line of the actor's setting it was built from; `use_mbridge` skipped
    assert ref == [
        ("actor_rollout_ref.ref.megatron.tensor_model_parallel_size", line_of("array_copy_loop.sh", "parallel_size=2")),
        ("actor_rollout_ref.ref.megatron.param_offlod", line_of("array_copy_loop.sh", "param_offlod=True")),
        ("actor_rollout_ref.ref.megatron.pipeline_model_parallel_size", line_of("array_copy_loop.sh", '"${LAYERS}"')),
    ]
    assert not any(w.text.startswith("actor_rollout_ref.ref.megatron.use_mbridge") for w in words)


def test_a_key_copied_by_a_loop_is_reported_for_each_copy_at_the_line_it_was_written(facts):
    typo = line_of("array_copy_loop.sh", "param_offlod=True")
    found = [
        (d.finding.rule, d.finding.line, d.finding.data.get("key"))
        for d in report(facts, "array_copy_loop.sh").findings
    ]
    assert found == [
        ("config/unknown-key", typo, "actor_rollout_ref.actor.megatron.param_offlod"),
        ("config/unknown-key", typo, "actor_rollout_ref.ref.megatron.param_offlod"),
    ]


def test_a_continue_that_depends_on_a_value_not_known_is_one_note_at_its_test():
    script = parse_script((DATA / "array_copy_loop.sh").read_text(encoding="utf-8"))
    test_line = line_of("array_copy_loop.sh", '*".use_mbridge="*')
    assert [n for n in script.notes if "continue" in n[1]] == [
        (
            test_line,
            "`if` at this line decides a `continue` or `break` on something not known statically; the loop "
            "was read as if it went on",
        )
    ]


@pytest.mark.parametrize(
    "text, expected",
    [
        ('x=--data_path=/d/a=b; echo "${x#*=}" "${x##*=}"', ["/d/a=b", "b"]),
        ('f=model.tar.gz; echo "${f%.*}" "${f%%.*}"', ["model.tar", "model"]),
        (
            'k=a.actor.b.actor; echo "${k/actor/ref}" "${k//actor/ref}" "${k/#a./z.}" "${k/%actor/ref}"',
            ["a.ref.b.actor", "a.ref.b.ref", "z.actor.b.actor", "a.actor.b.ref"],
        ),
        ('A=(x.a=1 y.a=2); echo "${A[@]/.a=/.b=}" "${A[1]#y.}"', ["x.b=1", "y.b=2", "a=2"]),
        ('k=$(cmd); echo "${k/a/b}" "${k#x}"', ["${k/a/b}", "${k#x}"]),  # of a value not known: kept as written
    ],
)
def test_bash_pattern_operators_on_values_the_script_sets(text, expected):
    assert parse_script(text + "\n").commands[-1].argv[1:] == expected


@pytest.mark.parametrize(
    "test, taken",
    [
        ('[[ "$k" == *.actor.* ]]', True),
        ('[[ "$k" == *".actor."* ]]', True),
        ('[[ "$k" == "*.actor.*" ]]', False),  # quoted: the characters themselves, no pattern
        ('[[ "$k" != a.* ]]', False),
        ("[[ $k == a.?ctor.b ]]", True),
        ('[ "$k" == "*.actor.*" ]', False),  # in [ ], == compares strings
    ],
)
def test_a_pattern_test_in_double_brackets_takes_the_branch_bash_takes(test, taken):
    script = parse_script(f"k=a.actor.b\nif {test}; then X=yes; else X=no; fi\necho $X\n")
    assert script.commands[-1].argv[1:] == (["yes"] if taken else ["no"])
    assert script.notes == []


def test_break_leaves_the_loop_bash_leaves():
    text = "for k in a b stop c; do\n  if [ $k = stop ]; then break; fi\n  A+=($k)\ndone\necho ${A[@]}\n"
    assert parse_script(text).commands[-1].argv[1:] == ["a", "b"]


# -- `[[ test ]] && statement`: the short form of `if` ------------------------------------------------------------
LOOP_AND = """EXTRA=""
for k in a b c; do
  [[ $k == *b* ]] && continue
  EXTRA="trainer.total_epochs=2 $EXTRA"
done
python3 -m verl.trainer.main_ppo data.train_batch_size=16 $EXTRA
"""


def test_a_test_and_continue_in_a_loop_skips_only_the_passes_the_test_selects():
    script = parse_script(LOOP_AND)
    assert script.commands[-1].argv[3:] == [
        "data.train_batch_size=16",
        "trainer.total_epochs=2",
        "trainer.total_epochs=2",
    ]
    assert not script.notes


def test_a_test_or_statement_runs_the_statement_only_when_the_test_fails():
    script = parse_script(
        'M=fsdp; X=""\n[[ $M == fsdp ]] || X=bad\n[[ $M == megatron ]] || Y=good\n'
        "python3 -m verl.trainer.main_ppo a=1 $X $Y\n"
    )
    assert script.commands[-1].argv[3:] == ["a=1", "good"]


def test_a_command_and_command_list_still_runs_both_sides():
    script = parse_script("cd /w && python3 -m verl.trainer.main_ppo a=1\n")
    assert [c.argv[:3] for c in script.commands] == [["cd", "/w"], ["python3", "-m", "verl.trainer.main_ppo"]]


def test_a_test_on_a_value_not_known_before_continue_is_one_note_and_the_loop_goes_on():
    script = parse_script(
        'for k in a b; do\n  [[ $k == "$UNSET_ENV" ]] && continue\n  E="x=1"\ndone\n'
        "python3 -m verl.trainer.main_ppo $E\n"
    )
    assert script.commands[-1].argv[3:] == ["x=1"]
    assert [n[1].split("`")[1] for n in script.notes if "continue" in n[1]] == ["&&"]
