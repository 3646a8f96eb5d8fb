"""The program's exit loses nothing: the exit code is ``main``'s, every byte written to standard output and error
arrives through a pipe, and argparse's own exits behave as usual."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from verl_cookbook import cli

# Standard output buffered, as users have it (this machine sets PYTHONUNBUFFERED, which would hide a lost flush)
BUFFERED = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


def _python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, check=False, env=BUFFERED
    )


def _program(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "verl_cookbook", *args], capture_output=True, text=True, check=False, env=BUFFERED
    )


def test_the_whole_output_of_a_long_command_arrives_through_a_pipe(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["facts", "--format", "json"]) == 0
    in_process = capsys.readouterr().out
    assert len(in_process) > 100_000  # far more than one buffer of a pipe
    out = _program("facts", "--format", "json")
    assert out.returncode == 0
    assert out.stdout == in_process
    json.loads(out.stdout)


def test_the_exit_code_is_mains_and_output_written_last_still_arrives() -> None:
    code = textwrap.dedent(
        """
        import sys
        from verl_cookbook import cli
        cli.main = lambda *args, **kwargs: (print("x" * 70000), print("last words", file=sys.stderr), 1)[-1]
        cli.run()
        print("never printed")
        """
    )
    out = _python(code)
    assert out.returncode == 1
    assert out.stdout == "x" * 70000 + "\n"
    assert out.stderr == "last words\n"


def test_argparse_exits_are_unchanged() -> None:
    helped = _program("--help")
    assert helped.returncode == 0 and "usage: verl-cookbook" in helped.stdout
    wrong = _program("check", "--bogus")
    assert wrong.returncode == 2 and "unrecognized arguments: --bogus" in wrong.stderr
