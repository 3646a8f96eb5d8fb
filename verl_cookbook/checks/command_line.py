"""A verl entry point's command line (read by ``shell.hydra_cli``) judged: its config-value overrides become config
assignments for ``checks.config``, and what Hydra would refuse on the command line becomes findings."""

from __future__ import annotations

from typing import Any

from verl_cookbook.checks.config.model import Assignment
from verl_cookbook.findings import Finding
from verl_cookbook.shell.hydra_cli import HYDRA_FLAGS, Problem, read_command_line
from verl_cookbook.shell.model import Command


def overrides_to_assignments(cmd: Command, file: str) -> tuple[list[Assignment], list[Finding], dict[str, Any]]:
    """Hydra overrides of ``cmd`` (its arguments after the module) as config assignments.

    Returns (assignments, findings for malformed arguments, info); ``info`` is ``hydra_cli.CommandLine.info``."""
    line = read_command_line(cmd)
    assigns = [
        Assignment(tuple(o.key.split(".")), o.value, file, o.word.line, o.word.col, op=o.op, raw=o.raw)
        for o in line.overrides
    ]
    return assigns, [_finding(p, file) for p in line.problems], line.info


def _finding(p: Problem, file: str) -> Finding:
    w = p.word
    if p.kind == "unknown-flag":
        message = (
            f"`{p.text}` is not a Hydra command-line flag, so the script exits with 'unrecognized arguments'"
            + _flag_hint(p.text)
        )
        return Finding(file, w.line, w.col, "override/unknown-flag", message)
    if p.kind == "flag-needs-value":
        return Finding(file, w.line, w.col, "override/flag-needs-value", f"`{p.text}` needs a value")
    if p.kind == "malformed":
        return Finding(file, w.line, w.col, "override/malformed", f"Hydra cannot parse `{p.text}`: {p.error}")
    raise ValueError(f"unknown command-line problem {p.kind!r}")


def _flag_hint(flag: str) -> str:
    import difflib  # here: only a misspelt flag needs it

    close = difflib.get_close_matches(flag, [f for f in HYDRA_FLAGS if f.startswith("--")], n=1, cutoff=0.6)
    if close:
        return f"; did you mean `{close[0]}`?"
    if flag.startswith("--") and "." in flag:
        return f"; Hydra overrides have no dashes: `{flag.lstrip('-')}=…`"
    return ""
