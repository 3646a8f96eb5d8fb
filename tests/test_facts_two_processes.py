"""Facts extracted in two processes (some families in a forked child) are the facts one process extracts; a child
that fails or cannot be started leaves the work, and any error, to the parent."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

import verl_cookbook.facts as facts_mod
from verl_cookbook import forking
from verl_cookbook.facts import SECOND_PROCESS, extract_all


def _families_from(fns: dict):
    """A stand-in for ``facts.families`` that hands out ``fns`` (every family, or those asked for)."""
    return lambda names=None: {name: fn for name, fn in fns.items() if names is None or name in set(names)}


def test_two_processes_give_the_facts_one_process_gives(verl_tree, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, int]] = []
    real = facts_mod.families()
    here = os.getpid()

    def traced(name):
        def fn(tree):
            if os.getpid() == here:
                calls.append((name, here))
            return real[name](tree)

        return fn

    monkeypatch.setattr(facts_mod, "families", _families_from({name: traced(name) for name in real}))
    # threads an earlier test of the session left running (a served site) would rightly stop the fork
    monkeypatch.setattr(forking.threading, "active_count", lambda: 1)
    two = extract_all(verl_tree)
    in_parent = {name for name, _ in calls}
    assert in_parent == set(real) - set(SECOND_PROCESS)  # the child's share was not done here
    monkeypatch.setenv("VERL_COOKBOOK_JOBS", "1")
    calls.clear()
    one = extract_all(verl_tree)
    assert {name for name, _ in calls} == set(real)
    assert list(two) == list(one)  # same families, same order
    assert two == one


def test_a_family_failing_in_the_child_is_extracted_again_here(
    verl_tree, monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    real = facts_mod.families()
    here = os.getpid()
    ran_in_child = tmp_path / "ran-in-child"

    def engines_fails_in_child(tree):
        if os.getpid() != here:
            ran_in_child.touch()
            raise RuntimeError("only in the child")
        return real["engines"](tree)

    monkeypatch.setattr(facts_mod, "families", _families_from({**real, "engines": engines_fails_in_child}))
    monkeypatch.setattr(forking.threading, "active_count", lambda: 1)
    assert extract_all(verl_tree)["engines"] == real["engines"](verl_tree)
    assert ran_in_child.exists()  # the child did run, and failed


def test_an_error_in_a_family_surfaces_in_the_parent(verl_tree, monkeypatch: pytest.MonkeyPatch) -> None:
    real = facts_mod.families()

    def broken(tree):
        raise ValueError("broken extractor")

    monkeypatch.setattr(facts_mod, "families", _families_from({**real, "dataclasses": broken}))
    with pytest.raises(ValueError, match="broken extractor"):
        extract_all(verl_tree)


def test_no_fork_while_other_threads_run(verl_tree, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork():
        raise AssertionError("forked with another thread running")

    monkeypatch.setattr(os, "fork", no_fork)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        data = extract_all(verl_tree)
    finally:
        stop.set()
        other.join()
    assert set(SECOND_PROCESS) <= set(data)


def test_a_fact_extracting_process_imports_no_family_library_before_it_forks() -> None:
    # what load_facts needs up to the fork; yaml (the config families) and the release download's modules
    # are imported after it, by the process that needs them, so the two processes import in parallel
    code = (
        "import sys; before = set(sys.modules); import verl_cookbook.facts, verl_cookbook.verl_source;"
        " print(' '.join(sorted(set(sys.modules) - before)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert "verl_cookbook.facts" in out  # the probe did import it
    heavy = {"yaml", "dataclasses", "subprocess", "tempfile", "zipfile", "importlib.resources"}
    heavy |= {f"verl_cookbook.facts.{m}" for m in facts_mod.FAMILY_MODULES.values()}
    assert heavy.isdisjoint(out), sorted(heavy.intersection(out))


@pytest.mark.parametrize("cached_before", [False, True])
def test_with_nothing_cached_the_key_is_computed_once_the_child_runs(
    verl_tree, monkeypatch: pytest.MonkeyPatch, tmp_path, cached_before: bool
) -> None:
    monkeypatch.setenv("VERL_COOKBOOK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(forking.threading, "active_count", lambda: 1)
    if cached_before:  # some other tree's facts are cached: this tree's key is looked up first
        (tmp_path / "cache" / "facts").mkdir(parents=True)
    started: list[bool] = []
    real_start, real_key = forking.start, facts_mod.facts_key

    def start(produce):
        child = real_start(produce)
        started.append(child is not None)
        return child

    forks_at_key: list[int] = []  # how many children had been forked when the key was computed
    monkeypatch.setattr(forking, "start", start)
    monkeypatch.setattr(facts_mod, "facts_key", lambda tree: forks_at_key.append(len(started)) or real_key(tree))
    facts = facts_mod.load_facts(verl_tree)
    assert started == [True]
    assert forks_at_key == ([0] if cached_before else [1])
    assert facts.key == real_key(verl_tree)
    assert (tmp_path / "cache" / "facts" / f"{facts.key}.json").is_file()  # cached under the same key either way
    forks_at_key.clear()
    again = facts_mod.load_facts(verl_tree)  # now a cache hit: the key first, no child, the same key
    assert again.key == facts.key and started == [True] and forks_at_key == [1]
