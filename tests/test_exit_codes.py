"""One exit-code contract for every command (0 no findings, 1 findings, 2 usage or environment error, 3 internal
error), stated in each command's --help and on the tools pages, and kept when the reader of the output goes away."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from verl_cookbook.cli import EXIT_ERROR, EXIT_FINDINGS, EXIT_INTERNAL, EXIT_OK, build_parser, main
from verl_cookbook.verl_source import VerlTree

REPO = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
COMMANDS = sorted(build_parser()._subparsers._group_actions[0].choices)  # every subcommand, doctor included
GOOD_PAGE = '# ok\n\n``` { .yaml check="config" }\nactor_rollout_ref:\n  rollout:\n    name: vllm\n```\n'
BAD_PAGE = '# bad\n\n``` { .yaml check="config" }\nactor_rollout_ref:\n  rollout:\n    nmae: vllm\n```\n'
GOOD_SCRIPT = (  # a whole command: doctor also judges the values verl 0.9.1 requires at startup
    "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm"
    " actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=8"
    " actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=8\n"
)
BAD_SCRIPT = "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.nmae=vllm\n"


def _help(command: str, capsys) -> str:
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    return capsys.readouterr().out


def test_the_contract_is_0_1_2_3() -> None:
    assert (EXIT_OK, EXIT_FINDINGS, EXIT_ERROR, EXIT_INTERNAL) == (0, 1, 2, 3)


def test_every_command_is_covered_here() -> None:
    assert set(COMMANDS) == {"check", "facts", "doctor", "coverage", "stack", "cache"}


@pytest.mark.parametrize("command", COMMANDS)
def test_every_commands_help_lists_the_four_exit_codes(command: str, capsys) -> None:
    out = _help(command, capsys)
    block = out[out.index("exit codes") :]
    assert re.search(r"^\s*0\s+no findings", block, re.M)
    assert re.search(r"^\s*1\s+findings", block, re.M)
    assert re.search(r"^\s*2\s+usage or environment error", block, re.M)
    assert re.search(r"^\s*3\s+internal error", block, re.M)
    assert "VERL_COOKBOOK_DEBUG=1" in " ".join(block.split())


@pytest.mark.parametrize("command", ["check", "doctor"])
def test_check_and_doctor_help_say_info_notes_alone_exit_0(command: str, capsys) -> None:
    """review18b #3: the checker page's table says 0 = no findings or only info notes; --help says the same."""
    block = " ".join(_help(command, capsys).split("exit codes", 1)[1].split())
    assert "0 no findings, or only info notes" in block and "1 findings: at least one error or warning" in block


@pytest.mark.parametrize("command", ["check", "doctor"])
def test_a_missing_path_is_named_in_help_as_exit_2(command: str, capsys) -> None:
    out = _help(command, capsys)
    two = out[out.index("  2  ") :]
    assert "does not exist" in " ".join(two.split())


@pytest.mark.parametrize(
    ("argv", "files", "code"),
    [
        (["check", "{d}/page.md"], {"page.md": GOOD_PAGE}, 0),
        (["check", "{d}/page.md"], {"page.md": BAD_PAGE}, 1),
        (["check", "{d}/missing.md"], {}, 2),
        (["check", "{d}/page.md", "{d}/missing.md"], {"page.md": BAD_PAGE}, 2),
        (["check", "{d}/page.md", "--format", "yaml"], {"page.md": GOOD_PAGE}, 2),
        (["doctor", "{d}/run.sh"], {"run.sh": GOOD_SCRIPT}, 0),
        (["doctor", "{d}/run.sh"], {"run.sh": BAD_SCRIPT}, 1),
        (["doctor", "{d}/missing.sh"], {}, 2),
        (["doctor", "{d}/run.sh", "--device", "tpu"], {"run.sh": GOOD_SCRIPT}, 2),
        (["facts", "--format", "json"], {}, 0),
        (["facts", "--verl-src", "{d}/nowhere"], {}, 2),
        (["facts", "--bogus"], {}, 2),
        (["coverage", "{d}/page.md"], {"page.md": GOOD_PAGE}, 0),
        (["coverage", "{d}/page.md", "--fail-under", "100"], {"page.md": "# p\n\nThe default is `2`.\n"}, 1),
        (["coverage", "{d}/missing.md"], {}, 2),
        (["coverage", "--fail-under", "x"], {}, 2),
        (["cache", "info"], {}, 0),
        (["cache"], {}, 2),
        (["cache", "clean", "--bogus"], {}, 2),
        ([], {}, 2),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else None,
)
def test_each_command_keeps_the_contract(
    tmp_path: Path, capsys, verl_tree: VerlTree, argv: list[str], files: dict, code: int
) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n")
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    argv = [a.format(d=tmp_path) for a in argv]
    try:
        got = main(argv)
    except SystemExit as e:  # argparse's usage errors
        got = e.code
    err = capsys.readouterr().err
    assert got == code, err
    assert "Traceback" not in err and "internal error" not in err


def test_a_missing_path_is_reported_before_verl_is_fetched(tmp_path: Path, capsys, monkeypatch) -> None:
    import verl_cookbook.cli as cli

    monkeypatch.setattr(cli, "_facts", lambda args: pytest.fail("verl must not be resolved for a missing path"))
    assert main(["check", str(tmp_path / "gone.md")]) == 2
    assert "gone.md: no such file or folder" in capsys.readouterr().err


@pytest.mark.parametrize("page", ["checker.md", "checker.en.md"])
def test_the_checker_page_table_states_the_contract(page: str) -> None:
    text = (REPO / "docs" / "tools" / page).read_text(encoding="utf-8")
    section = text[text.index("{ #exit-codes }") :]
    rows = dict(re.findall(r"^\| `([0-9])` \| (.+?) \|$", section, re.M))
    assert sorted(rows) == ["0", "1", "2", "3"]
    assert ("missing path" in rows["2"]) or ("路径不存在" in rows["2"])
    assert "VERL_COOKBOOK_DEBUG=1" in rows["3"]


@pytest.mark.parametrize("page", ["doctor.md", "doctor.en.md", "verl-ci.md", "verl-ci.en.md"])
def test_the_tools_pages_give_2_for_usage_or_environment_errors(page: str) -> None:
    text = " ".join((REPO / "docs" / "tools" / page).read_text(encoding="utf-8").split())
    assert re.search(r"(usage or environment error|用法错误或环境问题)", text)
    assert "exits 1" in text or "`1`" in text or "退出码为 1" in text


def _boom(args) -> int:
    raise KeyError("a bug planted by the test")


def test_an_unexpected_exception_is_exit_3_in_one_line_naming_the_debug_switch_and_where_to_report(
    monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    import verl_cookbook.cli as cli

    monkeypatch.delenv("VERL_COOKBOOK_DEBUG", raising=False)
    monkeypatch.setattr(cli, "cmd_facts", _boom)
    assert main(["facts"]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("verl-cookbook: internal error")
    assert "KeyError" in err and "a bug planted by the test" in err
    assert "VERL_COOKBOOK_DEBUG=1" in err
    assert cli.REPORT_URL in err


def test_the_debug_switch_prints_the_traceback_of_an_internal_error(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    import verl_cookbook.cli as cli

    monkeypatch.setenv("VERL_COOKBOOK_DEBUG", "1")
    monkeypatch.setattr(cli, "cmd_facts", _boom)
    assert main(["facts"]) == 3
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err
    assert "in _boom" in err  # the frame that raised
    assert err.rstrip().splitlines()[-1].startswith("verl-cookbook: internal error")


def test_a_usage_error_is_not_an_internal_error(tmp_path: Path, capsys) -> None:
    assert main(["check", str(tmp_path / "gone.md")]) == 2
    assert "internal error" not in capsys.readouterr().err


def _page_with_many_findings(site: Path, n: int) -> Path:
    (site / "mkdocs.yml").write_text("site_name: t\n")
    blocks = [
        f'``` {{ .yaml check="config" }}\nactor_rollout_ref:\n  rollout:\n    nmae{i}: vllm\n```\n' for i in range(n)
    ]
    page = site / "bad.md"
    page.write_text("# bad\n\n" + "\n".join(blocks))
    return page


def _pipe(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``command`` in bash with pipefail (the way CI scripts run), this interpreter's verl-cookbook first on PATH,
    standard output buffered as users have it."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return subprocess.run(
        ["bash", "-c", f"set -o pipefail; {command}"], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )


def test_findings_keep_exit_1_when_the_reader_closes_the_pipe_early(tmp_path: Path, verl_tree: VerlTree) -> None:
    _page_with_many_findings(tmp_path, 300)  # far more output than a pipe's buffer and Python's
    whole = _pipe("python -m verl_cookbook check bad.md | wc -c", tmp_path)
    assert whole.returncode == 1, whole.stderr
    assert int(whole.stdout) > 100_000
    cut = _pipe("python -m verl_cookbook check bad.md | head -c 100", tmp_path)
    assert len(cut.stdout) == 100
    assert cut.returncode == 1, cut.stderr
    assert "Traceback" not in cut.stderr and "Broken pipe" not in cut.stderr and "internal error" not in cut.stderr
    assert "300 findings" in cut.stderr  # the command ran to its end: the summary is written


def test_a_clean_run_keeps_exit_0_when_the_reader_closes_the_pipe_early(tmp_path: Path) -> None:
    out = _pipe("python -m verl_cookbook facts --format json | head -c 10", tmp_path)
    assert len(out.stdout) == 10
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""


def _break(tree: VerlTree, rel: str, after: str) -> int:
    """Put a line Python cannot parse into ``rel`` of ``tree``, in the body that begins on the first line holding
    ``after`` (a part of the file the facts read); its line number."""
    path = tree.root / rel
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines, 1) if after in line)
    path.write_text("".join([*lines[:at], "    broken = (]\n", *lines[at:]]), encoding="utf-8")
    return at + 1


@pytest.mark.parametrize("command", ["facts", "check"])
def test_a_verl_tree_with_a_file_python_cannot_parse_is_exit_2_naming_the_file_and_line(
    verl_copy: VerlTree, tmp_path: Path, capsys, command: str
) -> None:
    line = _break(verl_copy, "verl/checkpoint_engine/base.py", "class CheckpointEngineRegistry")
    page = tmp_path / "page.md"
    page.write_text(GOOD_PAGE, encoding="utf-8")
    argv = [command, "--verl-src", str(verl_copy.root)] + ([str(page)] if command == "check" else [])
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"{verl_copy.root / 'verl/checkpoint_engine/base.py'}:{line}:" in err
    assert "Python cannot parse" in err and "internal error" not in err


def test_doctor_on_a_tree_whose_entry_point_does_not_parse_says_so_and_exits_2(
    verl_copy: VerlTree, tmp_path: Path, capsys
) -> None:
    line = _break(verl_copy, "verl/trainer/main_ppo.py", "def main(")
    script = tmp_path / "run.sh"
    script.write_text(GOOD_SCRIPT, encoding="utf-8")
    assert main(["doctor", str(script), "--verl-src", str(verl_copy.root)]) == 2
    err = capsys.readouterr().err
    assert f"verl/trainer/main_ppo.py:{line}:" in err and "entry points" in err
    assert "no verl trainer command" not in err


def test_a_tree_whose_files_all_parse_is_not_refused(verl_copy: VerlTree, capsys) -> None:
    assert main(["facts", "--verl-src", str(verl_copy.root), "--format", "json"]) == 0
    assert "Python cannot parse" not in capsys.readouterr().err


def _with_stderr(kind: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``verl-cookbook ARGS`` with standard error closed from the start (``2>&-``) or a pipe whose reader has gone."""
    cmd = [sys.executable, "-m", "verl_cookbook", *args]
    if kind == "closed":
        return subprocess.run(cmd, capture_output=False, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True, check=False, preexec_fn=lambda: os.close(2))  # fmt: skip
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=write, text=True, check=False)
    finally:
        os.close(write)


@pytest.mark.parametrize("kind", ["closed", "reader gone"])
@pytest.mark.parametrize(
    ("args", "code"),
    [(("check", "--bogus"), 2), (("check", "/no/such/page.md"), 2), (("doctor", "/no/such/run.sh"), 2), ((), 2)],
    ids=lambda v: " ".join(v) if isinstance(v, tuple) else None,
)
def test_standard_error_without_a_reader_keeps_the_exit_code_and_standard_output_clean(
    kind: str, args: tuple[str, ...], code: int
) -> None:
    done = _with_stderr(kind, *args)
    assert done.returncode == code
    assert done.stdout == ""  # the message meant for standard error does not land on standard output
