"""The cyclic collector does not run while fact extraction, a Hydra composition or a CLI command runs, and afterwards it
is in the state it was in before, whether it was running or not and whether the work raised or not."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from verl_cookbook import cli, gcpause


@pytest.fixture
def collections() -> Iterator[list[int]]:
    """The generation of each collection that starts while the test runs."""
    seen: list[int] = []

    def note(phase: str, info: dict) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(note)
    try:
        yield seen
    finally:
        gc.callbacks.remove(note)


def _cycles(n: int = 20_000) -> None:
    """Allocate ``n`` reference cycles, enough to set off the collector many times when it runs."""
    for _ in range(n):
        a: list = []
        a.append(a)


def test_no_collection_runs_while_paused_and_collection_runs_again_after(collections: list[int]) -> None:
    assert gc.isenabled()
    with gcpause.paused():
        collections.clear()  # any that ran before the pause
        _cycles()
        assert not gc.isenabled()
        assert collections == []
    _cycles()
    assert collections, "the collector is running again after the pause"


def test_a_collector_that_was_off_stays_off_and_a_nested_pause_resumes_nothing() -> None:
    gc.disable()
    try:
        with gcpause.paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
    with gcpause.paused():
        with gcpause.paused():
            pass
        assert not gc.isenabled(), "the inner pause does not resume the collector inside the outer one"
    assert gc.isenabled()


def test_the_collector_is_resumed_when_the_work_raises() -> None:
    with pytest.raises(ValueError), gcpause.paused():
        raise ValueError("boom")
    assert gc.isenabled()


def test_a_cli_command_runs_with_the_collector_paused_and_leaves_it_running(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[bool] = []
    real = cli.cmd_facts

    def cmd_facts(args):
        seen.append(gc.isenabled())
        return real(args)

    monkeypatch.setattr(cli, "cmd_facts", cmd_facts)
    assert cli.main(["facts", "--format", "json"]) == 0
    capsys.readouterr()
    assert seen == [False]
    assert gc.isenabled()


def test_an_exiting_pause_freezes_what_is_alive_and_a_plain_one_does_not() -> None:
    """``exiting``: the process ends right after, so the objects of the run are frozen, not walked on resuming; a caller
    that goes on (a test, a library user) passes nothing and nothing is frozen."""
    assert gc.get_freeze_count() == 0
    with gcpause.paused():
        _cycles()
    assert gc.get_freeze_count() == 0
    try:
        with gcpause.paused(exiting=True):
            kept = [[] for _ in range(1000)]
        assert gc.get_freeze_count() >= len(kept)
        assert gc.isenabled()
    finally:
        gc.unfreeze()


def test_the_program_tells_main_it_exits_after_and_main_does_not_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []

    def paused(exiting: bool = False):
        seen.append(exiting)
        return gcpause_paused(exiting=False)  # nothing frozen inside the test process

    gcpause_paused = gcpause.paused
    monkeypatch.setattr(gcpause, "paused", paused)
    monkeypatch.setattr(cli, "cmd_facts", lambda args: 0)
    with pytest.raises(SystemExit) as e:
        monkeypatch.setattr("sys.argv", ["verl-cookbook", "facts"])
        cli.run()
    assert e.value.code == 0
    assert cli.main(["facts"]) == 0
    assert seen == [True, False]
