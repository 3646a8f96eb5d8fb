"""Words that tree-sitter-bash splits into several nodes are read as the one word bash sees.

tree-sitter-bash reads ``k=$d/$r/validation`` as ``k=$d/$`` followed by the word ``r/validation``; doctor used to
report the second piece as a malformed override. Bash separates words only by unquoted whitespace, so these
tests compare the reader with bash itself (``printf '%s\\0'`` of the same words) on a corpus of shapes users
write, and check doctor on a launch script written that way (tests/data/shell_reader/path_joins.sh)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from verl_cookbook.doctor import diagnose
from verl_cookbook.shell.evaluate import parse_script

DATA = Path(__file__).resolve().parent / "data" / "shell_reader"
FIXTURE = DATA / "path_joins.sh"
BASH = shutil.which("bash")

needs_bash = pytest.mark.skipif(BASH is None, reason="bash is not installed")

# Variables every corpus line may use; S holds a space, so bash splits it where it is unquoted.
PRELUDE = 'A=x; B=y; C=z; S="s t"; D=/data/rollouts; R=qwen2.5-7b-grpo\n'

# Shapes of words written in launch scripts: each is an argument list of one command.
CORPUS = [
    "key=$A/$B/z",
    "key=$A/$B",
    "key=$A-$B",
    "key=$A-$B-z",
    "key=${A}_$B.x",
    "key=$A.$B.x",
    'key="$A"/$B',
    'key="$A"/$B/z',
    "key=$A/$B/$C",
    "key=$A/$B/$C/w",
    "key=$A/${B}/$C/w",
    "a$A/$B/c",
    "key=$A/$B:w",
    "key=$A/$B\\ w",
    'key=$A/$B"/q r"',
    "key=$A/$B'/q r'",
    "key=$S/$B",
    "key=$A/$S/z",
    "key=${A:-$B/$C/w}",
    "key=${NOPE:-$B/$C/w}",
    "trainer.validation_data_dir=$D/$R/validation trainer.rollout_data_dir=$D/$R",
    "key=$A/$B/z   other=$C/$A/w",
    # tree-sitter leaves an escaped character out of every node here: it is still part of its word
    '"$A"\\ $B',
    "a \\  b",
    "k=$A \\ $B/z",
    "==$A/$B",
]


def bash_words(script: str) -> list[str]:
    """The arguments bash passes to ``python3`` in ``script`` (``python3`` replaced by a function that prints
    them), with ``whoami`` printing nothing."""
    assert BASH is not None
    prog = "python3() { printf '%s\\0' \"$@\"; }\nwhoami() { :; }\n" + script
    out = subprocess.run([BASH, "-c", prog, "launch"], capture_output=True, check=True).stdout
    return out.decode().split("\0")[:-1]


def reader_words(script: str) -> list[str]:
    (cmd,) = [c for c in parse_script(script).commands if c.argv[0] == "python3"]
    return cmd.argv[1:]


@needs_bash
@pytest.mark.parametrize("line", CORPUS)
def test_the_reader_splits_words_exactly_where_bash_does(line):
    script = PRELUDE + f"python3 -m verl.trainer.main_ppo {line}\n"
    assert reader_words(script) == bash_words(script)


@needs_bash
@pytest.mark.parametrize(
    "setup, use",
    [
        ("X=$A/$B/z", '"$X"'),
        ("X=$D/$R/validation", "k=$X"),
        ("export X=$A/$B/z", '"$X"'),
        ('f() { local X=$A/$B/z; python3 -m m "$X"; }', None),
        ("ARR=( k=$A/$B/z k2=$A-$B-w )", '"${ARR[@]}"'),
        ("ARR=( $A/$B/z ); ARR+=( $C/$A/w )", '"${ARR[@]}"'),
        ("declare -A M=( [k]=$A/$B/z )", '"${M[k]}"'),
    ],
)
def test_a_value_assigned_from_joined_variables_is_the_value_bash_assigns(setup, use):
    run = f"python3 -m m {use}" if use is not None else "f"
    script = PRELUDE + setup + "\n" + run + "\n"
    assert reader_words(script) == bash_words(script)


@needs_bash
def test_positional_and_special_names_are_one_character_as_in_bash():
    # tree-sitter reads `$1k` and `$@k` as names of their own; bash reads `$1` then `k`
    script = PRELUDE + 'f() { python3 -m m k=$1k/$2_x "$#x" x$@k k=$1/$2/z; }\nf a b\n'
    assert reader_words(script) == bash_words(script)


@needs_bash
def test_a_for_loop_over_a_joined_word_runs_once_with_that_word():
    script = PRELUDE + "for w in $A/$B/z $C-$A; do python3 -m m k=$w; done\n"
    # bash runs the command twice; the reader judges a command in a loop once, with the first word
    assert reader_words(script) == bash_words(script)[:3]


def test_an_assignment_alone_that_tree_sitter_splits_is_an_assignment_not_a_command():
    script = parse_script("D=/d; R=r\nX=$D/$R/validation\n")
    assert script.commands == []
    assert [(e.name, e.value, e.kind) for e in script.exports][-1] == ("X", "/d/r/validation", "assign")


def test_a_prefix_assignment_that_tree_sitter_splits_stays_a_prefix_of_the_real_command():
    (cmd,) = parse_script("D=/d; R=r\nOUT=$D/$R/v python3 -m verl.trainer.main_ppo a.b=1\n").commands
    assert cmd.argv == ["python3", "-m", "verl.trainer.main_ppo", "a.b=1"]
    assert cmd.env == {"OUT": "/d/r/v"}


def test_a_variable_not_known_statically_stays_as_written_inside_the_joined_word():
    (cmd,) = parse_script("D=/d\npython3 -m m k=$D/$MODEL/hf k=$D/$1/x k=$D/$(whoami)/y\n").commands
    words = cmd.words[3:]
    assert [w.text for w in words] == ["k=/d/$MODEL/hf", "k=/d/$1/x", "k=/d/$(whoami)/y"]
    assert [[w.text[s:e] for s, e in w.var_spans] for w in words] == [["$MODEL"], ["$1"], ["$(whoami)"]]


def test_each_character_of_a_joined_word_keeps_where_it_was_written():
    text = "D=/d\nR=run\npython3 -m m \\\n    k=$D/$R/validation\n"
    (cmd,) = parse_script(text).commands
    w = cmd.words[-1]
    assert w.text == "k=/d/run/validation"
    assert (w.line, w.col) == (4, 5)
    # `/validation` was written right after `$R`, at column 12 of line 4; `run` comes from line 2
    assert w.where(w.text.index("/validation")) == (4, 12)
    assert w.where(w.text.index("run"))[0] == 2


@needs_bash
def test_the_fixture_is_read_as_bash_reads_it_with_unknown_values_expanding_to_nothing():
    """bash run on the fixture with every unset variable empty: each word equals the reader's word with what
    the reader could not know (``var_spans``) removed, and there are as many words."""
    text = FIXTURE.read_text()
    (cmd,) = parse_script(text).commands
    ours = []
    for w in cmd.words[1:]:
        kept, a = [], 0
        for s, e in w.var_spans:
            kept.append(w.text[a:s])
            a = e
        ours.append("".join(kept) + w.text[a:])
    assert ours == bash_words(text)


def line_of(needle: str) -> int:
    for i, text in enumerate(FIXTURE.read_text().splitlines(), 1):
        if needle in text and not text.lstrip().startswith("#"):
            return i
    raise AssertionError(f"{needle!r} not in {FIXTURE.name}")


@pytest.fixture(scope="module")
def fixture_report(request):
    facts = request.getfixturevalue("facts")
    return diagnose(FIXTURE, facts)


def test_the_fixture_gives_the_two_planted_malformed_overrides_and_nothing_else(fixture_report):
    found = sorted((d.finding.rule, d.finding.line) for d in fixture_report.findings)
    # `trainer.total_epochs=1 2`: the space makes `2` a word of its own; `$label` holds a space, so bash splits
    # the value of trainer.default_hdfs_dir (the finding points at the assignment that holds the space)
    assert found == sorted(
        [
            ("override/malformed", line_of("trainer.total_epochs=1 2")),
            ("override/malformed", line_of('label="ablation two"')),
        ]
    )


def test_overrides_built_from_variables_next_to_each_other_are_not_malformed(fixture_report):
    lines = {
        line_of(k)
        for k in (
            "trainer.project_name=$project-$run_name",
            "trainer.experiment_name=${run_name}_$project.v1",
            "trainer.rollout_data_dir=$rollout_data_dir/$run_name",
            "trainer.validation_data_dir=$rollout_data_dir/$run_name/validation",
            'trainer.default_local_dir="$CKPT_ROOT"/$project/$run_name',
        )
    }
    assert not [d for d in fixture_report.findings if d.finding.line in lines]


def test_overrides_whose_values_are_not_known_are_noted_not_reported_malformed(fixture_report):
    (note,) = [n for n in fixture_report.notes if "not known statically" in n and "override(s)" in n]
    for key in ("data.train_files", "data.val_files", "trainer.resume_from_path", "actor_rollout_ref.model.path"):
        assert key in note
    unknown_lines = {line_of(k) for k in ("$DATA_HOME", "$(whoami)", "$rollout_data_dir/$1/", "$MODEL_ROOT")}
    assert not [d for d in fixture_report.findings if d.finding.line in unknown_lines]
