"""Compositions prefetched by a forked child are the compositions this process makes; each is taken as soon as the
child sends it; a child that fails, or cannot be forked, leaves the rest to this process; a child not needed is
ended."""

from __future__ import annotations

import os

import pytest

from verl_cookbook import forking
from verl_cookbook.facts import compose

CONFIGS = ("ppo_trainer", "ppo_megatron_trainer")


@pytest.fixture
def traced(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Forking allowed (a served site of an earlier test may leave threads), nothing composed yet, and the names
    Hydra composes in this process (not in a child) listed."""
    monkeypatch.setattr(forking.threading, "active_count", lambda: 1)
    monkeypatch.delenv(forking.JOBS_ENV, raising=False)
    monkeypatch.setattr(compose, "_MEMO", {})
    monkeypatch.setattr(compose, "_PREFETCHING", {})
    monkeypatch.setattr(compose, "_LATER", {})
    here, real, calls = os.getpid(), compose._compose, []

    def traced_compose(tree, config_dir, name, choices):
        if os.getpid() == here:
            calls.append(name)
        return real(tree, config_dir, name, choices)

    monkeypatch.setattr(compose, "_compose", traced_compose)
    return calls


def _requests(facts) -> list[tuple]:
    return [(facts.config_dir(name), name) for name in CONFIGS]


def test_prefetched_compositions_are_the_ones_composed_here(facts, traced: list[str]) -> None:
    compose.prefetch(facts.tree, _requests(facts), None)
    assert len(compose._PREFETCHING) == 2
    got = [compose.compose(facts.tree, folder, name, (), None) for folder, name in _requests(facts)]
    assert traced == []  # both came from the child
    assert not compose._PREFETCHING
    compose._MEMO.clear()
    assert got == [compose.compose(facts.tree, folder, name, (), None) for folder, name in _requests(facts)]
    assert traced == list(CONFIGS)
    assert "actor_rollout_ref" in got[0]["config"] and "actor_rollout_ref" in got[1]["config"]


def test_a_child_that_fails_halfway_leaves_the_rest_here(facts, traced: list[str], monkeypatch) -> None:
    here, inner = os.getpid(), compose._compose

    def megatron_fails_in_child(tree, config_dir, name, choices):
        if os.getpid() != here and name == "ppo_megatron_trainer":
            raise RuntimeError("only in the child")
        return inner(tree, config_dir, name, choices)

    monkeypatch.setattr(compose, "_compose", megatron_fails_in_child)
    compose.prefetch(facts.tree, _requests(facts), None)
    first, second = (compose.compose(facts.tree, folder, name, (), None) for folder, name in _requests(facts))
    assert traced == ["ppo_megatron_trainer"]  # the first came from the child, the second was composed here
    assert "config" in first and "config" in second


def test_no_child_is_forked_with_one_job(facts, traced: list[str], monkeypatch) -> None:
    monkeypatch.setenv(forking.JOBS_ENV, "1")
    compose.prefetch(facts.tree, _requests(facts), None)
    assert compose._PREFETCHING == {}
    compose.compose(facts.tree, facts.config_dir("ppo_trainer"), "ppo_trainer", (), None)
    assert traced == ["ppo_trainer"]


def test_what_is_composed_already_is_not_prefetched(facts, traced: list[str]) -> None:
    folder = facts.config_dir("ppo_trainer")
    compose.compose(facts.tree, folder, "ppo_trainer", (), None)
    compose.prefetch(facts.tree, [(folder, "ppo_trainer")], None)
    assert compose._PREFETCHING == {}


def test_a_child_whose_work_is_not_asked_for_is_ended(facts, traced: list[str]) -> None:
    compose.prefetch(facts.tree, _requests(facts), None)
    (child,) = set(compose._PREFETCHING.values())
    compose.stop_prefetching()
    assert compose._PREFETCHING == {}
    with pytest.raises(ChildProcessError):
        os.waitpid(child.pid, os.WNOHANG)  # already reaped


def test_a_child_whose_work_is_all_taken_is_reaped(facts, traced: list[str]) -> None:
    compose.prefetch(facts.tree, _requests(facts), None)
    (child,) = set(compose._PREFETCHING.values())
    for folder, name in _requests(facts):
        compose.compose(facts.tree, folder, name, (), None)
    with pytest.raises(ChildProcessError):
        os.waitpid(child.pid, os.WNOHANG)  # no zombie left behind


def test_a_child_that_goes_on_sends_the_rest_once_its_compositions_are_taken(facts, traced: list[str]) -> None:
    child = compose.prefetch(facts.tree, _requests(facts), None, then=lambda: iter(["a", "b"]))
    assert child is not None
    for folder, name in _requests(facts):
        compose.compose(facts.tree, folder, name, (), None)
    assert traced == []  # both from the child, which was not ended when its compositions were all taken
    assert list(compose.rest(child, None)) == ["a", "b"]
    with pytest.raises(ChildProcessError):
        os.waitpid(child.pid, os.WNOHANG)


def test_the_rest_remembers_the_compositions_nobody_asked_for(facts, traced: list[str]) -> None:
    child = compose.prefetch(facts.tree, _requests(facts), None, then=lambda: iter(["a"]))
    assert child is not None
    assert list(compose.rest(child, None)) == ["a"]
    for folder, name in _requests(facts):
        assert "config" in compose.compose(facts.tree, folder, name, (), None)
    assert traced == []


def test_a_reader_that_stops_early_ends_the_child(facts, traced: list[str]) -> None:
    child = compose.prefetch(facts.tree, _requests(facts)[:1], None, then=lambda: iter(range(10**6)))
    assert child is not None
    values = compose.rest(child, None)
    assert next(values) == 0
    values.close()
    with pytest.raises(ChildProcessError):
        os.waitpid(child.pid, os.WNOHANG)


def test_what_the_child_does_next_finds_its_compositions_composed(facts, traced: list[str]) -> None:
    child = compose.prefetch(facts.tree, _requests(facts), None, then=lambda: iter([len(compose._MEMO)]))
    assert child is not None
    assert list(compose.rest(child, None)) == [len(CONFIGS)]  # its page checks do not compose them again
