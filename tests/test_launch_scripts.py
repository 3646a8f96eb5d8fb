"""Launch scripts as users write them: every override that bash would pass to verl reaches the checker,
at the line where it was written; what cannot be known statically is said in a note, never skipped silently.

Fixtures under tests/data/launch/ are written for these tests in the styles of real launch scripts (parameter
arrays, launcher arrays, ``uv run``, ``torchrun``, ``ray job submit``, functions, here-documents, defaults,
``| tee``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import helpers
from verl_cookbook.checks.command_line import overrides_to_assignments
from verl_cookbook.doctor import diagnose
from verl_cookbook.shell.evaluate import parse_script

DATA = Path(__file__).resolve().parent / "data" / "launch"


line_of = helpers.line_of
found = helpers.rules_and_lines


def report_of(facts, name: str):
    return helpers.doctor_report(facts, DATA / name)


# (fixture, rule, text on the line the finding must point at)
MUST = [
    ("arrays_planted.sh", "config/unknown-key", "use_kl_in_rewrd"),
    ("arrays_planted.sh", "override/plus-on-existing", "+data.max_prompt_length"),
    ("function_heredoc_tee.sh", "shell/after-pipe", "trainer.save_freq=10"),
    ("function_heredoc_tee.sh", "config/unknown-key", "train actor_rollout_ref.rollout.nme"),
    ("launchers.sh", "config/unknown-key", "trainer.totl_epochs"),
    ("comment_cut.sh", "shell/comment-ends-command", "# the rollout"),
    ("old_entry_point.sh", "upgrade/entry-point-moved", "main_generation"),
    ("old_entry_point.sh", "command/missing-dash-m", "python3 verl.trainer.main_ppo"),
    # a key after `# …` comments in backticks is still an argument of the command (bash ends the comment at the `)
    ("backtick_comments.sh", "config/unknown-key", "trainer.totl_epochs"),
    ("array_orphan.sh", "shell/orphan-overrides", '"${DATA[@]}"'),
]


@pytest.mark.parametrize(("name", "rule", "needle"), MUST, ids=[f"{m[0]}-{m[1]}" for m in MUST])
def test_a_mistake_is_reported_at_the_line_where_it_was_written(facts, name, rule, needle):
    assert (rule, line_of(DATA / name, needle)) in found(report_of(facts, name))


@pytest.mark.parametrize(
    ("name", "count"),
    [
        ("arrays_planted.sh", 2),
        ("function_heredoc_tee.sh", 2),
        ("launchers.sh", 1),
        ("comment_cut.sh", 1),
        ("old_entry_point.sh", 2),
        ("backtick_comments.sh", 1),  # no comment-ends-command, no words of the comments read as overrides
        ("array_orphan.sh", 1),  # the orphan lines (the CLI adds the required values it lacks, folded: test_folding)
        ("arrays_clean.sh", 0),
        ("unknown_parts.sh", 0),
    ],
)
def test_nothing_else_is_reported(facts, name, count):
    report = report_of(facts, name)
    assert len(report.findings) == count, found(report)


def test_array_elements_reach_the_checker_with_their_own_lines():
    path = DATA / "arrays_planted.sh"
    script = parse_script(path.read_text())
    (cmd,) = [c for c in script.commands if c.module == "verl.trainer.main_ppo"]
    assigns, errors, info = overrides_to_assignments(cmd, str(path))
    assert not errors
    lines = {".".join(a.path): a.line for a in assigns}
    assert lines["algorithm.use_kl_in_rewrd"] == line_of(path, "use_kl_in_rewrd")
    assert lines["data.train_batch_size"] == line_of(path, "data.train_batch_size")
    assert lines["actor_rollout_ref.model.path"] == line_of(path, "actor_rollout_ref.model.path")
    values = {".".join(a.path): a.value for a in assigns}
    assert values["data.train_batch_size"] == 64  # ${BATCH:-64}: the default the script gives
    assert values["data.max_response_length"] == 512  # $((256 * 2)) over integers
    assert values["actor_rollout_ref.model.path"] == "Qwen/Qwen2.5-0.5B-Instruct"
    assert info["opaque"] == ["$@"]  # the script's own arguments: said, not guessed


def test_a_launcher_array_chosen_by_a_condition_on_defaults_is_followed():
    script = parse_script((DATA / "arrays_planted.sh").read_text())
    (cmd,) = [c for c in script.commands if c.module == "verl.trainer.main_ppo"]
    assert cmd.argv[:4] == ["uv", "run", "--frozen", "--extra"]  # ${USE_UV:-1} = 1 takes the `then` branch
    assert cmd.line == line_of(DATA / "arrays_planted.sh", '"${LAUNCH[@]}"')


@pytest.mark.parametrize(
    ("line", "module"),
    [
        ("uv run --frozen --all-packages --extra vllm python3 -m verl.trainer.main_ppo a.b=1", "verl.trainer.main_ppo"),
        ("uv run -m verl.trainer.main_ppo a.b=1", "verl.trainer.main_ppo"),
        ("torchrun --nproc-per-node=8 -m some_launcher.run verl.trainer.sft_trainer a.b=1", "verl.trainer.sft_trainer"),
        ("ray job submit --no-wait -- python3 -m verl.trainer.main_ppo a.b=1", "verl.trainer.main_ppo"),
        ("FOO=1 BAR=2 python3 -m verl.trainer.main_ppo a.b=1", "verl.trainer.main_ppo"),
    ],
)
def test_launchers_are_seen_through(line, module):
    (cmd,) = parse_script(line + "\n").commands
    assert cmd.module == module
    assert cmd.argv[cmd.args_start] == "a.b=1"


def test_an_unquoted_variable_is_split_into_words_that_keep_their_lines():
    text = 'ENGINE="\\\n    engine.a=1 \\\n    engine.b=2"\npython3 -m verl.trainer.sft_trainer ${ENGINE}\n'
    (cmd,) = parse_script(text).commands
    words = cmd.module_words
    assert [(w.text, w.line) for w in words] == [("engine.a=1", 2), ("engine.b=2", 3)]


def test_a_quoted_variable_stays_one_word():
    (cmd,) = parse_script('X="a.b=1 c.d=2"\necho "$X"\n').commands
    assert cmd.argv == ["echo", "a.b=1 c.d=2"]


def test_an_empty_array_expands_to_no_word_at_all():
    (cmd,) = parse_script('E=()\necho "${E[@]}" x\n').commands
    assert cmd.argv == ["echo", "x"]


def test_a_scalar_assigned_an_array_joins_its_elements():
    (cmd,) = parse_script('A=(a.b=1 c.d=2)\nS="${A[@]}"\necho ${S}\n').commands
    assert cmd.argv == ["echo", "a.b=1", "c.d=2"]


def test_a_function_sees_the_arguments_of_its_call():
    text = 'run() {\n  python3 -m verl.trainer.main_ppo "$@"\n}\nrun a.b=1 c.d=2\n'
    (cmd,) = [c for c in parse_script(text).commands if c.module == "verl.trainer.main_ppo"]
    assert cmd.argv[cmd.args_start :] == ["a.b=1", "c.d=2"]
    assert [w.line for w in cmd.module_words] == [4, 4]


def test_a_function_never_called_is_still_read_with_unknown_arguments():
    (cmd,) = [c for c in parse_script('f() { python3 -m verl.trainer.main_ppo a.b=1 "$@"; }\n').commands]
    assert cmd.argv[cmd.args_start :] == ["a.b=1", "$@"]
    assert cmd.module_words[1].has_var


def test_a_condition_that_cannot_be_known_follows_the_first_branch_and_says_so():
    text = "if [ -f /etc/x ]; then M=a.b=1; else M=a.b=2; fi\necho $M\n"
    script = parse_script(text)
    assert script.commands[-1].argv == ["echo", "a.b=1"]
    assert any("first branch" in msg for _ln, msg in script.notes)


def test_case_on_a_known_value_takes_the_matching_branch():
    text = "B=${B:-megatron}\ncase $B in\n  fsdp) X=f ;;\n  megatron) X=m ;;\nesac\necho $X\n"
    assert parse_script(text).commands[-1].argv == ["echo", "m"]


def test_here_document_bodies_are_not_commands():
    script = parse_script((DATA / "function_heredoc_tee.sh").read_text())
    assert not any(c.argv[0] == "trainer:" for c in script.commands)


def test_arithmetic_with_triple_parentheses_is_read_and_keeps_columns():
    text = "a=2\nb=3\npython3 -m verl.trainer.main_ppo x.y=$(((a + b) * 2)) z.w=1\n"
    script = parse_script(text)
    (cmd,) = script.commands
    assert cmd.argv[cmd.args_start :] == ["x.y=10", "z.w=1"]
    assert cmd.module_words[1].col == text.splitlines()[2].index("z.w") + 1
    assert not script.unread


def test_unknown_arguments_are_noted_with_the_reason(facts):
    report = report_of(facts, "unknown_parts.sh")
    text = " ".join(report.notes)
    assert "`EXTRA_ARGS` is not set in the script" in text
    assert "the output of a command" in text
    assert "trainer.experiment_name" in text  # its key was checked, its value ($STAMP) not


def test_the_reader_never_raises_on_broken_shell():
    for text in ['echo "unterminated', "cat <<EOF\nno end", "f() {", "$(((", "${x:-${y", "\x00\x01", "if then fi"]:
        script = parse_script(text)
        assert isinstance(script.commands, list)


def test_a_wrong_backend_name_reports_every_line_that_must_change(facts):
    path = DATA / "hccl_with_kwargs.sh"
    report = diagnose(path, facts)
    got = found(report)
    assert ("engine/unknown-backend", line_of(path, "backend=hccl")) in got
    # kwargs under engine_kwargs.hccl are ignored once the backend is corrected: each line is named
    assert ("engine/kwargs-ignored", line_of(path, "hccl.rebuild_group")) in got
    assert ("engine/kwargs-ignored", line_of(path, "hccl.multi_sender")) in got
    # and what the corrected engine (HCCL, `nccl` on NPU) says of them
    assert ("engine/unknown-kwarg", line_of(path, "hccl.multi_sender")) in got
    assert len(got) == 4, got
    fixes = {d.finding.rule: d.fix for d in report.findings}
    assert "backend=nccl" in fixes["engine/unknown-backend"]
    assert "rename the key as the message says" in fixes["engine/kwargs-ignored"]


def test_device_rules_wait_for_a_known_or_guessed_device(facts):
    path = DATA / "kwarg_device_unknown.sh"
    assert found(diagnose(path, facts)) == []
    on_npu = found(diagnose(path, facts, device="npu"))
    assert on_npu == [("engine/unknown-kwarg", line_of(path, "multi_sender"))]


def test_keys_under_a_group_option_from_outside_the_tree_are_not_judged_missing(facts):
    report = diagnose(DATA / "group_outside_tree.sh", facts)
    assert found(report) == []
    assert any("`actor@actor_rollout_ref.actor=plugin_actor` chooses a config" in n for n in report.notes)


def test_a_key_typo_without_such_a_group_choice_is_still_reported(facts, tmp_path):
    p = tmp_path / "run.sh"
    p.write_text(
        (DATA / "group_outside_tree.sh").read_text().replace("actor@actor_rollout_ref.actor=plugin_actor \\\n", "")
    )
    assert [r for r, _ln in found(diagnose(p, facts))] == ["config/unknown-key"]
