"""A verl entry point's command line (read by ``shell.hydra_cli``) judged: its config-value overrides become config
assignments for ``checks.config``, and what Hydra would refuse on the command line becomes findings."""

from __future__ import annotations

from typing import Any

from verl_cookbook.checks.config.model import Assignment
from verl_cookbook.findings import Finding
from verl_cookbook.rules.config import (
    OVERRIDE_FLAG_NEEDS_VALUE,
    OVERRIDE_MALFORMED,
    OVERRIDE_UNKNOWN_FLAG,
)
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
        bare = p.text.lstrip("-") if p.text.startswith("--") and "." in p.text else None
        suggestion = _close_flag(p.text)
        case = "dashes" if bare and not suggestion else ""
        return OVERRIDE_UNKNOWN_FLAG.at(file, w.line, w.col, case=case, flag=p.text, suggestion=suggestion, bare=bare)
    if p.kind == "flag-needs-value":
        return OVERRIDE_FLAG_NEEDS_VALUE.at(file, w.line, w.col, flag=p.text)
    if p.kind == "malformed":
        return OVERRIDE_MALFORMED.at(file, w.line, w.col, override=p.text, hydra=p.error)
    raise ValueError(f"unknown command-line problem {p.kind!r}")


def _close_flag(flag: str) -> str | None:
    import difflib  # here: only a misspelt flag needs it

    close = difflib.get_close_matches(flag, [f for f in HYDRA_FLAGS if f.startswith("--")], n=1, cutoff=0.6)
    return close[0] if close else None
