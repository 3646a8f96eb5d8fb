"""The static shell reader: words, lines, exports and what each command runs."""

from __future__ import annotations

import pytest

from verl_cookbook.shell.evaluate import parse_script


def test_line_continuations_keep_each_argument_on_its_own_line() -> None:
    script = parse_script("python3 -m verl.trainer.main_ppo \\\n    a.b=1 \\\n    c.d=2\n")
    (cmd,) = script.commands
    assert cmd.module == "verl.trainer.main_ppo"
    assert cmd.argv[cmd.args_start :] == ["a.b=1", "c.d=2"]
    assert cmd.arg_lines[cmd.args_start :] == [2, 3]


def test_line_offset_shifts_every_line() -> None:
    script = parse_script("\nexport A=1\n", line_offset=10)
    assert script.exports[0].line == 12


def test_quotes_are_removed_and_variables_left_symbolic() -> None:
    script = parse_script("""echo 'a b' "x $HOME y" ${VAR} plain\n""")
    (cmd,) = script.commands
    assert cmd.argv == ["echo", "a b", "x $HOME y", "${VAR}", "plain"]
    assert cmd.arg_vars == [False, False, True, True, False]


def test_comments_and_separators_split_commands() -> None:
    script = parse_script("cd build && cmake .. -DX=ON; make -j # build it\nls | wc -l &\n")
    assert [c.argv[0] for c in script.commands] == ["cd", "cmake", "make", "ls", "wc"]
    assert script.commands[2].argv == ["make", "-j"]


def test_redirections_are_not_arguments() -> None:
    script = parse_script("python3 -m verl.trainer.main_ppo a=1 2>&1 > log.txt\n")
    assert script.commands[0].argv[3:] == ["a=1"]


def test_heredoc_bodies_are_skipped() -> None:
    script = parse_script("cat <<'EOF' > x.sh\npython3 -m verl.trainer.main_ppo a=1\nEOF\necho done\n")
    assert [c.argv[0] for c in script.commands] == ["cat", "echo"]
    assert script.commands[1].line == 4


def test_unterminated_heredoc_is_reported() -> None:
    assert parse_script("cat <<EOF\nnever closed\n").errors


@pytest.mark.parametrize(
    ("text", "exported", "kind"),
    [
        ("export HCCL_BUFFSIZE=200\n", True, "export"),
        ("declare -x HCCL_BUFFSIZE=200\n", True, "export"),
        ("HCCL_BUFFSIZE=200 python3 train.py\n", True, "prefix"),
        ("HCCL_BUFFSIZE=200\n", False, "assign"),
    ],
)
def test_environment_assignments_say_whether_they_are_exported(text: str, exported: bool, kind: str) -> None:
    (exp,) = parse_script(text).exports
    assert (exp.name, exp.value, exp.exported, exp.kind) == ("HCCL_BUFFSIZE", "200", exported, kind)


def test_export_of_a_name_takes_its_earlier_value() -> None:
    exports = parse_script("A=5\nexport A\n").exports
    assert exports[-1].value == "5" and exports[-1].exported


def test_export_value_with_variable_is_flagged() -> None:
    (exp,) = parse_script('export PATH="$HOME/bin:$PATH"\n').exports
    assert exp.has_var and exp.value == "$HOME/bin:$PATH"


@pytest.mark.parametrize(
    ("line", "module", "first_arg"),
    [
        ("python3 -m verl.trainer.main_ppo a=1", "verl.trainer.main_ppo", "a=1"),
        ("python -u -m verl.model_merger merge --backend fsdp", "verl.model_merger", "merge"),
        ("python3 verl/trainer/main_ppo.py a=1", "verl.trainer.main_ppo", "a=1"),
        (
            "torchrun --nnodes=1 --nproc_per_node 8 -m verl.trainer.fsdp_sft_trainer a=1",
            "verl.trainer.fsdp_sft_trainer",
            "a=1",
        ),
        (
            "torchrun --standalone --nproc_per_node 8 verl/trainer/fsdp_sft_trainer.py a=1",
            "verl.trainer.fsdp_sft_trainer",
            "a=1",
        ),
        ("ray job submit --address x -- python3 -m verl.trainer.main_ppo a=1", "verl.trainer.main_ppo", "a=1"),
        ("env FOO=1 nohup python3 -m verl.trainer.main_ppo a=1", "verl.trainer.main_ppo", "a=1"),
        ("cmake .. -DUSE_ASCEND_DIRECT=ON", "cmake", ".."),
        ("/usr/bin/cmake -S . -B build", "cmake", "-S"),
    ],
)
def test_module_names_what_the_command_runs(line: str, module: str, first_arg: str) -> None:
    (cmd,) = parse_script(line + "\n").commands
    assert cmd.module == module
    assert cmd.argv[cmd.args_start] == first_arg


def test_control_structures_yield_the_commands_inside() -> None:
    text = "if [ -f x ]; then\n  cmake ..\nfi\nfor i in 1 2; do echo $i; done\nf() { make; }\n"
    assert [c.argv[0] for c in parse_script(text).commands] == ["cmake", "echo", "make"]


def test_case_patterns_are_not_commands() -> None:
    text = "case $x in\n  a) echo a ;;\n  *) echo b ;;\nesac\n"
    assert [c.argv for c in parse_script(text).commands] == [["echo", "a"], ["echo", "b"]]


def test_command_substitution_stays_one_unknown_word_and_integer_arithmetic_is_evaluated() -> None:
    (cmd,) = parse_script('echo "$(date +%s)" `hostname` $((1 + 2)) $((N * 2))\n').commands
    assert cmd.argv == ["echo", "$(date +%s)", "`hostname`", "3", "$((N * 2))"]
    assert cmd.arg_vars == [False, True, True, False, True]
