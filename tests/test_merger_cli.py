"""`python -m verl.model_merger …` in a shell block, judged against the merger's argparse facts."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from verl_cookbook.checks import COMMAND_CHECKS, Context
from verl_cookbook.checks import merger_cli as _merger_cli  # noqa: F401 - registers the command check
from verl_cookbook.markdown import CodeBlock

GOOD = (
    "python -m verl.model_merger merge \\\n"
    "    --backend fsdp \\\n"
    "    --local_dir checkpoints/run/global_step_100/actor \\\n"
    "    --target_dir /data/merged_hf_model\n"
)


def check(facts, code: str) -> list:
    """Run the registered check the way the shell check does: argv after the module, the block, the line."""
    lines = code.splitlines()
    block = CodeBlock(
        "page.md", 10, 1, "bash", {"check": "shell"}, "", code, [("page.md", 11 + i) for i in range(len(lines))]
    )
    argv = shlex.split(code.replace("\\\n", " "))
    argv = argv[argv.index("verl.model_merger") + 1 :]
    return COMMAND_CHECKS["verl.model_merger"](argv, block, 1, Context(facts=facts, root=Path(".")))


def line_at(facts, source: str) -> str:
    """The statement starting on the source line (an add_argument call may wrap), up to its closing parenthesis."""
    rel, _, line = source.rpartition(":")
    out = ""
    for text in facts.tree.read(rel).splitlines()[int(line) - 1 :]:
        out += text + " "
        if out.count("(") == out.count(")"):
            break
    return out


@pytest.mark.parametrize(
    "code",
    [
        GOOD,
        "python -m verl.model_merger test --backend megatron --local_dir a --test_hf_dir b\n",
        "python -m verl.model_merger merge --backend=megatron --tie-word-embedding --local_dir $CKPT\n",
        "python -m verl.model_merger merge --backend $BACKEND --local_dir a\n",  # a shell variable is not judged
        "python -m verl.model_merger --help\n",
    ],
    ids=["merge", "test", "equals-and-switch", "variable", "help"],
)
def test_valid_merger_commands_pass(facts, code: str) -> None:
    assert check(facts, code) == []


def test_the_check_is_registered_for_the_shell_check() -> None:
    assert "verl.model_merger" in COMMAND_CHECKS


def test_invalid_backend_choice_names_the_choices_and_the_line(facts) -> None:
    (f,) = check(facts, GOOD.replace("fsdp", "fsdb"))
    assert f.rule == "merger/invalid-choice" and "did you mean `fsdp`" in f.message
    assert (f.path, f.line) == ("page.md", 12)
    assert "--backend" in line_at(facts, f.fact_source) and "fsdp" in f.fact


def test_unknown_option_suggests_the_real_one(facts) -> None:
    (f,) = check(facts, GOOD.replace("--target_dir", "--target-dir"))
    assert f.rule == "merger/unknown-option" and "did you mean `--target_dir`" in f.message
    assert f.line == 14


def test_option_of_the_other_subcommand_says_which_takes_it(facts) -> None:
    (f,) = check(facts, GOOD.replace("--target_dir /data/merged_hf_model", "--test_hf_dir /data/ref"))
    assert f.rule == "merger/unknown-option" and "only `test` takes it" in f.message
    assert "--test_hf_dir" in line_at(facts, f.fact_source)


def test_unknown_subcommand(facts) -> None:
    (f,) = check(facts, GOOD.replace(" merge ", " convert "))
    assert f.rule == "merger/unknown-subcommand" and "convert" in f.message


def test_missing_subcommand(facts) -> None:
    (f,) = check(facts, GOOD.replace(" merge ", " "))
    assert f.rule == "merger/missing-subcommand"


def test_missing_required_option_names_its_declaration(facts) -> None:
    found = check(facts, "python -m verl.model_merger test --backend fsdp --local_dir a\n")
    assert [f.rule for f in found] == ["merger/missing-required"]
    assert "--test_hf_dir" in found[0].message and "required=True" in line_at(facts, found[0].fact_source)


def test_missing_backend_is_reported(facts) -> None:
    found = check(facts, "python -m verl.model_merger merge --local_dir a\n")
    assert [f.rule for f in found] == ["merger/missing-required"] and "--backend" in found[0].message


def test_option_without_its_value(facts) -> None:
    found = check(facts, "python -m verl.model_merger merge --backend fsdp --local_dir\n")
    assert [f.rule for f in found] == ["merger/missing-value"]


def test_switch_given_a_value(facts) -> None:
    found = check(facts, "python -m verl.model_merger merge --backend fsdp --private=true\n")
    assert [f.rule for f in found] == ["merger/unexpected-value"]


def test_a_release_without_the_merger(facts, monkeypatch) -> None:
    monkeypatch.setitem(facts.data, "merger", {})
    (f,) = check(facts, GOOD)
    assert f.rule == "merger/absent"
