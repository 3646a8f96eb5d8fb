"""The cache folder is bounded and can be inspected and emptied (``verl-cookbook cache info|clean``); the test run
has a cache of its own."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import pytest

from verl_cookbook import cache
from verl_cookbook.cli import main
from verl_cookbook.verl_source import CACHE_ENV, VerlTree, cache_dir

OK_PAGE = '# ok\n\n``` { .yaml check="config" }\nactor_rollout_ref:\n  rollout:\n    name: vllm\n```\n'


def _fill(root: Path, files: dict[str, int], age: dict[str, int] | None = None) -> None:
    """Files of the given sizes under ``root``; ``age``: seconds since each was last used (written and read)."""
    now = time.time()
    for rel, size in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(b"x" * size)
        when = now - (age or {}).get(rel, 0)
        os.utime(p, (when, when))


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(root))
    return root


def test_the_test_run_has_a_temporary_cache_not_the_developers() -> None:
    here = cache_dir().resolve()
    assert os.environ[CACHE_ENV] == str(cache_dir())
    assert here.is_relative_to(Path(tempfile.gettempdir()).resolve())
    assert not here.is_relative_to((Path.home() / ".cache").resolve())


def test_the_cached_pinned_release_is_in_the_test_runs_cache(verl_tree: VerlTree) -> None:
    assert verl_tree.root.resolve().is_relative_to(cache_dir().resolve())


def test_over_the_limit_the_least_recently_used_results_go_first_and_releases_stay(tmp_path: Path) -> None:
    sizes = {"facts/old.json": 400, "pages/older.json": 400, "compose/new.json": 400, "pages/newest.json": 400}
    ages = {"pages/older.json": 300, "facts/old.json": 200, "compose/new.json": 100, "pages/newest.json": 0}
    _fill(tmp_path, {**sizes, "releases/0.9.1/verl/big.py": 5000}, ages)
    deleted = cache.prune(tmp_path, limit=1000)  # 1,600 bytes derived: down to 750
    assert deleted == 3
    assert [p for p in sizes if (tmp_path / p).exists()] == ["pages/newest.json"]
    assert (tmp_path / "releases/0.9.1/verl/big.py").stat().st_size == 5000  # releases are not derived results


def test_a_folder_the_checker_does_not_write_is_never_evicted_from(tmp_path: Path) -> None:
    """Only the checker's own results are evicted: an environment or another tool's cache in the folder is left
    whole (half of a virtualenv deleted by age would be broken), however old its files are."""
    venv = {f"startup-env/0.9.1/lib/m{i}.py": 400 for i in range(3)}
    _fill(tmp_path, {**venv, "jieba/jieba.cache": 400, "pages/a.json": 400}, {p: 10_000 for p in venv})
    cache.prune(tmp_path, limit=1000)  # 2,000 bytes in the cache, 400 of them the checker's own
    assert all((tmp_path / p).exists() for p in [*venv, "jieba/jieba.cache", "pages/a.json"])


def test_a_file_read_recently_counts_as_used_though_written_long_ago(tmp_path: Path) -> None:
    _fill(tmp_path, {"pages/a.json": 600, "pages/b.json": 600})
    os.utime(tmp_path / "pages/a.json", (1_900_000_000, 1_000_000_000))  # written long ago, read just now
    os.utime(tmp_path / "pages/b.json", (1_800_000_000, 1_800_000_000))
    assert cache.prune(tmp_path, limit=1000) == 1
    assert (tmp_path / "pages/a.json").exists() and not (tmp_path / "pages/b.json").exists()


def test_under_the_limit_nothing_is_deleted(tmp_path: Path) -> None:
    _fill(tmp_path, {"facts/a.json": 300, "pages/b.json": 300, "releases/0.9.1/x.py": 10_000})
    assert cache.prune(tmp_path, limit=1000) == 0
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file() and p.name != cache.STAMP) == [
        "a.json",
        "b.json",
        "x.py",
    ]


def test_an_unchanged_cache_is_not_walked_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fill(tmp_path, {"facts/a.json": 300})
    cache.prune(tmp_path, limit=1000)
    monkeypatch.setattr(cache, "_files", lambda folder: pytest.fail("walked a cache nothing was written to"))
    assert cache.prune(tmp_path, limit=1) == 0


def test_a_result_written_since_the_last_check_makes_the_next_one_walk(tmp_path: Path) -> None:
    _fill(tmp_path, {"facts/a.json": 300})
    cache.prune(tmp_path, limit=1000)
    stamp = (tmp_path / cache.STAMP).stat().st_mtime_ns
    os.utime(tmp_path / cache.STAMP, ns=(stamp - 10**9, stamp - 10**9))  # the check was a second before the write
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "b.json").write_bytes(b"x" * 900)
    assert cache.prune(tmp_path, limit=1000) >= 1


def test_every_command_bounds_the_cache_it_wrote_to(
    own_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, verl_tree: VerlTree, capsys
) -> None:
    (own_cache / "releases").mkdir(parents=True)
    (own_cache / "releases" / verl_tree.label).symlink_to(verl_tree.root)
    _fill(
        own_cache,
        {f"pages/stale-{i}.json": 100_000 for i in range(30)},
        {f"pages/stale-{i}.json": 10**8 for i in range(30)},
    )
    monkeypatch.setattr(cache, "LIMIT_BYTES", 1_000_000)
    page = tmp_path / "page.md"
    page.write_text(OK_PAGE, encoding="utf-8")
    assert main(["check", str(page)]) == 0
    derived = [p for p in own_cache.rglob("*") if p.is_file() and "releases" not in p.parts and p.name != cache.STAMP]
    assert sum(p.stat().st_size for p in derived) <= 750_000
    # what this run wrote (its page result, its composition; facts of a covered release ship with the package) is
    # the most recently used, so it is what the bound keeps
    assert [p for p in derived if not p.name.startswith("stale-")]


def test_cache_info_says_where_the_cache_is_and_what_each_folder_holds(own_cache: Path, capsys) -> None:
    _fill(
        own_cache,
        {"facts/a.json": 1500, "facts/b.json": 1500, "releases/0.9.1/verl/x.py": 2_000_000, "jieba/dict.cache": 9000},
    )  # the site build's: listed, but not under the limit (review10b C1)
    assert main(["cache", "info"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == str(own_cache)
    assert "facts/" in out and "2 files" in out and "3.0 kB" in out
    assert "releases/" in out and "2.0 MB" in out
    assert f"derived results 3.0 kB of a {cache.human(cache.LIMIT_BYTES)} limit" in out and "jieba/" in out


def test_cache_info_before_any_run_says_the_folder_is_not_created_yet(own_cache: Path, capsys) -> None:
    assert main(["cache", "info"]) == 0
    assert capsys.readouterr().out.startswith(f"{own_cache} (not created yet)")
    assert not own_cache.exists()


def test_cache_clean_removes_the_derived_results_and_keeps_the_releases(own_cache: Path, capsys) -> None:
    _fill(own_cache, {"facts/a.json": 10, "compose/b.json": 10, "pages/c.json": 10, "releases/0.9.1/verl/x.py": 10})
    assert main(["cache", "clean"]) == 0
    assert sorted(p.name for p in own_cache.iterdir()) == ["releases"]
    assert "removed 3 files" in capsys.readouterr().out


def test_cache_clean_all_removes_the_releases_too(own_cache: Path, capsys) -> None:
    _fill(own_cache, {"facts/a.json": 10, "releases/0.9.1/verl/x.py": 10})
    assert main(["cache", "clean", "--all"]) == 0
    assert list(own_cache.iterdir()) == []


def test_a_cache_that_cannot_be_emptied_is_exit_2_with_the_reason(
    own_cache: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    _fill(own_cache, {"facts/a.json": 10})

    def refuse(root, releases=False):
        raise PermissionError(13, "Permission denied", str(own_cache / "facts" / "a.json"))

    monkeypatch.setattr(cache, "clean", refuse)
    assert main(["cache", "clean"]) == 2
    err = capsys.readouterr().err
    assert f"cannot empty the cache {own_cache}" in err and "Permission denied" in err


@pytest.mark.parametrize(("size", "shown"), [(0, "0 B"), (999, "999 B"), (1000, "1.0 kB"), (21_000_000, "21.0 MB")])
def test_sizes_are_shown_in_si_units(size: int, shown: str) -> None:
    assert cache.human(size) == shown


@pytest.mark.parametrize("page", ["checker.md", "checker.en.md"])
def test_the_checker_page_states_the_limit_and_the_cache_command(page: str) -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "tools" / page).read_text(encoding="utf-8")
    section = text[text.index("{ #cache }") :]
    assert f"{cache.LIMIT_BYTES // 1_000_000} MB" in section
    assert "verl-cookbook cache info" in section and "cache clean --all" in section
