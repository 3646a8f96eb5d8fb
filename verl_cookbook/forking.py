"""Work done in a forked child process while this one goes on (fact extraction and Hydra's compositions are
CPU-bound; machines have two cores or more).

A child is forked only where that is safe and wanted: ``os.fork`` exists, no other thread runs (a fork copies only
the calling thread, so a lock another thread holds would stay held in the child), and ``VERL_COOKBOOK_JOBS`` is
not ``1``. The child produces values one by one and sends each, pickled, through a pipe as soon as it has it; it
leaves with ``os._exit`` (the parent's exit handlers do not run twice). A child that fails sends no more values:
the caller then does the rest of the work itself, so an error surfaces as it would without a child.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import threading
from collections.abc import Callable, Iterable
from typing import Any

JOBS_ENV = "VERL_COOKBOOK_JOBS"


def can_fork() -> bool:
    return hasattr(os, "fork") and threading.active_count() == 1 and os.environ.get(JOBS_ENV) != "1"


class Child:
    """A forked child producing values: :meth:`next` waits for the next one; :meth:`stop` ends the child."""

    def __init__(self, pid: int, fd: int) -> None:
        self.pid = pid
        self._pipe: Any = os.fdopen(fd, "rb")
        self._ended = False

    def next(self, default: Any = None) -> Any:
        """The child's next value; ``default`` once it has sent them all, or failed, or was stopped."""
        if self._ended:
            return default
        try:
            return pickle.load(self._pipe)  # noqa: S301 - written by our own fork
        except (EOFError, pickle.UnpicklingError, OSError):  # all sent, or the child died
            self.stop()
            return default

    def stop(self) -> None:
        """End the child (it only writes to the pipe, so it leaves nothing half done) and reap it."""
        if self._ended:
            return
        self._ended = True
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        self._pipe.close()
        os.waitpid(self.pid, 0)


def start(produce: Callable[[], Iterable[Any]]) -> Child | None:
    """A child sending the values ``produce()`` yields; None where forking is not safe or fails: the caller then
    does the work itself."""
    if not can_fork():
        return None
    try:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
    except OSError:
        return None
    if pid == 0:  # the child: produce, send, leave without running the parent's exit handlers
        code = 1
        try:
            os.close(read_fd)
            with os.fdopen(write_fd, "wb") as out:
                for value in produce():
                    pickle.dump(value, out, protocol=pickle.HIGHEST_PROTOCOL)
                    out.flush()
            code = 0
        finally:
            os._exit(code)
    os.close(write_fd)
    return Child(pid, read_fd)
