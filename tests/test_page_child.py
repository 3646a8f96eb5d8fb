"""A cold site check shares its pages with the child that composes verl's configs: the report is the one a single
process gives (findings, counters, included snippets), whether the child checks its share, fails halfway through it,
or cannot be forked; the page cache the child fills replays the same; no child is left behind."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import site_report, site_with

from verl_cookbook import forking, runner
from verl_cookbook.facts import compose

REPO = Path(__file__).resolve().parent.parent
PAGES = (
    "docs/backends/nccl-hccl.md",
    "docs/backends/nccl-hccl.en.md",
    "docs/recipes/delta-sync.en.md",
    "docs/ascend/known-issues.md",
    "docs/recipes/model-merger.md",
)
BAD = {
    "docs/bad-config.md": """# Bad config

``` {.yaml check="defaults" root="actor_rollout_ref.rollout.checkpoint_engine"}
backend: hccl
update_weights_bucket_megabytes: 512
no_such_key: 1
```
""",
    "docs/bad-shell.md": """# Bad shell

``` {.bash check="shell"}
export HCCL_BUFFSIZE=$SIZE
python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.checkpoint_engine.backend=hccl
```
""",
    "docs/bad-claim.md": """# Bad claim

The engine raises on a wrong size.
<!-- check: raises file="verl/checkpoint_engine/base.py" error="ValueError" match="not in verl" -->
""",
    "docs/unterminated.md": '# Open fence\n\n``` {.yaml check="skip" reason="x"}\nkey: 1\n',
}


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """Five of this site's pages (their snippets too) and four pages with findings of different kinds."""
    return site_with(tmp_path, PAGES, BAD)


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Nothing composed yet, forking allowed (a served site of an earlier test may leave threads); returns what the
    child sends after its compositions, as the parent receives it."""
    monkeypatch.setattr(forking.threading, "active_count", lambda: 1)
    monkeypatch.delenv(forking.JOBS_ENV, raising=False)
    monkeypatch.setattr(compose, "_MEMO", {})
    monkeypatch.setattr(compose, "_PREFETCHING", {})
    monkeypatch.setattr(compose, "_LATER", {})
    monkeypatch.setattr(runner, "CHILD_SHARE", 0.5)
    received: list[object] = []
    real = compose.rest
    real_prefetch = compose.prefetch

    def prefetch(*args, **kwargs):
        child = real_prefetch(*args, **kwargs)
        if child is not None:
            FORKED.append(child.pid)
        return child

    FORKED.clear()
    monkeypatch.setattr(compose, "prefetch", prefetch)

    def rest(child, facts_key):
        for value in real(child, facts_key):
            received.append(value)
            yield value

    monkeypatch.setattr(compose, "rest", rest)
    return received


def _check(site: Path, facts, use_cache: bool = False) -> tuple:
    return site_report(site, facts, use_cache)


def _one_by_one(site: Path, facts) -> tuple:
    """The oracle: each page parsed and checked in turn, into one report, in this process."""
    from verl_cookbook.checks import Context, load_all
    from verl_cookbook.findings import Finding
    from verl_cookbook.markdown import parse_page

    load_all()
    ctx = Context(facts=facts, root=site, options={"use_cache": False})
    report = runner.Report()
    old = Path.cwd()
    os.chdir(site)
    try:
        for f in sorted((site / "docs").rglob("*.md")):
            runner.check_page(parse_page(f, Path.cwd(), bases=[site]), ctx, report)
    finally:
        os.chdir(old)
    report.findings.sort(key=Finding.sort_key)
    return report.findings, tuple(getattr(report, k) for k in runner._COUNTERS), report.includes


def _alone(site: Path, facts, monkeypatch: pytest.MonkeyPatch) -> tuple:
    with monkeypatch.context() as m:
        m.setenv(forking.JOBS_ENV, "1")
        return _check(site, facts)


FORKED: list[int] = []  # the pids of the children the test's checks forked


def _no_child_left() -> None:
    assert FORKED
    for pid in FORKED:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # ended and reaped


def test_the_child_checks_its_share_and_the_report_is_the_single_process_one(
    site: Path, facts, fresh: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = _check(site, facts)
    assert len(fresh) >= 2, "the child checked a share of the pages"
    assert all(isinstance(f, Path) for f, _part in fresh)
    _no_child_left()
    alone = _one_by_one(site, facts)
    assert shared == alone
    assert alone[2], "the pages include snippets"
    rules = {f.rule for f in alone[0]}
    assert len(rules) >= 4, rules  # the bad pages' findings are in it, whoever checked them
    assert alone[1][0] == len(PAGES) + len(BAD)  # each page counted once


def test_a_child_that_fails_halfway_leaves_its_other_pages_to_this_process(
    site: Path, facts, fresh: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    here, real = os.getpid(), runner._each_checked

    def one_page_then_fail(files, ctx, cache, repeats=None):
        for n, item in enumerate(real(files, ctx, cache, repeats)):
            if os.getpid() != here and n == 1:
                raise RuntimeError("only in the child")
            yield item

    monkeypatch.setattr(runner, "_each_checked", one_page_then_fail)
    shared = _check(site, facts)
    assert len(fresh) == 1  # one page came from the child, the rest of its share was checked here
    _no_child_left()
    assert shared == _one_by_one(site, facts)


def test_with_one_job_no_child_is_forked_and_every_page_is_checked_here(
    site: Path, facts, fresh: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = _alone(site, facts, monkeypatch)
    assert fresh == []
    assert alone == _one_by_one(site, facts)


def test_the_page_cache_the_child_fills_replays_the_same_report(
    site: Path, facts, fresh: list, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    monkeypatch.setenv("VERL_COOKBOOK_CACHE", str(tmp_path_factory.mktemp("cache")))
    cold = _check(site, facts, use_cache=True)
    assert fresh, "the child checked some pages"
    checked = []
    monkeypatch.setattr(runner, "check_page", lambda page, ctx, report, repeats=None: checked.append(page))
    warm = _check(site, facts, use_cache=True)
    assert checked == []  # every page replayed from the cache, the child's too
    assert warm == cold


def test_the_childs_share_is_about_its_part_of_the_bytes_in_page_order(tmp_path: Path) -> None:
    files = []
    for i, size in enumerate([100, 700, 200, 300, 400, 300]):
        f = tmp_path / f"p{i}.md"
        f.write_text("x" * size)
        files.append(f)
    share = runner._child_share(files)
    assert share == sorted(share)  # in the order given
    got = sum(f.stat().st_size for f in share)
    assert 0 < got <= runner.CHILD_SHARE * 2000
    assert got >= runner.CHILD_SHARE * 2000 - 100  # within the smallest page of the target


def test_a_check_that_fails_while_the_child_sends_its_pages_leaves_no_child(
    site: Path, facts, fresh: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = compose.rest

    def breaks_after_one_page(child, facts_key):
        values = real(child, facts_key)
        yield next(values)
        raise RuntimeError("a check broke")

    monkeypatch.setattr(compose, "rest", breaks_after_one_page)
    with pytest.raises(RuntimeError):
        _check(site, facts)
    _no_child_left()
