"""Every program the package starts has a deadline (``verl_cookbook.processes``): at its expiry the program and the
programs it started are stopped, and the message says what did not finish and within what time."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from verl_cookbook import processes


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie waiting for its parent to reap it has stopped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def test_a_program_that_finishes_gives_its_exit_status_and_output() -> None:
    done = processes.run([sys.executable, "-c", "import sys; print(sys.stdin.read().upper()); sys.exit(3)"],
                         timeout=60, what="upper", input="abc")  # fmt: skip
    assert (done.returncode, done.stdout) == (3, "ABC\n")


def test_a_program_past_its_deadline_is_stopped_with_what_it_started_and_named_in_the_message() -> None:
    with pytest.raises(processes.Overdue) as caught:  # bash starts a sleep of its own and waits for it
        processes.run(["bash", "-c", "sleep 300 & echo $!; wait"], timeout=1, what="the sleepy snippet")
    assert str(caught.value) == "the sleepy snippet did not finish within 1 s (stopped)"
    child = int(caught.value.stdout.split()[0])
    assert _gone_soon(child)


def _gone_soon(pid: int) -> bool:
    """Whether ``pid`` has stopped within 10 s. A killed process closes its files (the pipes ``run`` waits on) before
    the kernel marks it stopped, so right after ``run`` returns it can still show as running for a moment; under load
    that moment was long enough to fail the suite once (a poll, not a timing: the kill is what is tested)."""
    for _ in range(200):
        if not _alive(pid):
            return True
        time.sleep(0.05)
    return False


def test_a_program_reads_no_input_unless_given_some() -> None:
    done = processes.run(["bash", "-c", "cat; echo read"], timeout=60, what="cat")
    assert done.stdout == "read\n"
