"""Work done in a forked child process while this one goes on (fact extraction is CPU-bound; machines have two
cores or more).

A child is forked only where that is safe and wanted: ``os.fork`` exists, no other thread runs (a fork copies only
the calling thread, so a lock another thread holds would stay held in the child), and ``VERL_COOKBOOK_JOBS`` is
not ``1``. The child runs one function, sends its result back pickled through a pipe and leaves with
``os._exit`` (the parent's exit handlers do not run twice). A child that fails gives no result: the caller then
does the work itself, so an error surfaces as it would without a child.
"""

from __future__ import annotations

import os
import pickle
import threading
from collections.abc import Callable
from typing import Any

JOBS_ENV = "VERL_COOKBOOK_JOBS"


def can_fork() -> bool:
    return hasattr(os, "fork") and threading.active_count() == 1 and os.environ.get(JOBS_ENV) != "1"


class Child:
    """A forked child computing one value: :meth:`result` waits for it."""

    def __init__(self, pid: int, fd: int) -> None:
        self.pid, self.fd = pid, fd
        self._done = False
        self._value: Any = None
        self._ok = False

    def result(self, default: Any = None) -> Any:
        """The child's value, or ``default`` if it failed. Waits for the child the first time; cached after."""
        if not self._done:
            with os.fdopen(self.fd, "rb") as pipe:
                raw = pipe.read()  # before waiting: a child blocked on a full pipe would never exit
            _, status = os.waitpid(self.pid, 0)
            self._done = True
            if os.waitstatus_to_exitcode(status) == 0 and raw:
                self._value, self._ok = pickle.loads(raw), True  # noqa: S301 - written by our own fork
        return self._value if self._ok else default


def start(fn: Callable[[], Any]) -> Child | None:
    """A child computing ``fn()``; None where forking is not safe or fails: the caller then calls ``fn`` itself."""
    if not can_fork():
        return None
    try:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
    except OSError:
        return None
    if pid == 0:  # the child: compute, send, leave without running the parent's exit handlers
        code = 1
        try:
            os.close(read_fd)
            with os.fdopen(write_fd, "wb") as out:
                value = fn()
                pickle.dump(value, out, protocol=pickle.HIGHEST_PROTOCOL)
            code = 0
        finally:
            os._exit(code)
    os.close(write_fd)
    return Child(pid, read_fd)
