"""The parser users get. ``pip install verl-cookbook`` installs the newest markdown-it-py (4.x); this environment
stays on 3.x, because a test tool (pytest-markdown-docs) requires it. scripts/install.sh puts the newest release
beside the environment, and here the site, the lenient corpus and the small fixture site are checked in processes
that import it first. They must report what the environment's parser reports: the same findings and the same
counts of pages, blocks, tables and claims, which is where a parser that reads a page differently shows."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import NEWEST_MARKDOWN_IT, empty_cache

from verl_cookbook.verl_source import PACKAGE_DIR

REPO = PACKAGE_DIR.parent


def _env(cache: Path, newest: bool) -> dict[str, str]:
    path = [str(NEWEST_MARKDOWN_IT)] if newest else []
    return {**os.environ, "VERL_COOKBOOK_CACHE": str(cache), "PYTHONPATH": os.pathsep.join([*path, str(REPO)])}


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return empty_cache(tmp_path / "cache")


def _check(args: list[str], cache: Path, newest: bool) -> tuple[list[str], str]:
    """(the findings, the summary line: pages, blocks, tables, claims, checked) of ``verl-cookbook check ARGS``."""
    run = subprocess.run(
        [sys.executable, "-m", "verl_cookbook", "check", *args],
        cwd=REPO,
        env=_env(cache, newest),
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode in (0, 1), run.stderr
    *findings, summary = (run.stdout + run.stderr).strip().splitlines()
    return findings, summary


def test_the_check_processes_import_the_newest_copy_a_4_x_release_first(cache: Path) -> None:
    code = "import markdown_it; print(markdown_it.__version__); print(markdown_it.__file__)"
    for newest, major in ((True, lambda m: m >= 4), (False, lambda m: m == 3)):
        run = subprocess.run([sys.executable, "-c", code], env=_env(cache, newest), capture_output=True, text=True)
        version, where = run.stdout.split()
        assert major(int(version.split(".")[0])), version
        assert Path(where).is_relative_to(NEWEST_MARKDOWN_IT) == newest


@pytest.mark.parametrize(
    "args",
    [
        [],  # the whole site
        ["--lenient", "tests/data/lenient", "tests/data/verl_readme_like.md"],
        ["tests/data/minisite/docs"],
    ],
    ids=["site", "lenient", "minisite"],
)
def test_the_newest_markdown_it_reports_what_the_environments_does(cache: Path, args: list[str]) -> None:
    findings, summary = _check(args, cache, newest=False)
    pages = len(list((cache / "pages").iterdir()))
    assert pages and ", 0 code blocks" not in summary
    assert _check(args, cache, newest=True) == (findings, summary)
    # checked afresh, not replayed from the page cache the first run filled: the cache is keyed by the parser too
    assert len(list((cache / "pages").iterdir())) == 2 * pages
