"""Work done in a forked child process while this one goes on (fact extraction and Hydra's compositions are
CPU-bound; machines have two cores or more).

A child is forked only where that is safe and wanted: ``os.fork`` exists, no other thread runs (a fork copies only
the calling thread, so a lock another thread holds would stay held in the child), and ``VERL_COOKBOOK_JOBS`` is
not ``1``. The child produces values one by one and sends each, pickled, through a pipe as soon as it has it; it
leaves with ``os._exit`` (the parent's exit handlers do not run twice). A child that fails sends no more values:
the caller then does the rest of the work itself, so an error surfaces as it would without a child. A child started
with an inbox also takes values from the parent (work known only after the fork), through a second pipe.
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
    """A forked child producing values: :meth:`next` waits for the next one; :meth:`send` gives it one (a child
    started with an inbox); :meth:`stop` ends the child."""

    def __init__(self, pid: int, fd: int, inbox_fd: int | None = None) -> None:
        self.pid = pid
        self._pipe: Any = os.fdopen(fd, "rb")
        self._inbox: Any = os.fdopen(inbox_fd, "wb") if inbox_fd is not None else None
        self._ended = False

    def send(self, value: Any) -> bool:
        """Give the child ``value`` (its ``receive()`` returns it); False when it cannot take it (ended, no inbox)."""
        if self._ended or self._inbox is None:
            return False
        try:
            pickle.dump(value, self._inbox, protocol=pickle.HIGHEST_PROTOCOL)
            self._inbox.flush()
        except (OSError, pickle.PicklingError):  # the child has ended (a broken pipe)
            return False
        return True

    def next(self, default: Any = None) -> Any:
        """The child's next value; ``default`` once it has sent them all, or failed, or was stopped."""
        if self._ended:
            return default
        try:
            return pickle.load(self._pipe)  # noqa: S301 - written by our own fork
        except (EOFError, pickle.UnpicklingError, OSError):  # all sent, or the child died
            self.stop()
            return default

    def close_inbox(self) -> None:
        """Send nothing more: the child's ``receive()`` then returns None, and the child goes on to its end."""
        if self._inbox is not None:
            with contextlib.suppress(OSError):
                self._inbox.close()
            self._inbox = None

    def stop(self) -> None:
        """End the child (it only writes to the pipe, so it leaves nothing half done) and reap it."""
        if self._ended:
            return
        self._ended = True
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        self._pipe.close()
        self.close_inbox()
        os.waitpid(self.pid, 0)


def start(produce: Callable[..., Iterable[Any]], inbox: bool = False) -> Child | None:
    """A child sending the values ``produce()`` yields; None where forking is not safe or fails: the caller then
    does the work itself. With ``inbox``, ``produce`` is called with one argument, ``receive``: it waits for the next
    value the parent gives with :meth:`Child.send`, and returns None once the parent has stopped or ended."""
    if not can_fork():
        return None
    fds: list[int] = []
    try:
        read_fd, write_fd = os.pipe()
        fds += (read_fd, write_fd)
        in_read, in_write = os.pipe() if inbox else (None, None)
        if in_read is not None and in_write is not None:
            fds += (in_read, in_write)
        pid = os.fork()
    except OSError:
        for fd in fds:
            os.close(fd)
        return None
    if pid == 0:  # the child: produce, send, leave without running the parent's exit handlers
        code = 1
        try:
            os.close(read_fd)
            with os.fdopen(write_fd, "wb") as out:
                if in_read is None:
                    values = produce()
                else:
                    os.close(in_write)  # type: ignore[arg-type]
                    values = produce(_receiver(os.fdopen(in_read, "rb")))
                for value in values:
                    pickle.dump(value, out, protocol=pickle.HIGHEST_PROTOCOL)
                    out.flush()
            code = 0
        finally:
            os._exit(code)
    os.close(write_fd)
    if in_read is not None:
        os.close(in_read)
    return Child(pid, read_fd, in_write)


def _receiver(pipe: Any) -> Callable[[], Any]:
    def receive() -> Any:
        try:
            return pickle.load(pipe)  # noqa: S301 - written by the parent of this fork
        except (EOFError, pickle.UnpicklingError, OSError):  # the parent stopped, or ended
            return None

    return receive
