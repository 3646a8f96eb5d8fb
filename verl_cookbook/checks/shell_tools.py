"""``bash -n`` and ShellCheck on shell code, one process per block or, for a run, one per tool: the syntax and
ShellCheck findings of a shell block or a launch script, and the batches that start both tools once for all the
shell blocks of a run's pages (``start_batches``), whose results wait in the run's :class:`Session` until
``check_shell`` asks for them. Which code a block gives the tools (lenient blocks: their commands, placeholders
filled in; override fragment lists: none) is planned here exactly as the block check will ask.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Callable
from typing import Any

from verl_cookbook import shell_batch
from verl_cookbook.checks import Context
from verl_cookbook.checks.override_fragments import fragment_lines
from verl_cookbook.checks.shell_placeholders import lenient_commands
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import CodeBlock
from verl_cookbook.rules.scripts import SHELL_SYNTAX, SHELL_TIMEOUT, SHELLCHECK_EXCLUDE, SHELLCHECK_SC
from verl_cookbook.session import Session

TIMEOUT_S = 10


# -- syntax -----------------------------------------------------------------------------------------


def bash_syntax(code: str, where, session: Session | None = None) -> list[Finding]:
    """``bash -n`` on ``code``; ``where(code_line) -> (file, line)`` maps its error lines. ``session``: the run's,
    whose batch may hold the answer already (``start_batches``)."""
    bash = shutil.which("bash")
    if not bash:
        return []
    done = _batched(session, ("bash", bash, code))
    if done is not None:
        proc = subprocess.CompletedProcess([bash, "-n"], done[0], "", done[1])
    else:
        try:
            proc = subprocess.run([bash, "-n"], input=code, capture_output=True, text=True, timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            file, line = where(1)
            return [SHELL_TIMEOUT.at(file, line, 1, tool="bash -n", seconds=TIMEOUT_S)]
    if proc.returncode == 0:
        return []
    out = []
    last = max(1, code.count("\n") + (0 if code.endswith("\n") else 1))
    by_line: dict[int, list[str]] = {}
    for msg in proc.stderr.splitlines():
        m = re.search(r"line (\d+): (.*)", msg)
        if m:
            by_line.setdefault(min(int(m.group(1)), last), []).append(m.group(2))  # past the end: EOF errors
    for ln, msgs in by_line.items():
        # bash prints an error and then the offending line (`` `text' ``): one finding says both
        errors = [x for x in msgs if not (x.startswith("`") and x.endswith("'"))]
        quoted = [x[1:-1].strip() for x in msgs if x.startswith("`") and x.endswith("'")]
        file, line = where(ln)
        near = quoted[0] if quoted else None
        out.append(SHELL_SYNTAX.at(file, line, 1, error="; ".join(errors) or "syntax error", near=near))
    if not out:
        file, line = where(1)
        out.append(SHELL_SYNTAX.at(file, line, 1, case="raw", error=proc.stderr.strip() or "syntax error"))
    return out


def shellcheck(code: str, where, severity: str = "warning", session: Session | None = None) -> list[Finding]:
    """ShellCheck's errors and warnings (``severity="error"``: errors only), when it is installed
    (``apt-get install shellcheck``). ``session``: as for :func:`bash_syntax`."""
    exe = shutil.which("shellcheck")
    if not exe:
        return []
    comments = _batched(session, ("shellcheck", exe, severity, code))
    if comments is None:
        cmd = [exe, *_shellcheck_args(severity), "-"]
        try:
            proc = subprocess.run(cmd, input=code, capture_output=True, text=True, timeout=TIMEOUT_S)
            comments = json.loads(proc.stdout or "{}").get("comments", [])
        except subprocess.TimeoutExpired:
            file, line = where(1)
            return [SHELL_TIMEOUT.at(file, line, 1, tool="ShellCheck", seconds=TIMEOUT_S)]
        except (json.JSONDecodeError, OSError):
            return []
    out = []
    for c in comments:
        file, line = where(int(c.get("line", 1)))
        code_ = f"SC{c.get('code')}"
        rule = SHELLCHECK_SC.member(str(c.get("code")))
        case = code_ if code_ in SHELLCHECK_SC.message.cases else ""  # a code with its own 中文 statement
        out.append(
            rule.at(file, line, int(c.get("column", 1)), message=str(c.get("message", "")), code=code_, case=case)
        )
    return out


def _shellcheck_args(severity: str) -> list[str]:
    # --norc: the same comments whether ShellCheck reads a file (batched) or standard input (one by one)
    return ["-s", "bash", "-f", "json1", "-S", severity, "-e", ",".join(SHELLCHECK_EXCLUDE), "--norc"]


# ``bash -n`` and ShellCheck for the shell blocks of a run, one process per tool instead of one per block: started by
# ``start_batches``, their results kept in the run's session (``Session.shell_results``), keyed by tool, executable,
# (severity,) and code; what was started and not yet collected waits in ``Session.shell_pending``.


def _batched(session: Session | None, key: tuple) -> Any:
    if session is None:
        return None
    while session.shell_pending:  # the batch processes ran while the pages without shell blocks were checked
        session.shell_pending.pop(0)()
    return session.shell_results.get(key)


def _pend(session: Session, keys: list[tuple], result: Callable[[], list | None]) -> None:
    """Once ``result`` (a started batch) gives its list, file each item under the key of the same place."""

    def take() -> None:
        for key, res in zip(keys, result() or [], strict=False):
            session.shell_results[key] = res

    session.shell_pending.append(take)


def _planned(block: CodeBlock, ctx: Context) -> tuple[str, str] | None:
    """(code, ShellCheck severity) that ``check_shell`` will give the tools for ``block``, or None."""
    kind = block.attrs.get("check")
    if kind is None and ctx.options.get("lenient"):
        from verl_cookbook import lenient

        kind = lenient.LANG_KINDS.get(block.lang.lower())  # a guess: a block missed is checked alone
    if kind != "shell":
        return None
    if not ctx.options.get("lenient"):
        return block.code, "warning"
    code = lenient_commands(block.code)
    return None if code is None or fragment_lines(code) else (code, "error")


def start_batches(pages, ctx: Context) -> None:
    """Start ``bash -n`` and ShellCheck once for all the shell blocks of ``pages``; they run while the caller
    checks other pages, and what ``check_shell`` asks next is answered from their output (anything missed or
    failed is still checked one block at a time)."""
    session = ctx.session
    finish_batches(ctx)
    planned = {p for page in pages for b in page.blocks if (p := _planned(b, ctx))}
    codes = sorted({code for code, _ in planned})
    if len(codes) < 2:
        return
    bash = shutil.which("bash")
    if bash and (bash_result := shell_batch.start_bash(codes)):
        _pend(session, [("bash", bash, code) for code in codes], bash_result)
    exe = shutil.which("shellcheck")
    for severity in sorted({sev for _, sev in planned}) if exe else []:
        sc_codes = sorted(code for code, sev in planned if sev == severity)
        if sc_result := shell_batch.start_shellcheck(sc_codes, _shellcheck_args(severity)):
            _pend(session, [("shellcheck", exe, severity, code) for code in sc_codes], sc_result)


def finish_batches(ctx: Context) -> None:
    """Wait for what ``start_batches`` started and forget every result (the end of a run)."""
    _batched(ctx.session, ())
    ctx.session.shell_results.clear()
