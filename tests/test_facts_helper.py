"""A cold site check hands the child that extracts some of verl's facts more work (``load_facts(..., then=)``): it
composes verl's main configs while this process extracts its own families, then checks a share of the pages. The
report is the one a single process gives; nothing is composed twice; the child ends whatever happens (every page
replayed, the child failing, the command stopping early); and the channel to the child works as documented."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from helpers import empty_cache, site_report, site_with

from verl_cookbook import cli, forking, runner
from verl_cookbook.facts import compose, load_facts
from verl_cookbook.verl_source import VerlTree

REPO = Path(__file__).resolve().parent.parent
PAGES = ("docs/backends/nccl-hccl.md", "docs/backends/nccl-hccl.en.md", "docs/recipes/model-merger.md")
BAD = """# Bad

``` {.yaml check="defaults" root="actor_rollout_ref.rollout.checkpoint_engine"}
backend: hccl
no_such_key: 1
```

``` {.bash check="shell"}
python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.checkpoint_engine.backend=hccl
```
"""


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """Three of this site's pages (their snippets too) and a page with findings, with its mirror."""
    return site_with(tmp_path, PAGES, {"docs/bad.md": BAD, "docs/bad.en.md": BAD})


@pytest.fixture
def cold(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty cache (facts, compositions, pages) with the pinned release in it; forking allowed; nothing composed."""
    cache = empty_cache(tmp_path_factory.mktemp("cache"))
    monkeypatch.setenv("VERL_COOKBOOK_CACHE", str(cache))
    monkeypatch.setattr(forking.threading, "active_count", lambda: 1)
    monkeypatch.delenv(forking.JOBS_ENV, raising=False)
    monkeypatch.setattr(compose, "_MEMO", {})
    monkeypatch.setattr(compose, "_HERE", {})
    monkeypatch.setattr(compose, "_PREFETCHING", {})
    monkeypatch.setattr(compose, "_LATER", {})
    monkeypatch.setattr(compose, "_EXPECTED", {})
    return cache


def _report(site: Path, facts) -> tuple:
    return site_report(site, facts, use_cache=True)


def _composed_here(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names this process composes itself from now on (a child forked before keeps the real one)."""
    here: list[str] = []
    real = compose._compose

    def recording(tree, config_dir, name, choices):  # type: ignore[no-untyped-def]
        here.append(name)
        return real(tree, config_dir, name, choices)

    monkeypatch.setattr(compose, "_compose", recording)
    return here


def _ended(child: forking.Child) -> None:
    with pytest.raises(ChildProcessError):
        os.waitpid(child.pid, os.WNOHANG)  # ended and reaped


def test_the_facts_child_composes_then_checks_a_share_and_the_report_is_the_single_process_one(
    site: Path, verl_tree: VerlTree, cold: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    facts = load_facts(verl_tree, then=runner.helper)
    helper = facts.helper
    assert helper is not None, "the child that extracted facts went on"
    here = _composed_here(monkeypatch)
    sent: list[object] = []
    real_rest = compose.rest

    def rest(child, facts_key):  # type: ignore[no-untyped-def]
        for value in real_rest(child, facts_key):
            sent.append(value)
            yield value

    monkeypatch.setattr(compose, "rest", rest)
    monkeypatch.setattr(runner, "CHILD_SHARE", 0.5)
    forked: list[object] = []
    monkeypatch.setattr(forking, "start", lambda *a, **k: forked.append(a))
    shared = _report(site, facts)
    assert here == [] and forked == [], "the compositions came from the helper, no other child was forked"
    assert sent and all(isinstance(f, Path) for f, _part in sent), "the child checked pages"
    assert facts.helper is None
    _ended(helper)
    monkeypatch.setenv(forking.JOBS_ENV, "1")
    shutil.rmtree(cold / "pages")
    alone = _report(site, load_facts(verl_tree))
    assert shared == alone
    assert {"config/unknown-key", "engine/unknown-backend"} <= {f.rule for f in alone[0]}


def test_with_every_page_replayed_the_helper_is_ended_unused(
    site: Path, verl_tree: VerlTree, cold: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _report(site, load_facts(verl_tree, then=runner.helper))
    shutil.rmtree(cold / "facts")  # facts afresh (a helper again), every page from the page cache
    facts = load_facts(verl_tree, then=runner.helper)
    helper = facts.helper
    assert helper is not None
    again = _report(site, facts)
    assert again == first
    assert facts.helper is None
    _ended(helper)


def test_a_helper_that_fails_leaves_its_work_to_this_process(
    site: Path, verl_tree: VerlTree, cold: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fails(tree, extracted, receive):  # type: ignore[no-untyped-def]
        yield from ()
        raise RuntimeError("only in the child")

    facts = load_facts(verl_tree, then=fails)
    assert facts.helper is not None
    here = _composed_here(monkeypatch)
    shared = _report(site, facts)
    assert sorted(here) == sorted(runner.PREFETCHED_CONFIGS), "composed here instead"
    monkeypatch.setenv(forking.JOBS_ENV, "1")
    shutil.rmtree(cold / "pages")
    assert shared == _report(site, load_facts(verl_tree))


def test_the_check_command_ends_a_helper_it_did_not_use(
    verl_tree: VerlTree, cold: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    made: list[forking.Child] = []
    real_load = cli.load_facts

    def load(*args, **kwargs):  # type: ignore[no-untyped-def]
        facts = real_load(*args, **kwargs)
        if facts.helper is not None:
            made.append(facts.helper)
        return facts

    monkeypatch.setattr(cli, "load_facts", load)
    monkeypatch.chdir(tmp_path)  # no docs/ here: the command stops after the facts
    assert cli.main(["check"]) == 2
    assert "no docs/ folder" in capsys.readouterr().err
    assert made, "a helper was started"
    _ended(made[0])


def test_the_channel_to_a_child_carries_values_and_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forking.threading, "active_count", lambda: 1)
    monkeypatch.delenv(forking.JOBS_ENV, raising=False)

    def echo(receive):  # type: ignore[no-untyped-def]
        while (value := receive()) is not None:
            yield value * 2
        yield "parent stopped"

    child = forking.start(echo, inbox=True)
    assert child is not None
    assert child.send(21) and child.next() == 42
    assert child.send(["a"]) and child.next() == ["a", "a"]
    child.close_inbox()  # the parent is done: the child's receive() gives None
    assert child.next() == "parent stopped"
    assert child.next("all sent") == "all sent"
    assert not child.send(1), "an ended child takes nothing"
    _ended(child)
