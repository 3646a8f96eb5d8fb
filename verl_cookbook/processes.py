"""Another program run to its end or to its deadline, never longer: what the install runs and the resolver start.

:func:`run` is ``subprocess.run(..., capture_output=True, text=True, timeout=...)`` with two differences. The program
gets a session (a process group) of its own, and at the deadline the whole group is killed, not only the program:
a ``bash -e`` snippet's ``pip`` still holding the pipes would otherwise keep ``subprocess.run`` waiting after the
timeout. And the expiry is :class:`Overdue`, whose message says what did not finish and within what time, for the
caller to report as it reports the program's other failures.
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path


class Overdue(Exception):  # noqa: N818 - named for what the program is
    """A program that did not finish within its time (it was stopped, with the programs it started)."""

    def __init__(self, what: str, seconds: float, stdout: str = "", stderr: str = "") -> None:
        super().__init__(f"{what} did not finish within {seconds:g} s (stopped)")
        self.what, self.seconds, self.stdout, self.stderr = what, seconds, stdout, stderr


def run(
    cmd: Sequence[str],
    *,
    timeout: float,
    what: str,
    input: str | None = None,
    env: Mapping[str, str] | None = None,
    cwd: str | Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """``cmd`` run with its output captured as text, standard input ``input`` (else nothing); :class:`Overdue` when
    it is still running after ``timeout`` seconds. ``what`` names it in that message (``pip download torch==2.6``)."""
    proc = subprocess.Popen(
        list(cmd),
        stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(env) if env is not None else None,
        cwd=cwd,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(input, timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        out, err = proc.communicate()
        raise Overdue(what, timeout, out or "", err or "") from None
    except BaseException:  # Ctrl-C: the programs it started go too
        _kill_group(proc)
        proc.wait()
        raise
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):  # already gone
        pass
