"""Shared fixtures: the pinned verl release (downloaded once into the test cache), its facts, a site runner.

The whole test run has a cache of its own, a temporary folder named by ``VERL_COOKBOOK_CACHE``: nothing a test
does reads or writes the developer's ``~/.cache/verl-cookbook``, and each run starts cold, as on a fresh CI
runner. The verl releases a test asks for are downloaded into it once per run (``pip download`` from pip's own
cache after ``scripts/install.sh``: about 1.2 s a release), under the per-release lock that keeps parallel
workers from downloading one twice.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from verl_cookbook.facts import Facts, load_facts
from verl_cookbook.verl_source import CACHE_ENV, VerlTree, from_checkout, from_release

REPO = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
TEST_CACHE_MARK = "VERL_COOKBOOK_TEST_CACHE"  # set beside CACHE_ENV by the process that made the folder
RUN_DIR_ENV = "VERL_COOKBOOK_TEST_RUN_DIR"  # a folder the run's processes share for what they build once (the site)

# The files that take longest, longest first: worker-seconds of each file in a whole run of scripts/test.sh's command
# on the 2-core machine (perf50b, a loaded run; the files' CPU figures agree on the order). ``--dist loadfile`` hands
# a worker one whole file at a time (the next one when two or fewer tests of its current file are left), in
# collection order when pytest-xdist is told not to reorder (scripts/test.sh passes --no-loadscope-reorder; by
# default it sorts files by their number of tests, which put few-but-slow files last and left one worker running
# them alone at the end). Longest first, the files of a few seconds that follow fill in around them and both workers
# finish within seconds of each other (xdist's schedule simulated on that run's per-test times: one worker ran alone
# for the last 44 s of 1972 with the earlier list of 24 files, for 6 s with this one). Other files keep their order
# after these; a file missing here is only scheduled later, never skipped.
SLOW_FILES = (
    "browser/test_readability.py",  # builds the site (the other site tests then find it built)
    "test_claim_mutations.py",
    "test_install_run.py",
    "test_startup_stage.py",  # verl in a subprocess: busy on the other core meanwhile
    "test_stack.py",
    "test_install_overview_run.py",
    "test_wheel_facts_current.py",
    "test_claims.py",
    "browser/test_site_in_browser.py",
    "browser/test_search.py",
    "test_hccl_engine_run.py",
    "test_npu_platform_run.py",
    "test_doctor.py",
    "test_async_save_tracker_sources.py",
    "test_pip_vcs_reinstall_run.py",
    "test_torch_npu_import_run.py",
    "test_offline.py",
    "test_matrix.py",
    "test_shipped_facts.py",
    "test_fuzz_shell.py",
    "test_merger_run.py",
    "test_megatron_layout_run.py",
    "test_fact_parts.py",
    "test_cache_concurrency.py",
    "test_sft_resume_step_run.py",
    "test_model_engines.py",
    "test_stack_pages.py",
    "test_prose_lint.py",
    "test_checked_count_hook.py",
    "test_merger_wheel_run.py",
    "test_callback_loader_run.py",
    "test_python_check.py",
    "test_exit_codes.py",
    "test_tool_pages.py",
    "test_markdown.py",
    "test_config_rules.py",
    "test_fuzz_config.py",
    "test_one_judge.py",
    "test_save_mkdir_run.py",
    "test_download.py",
    "test_resume_run.py",
    "test_stack_chip.py",
    "test_install_as_documented.py",
    "test_unconverted_type.py",
    "test_garbage_input.py",
    "test_newest_markdown_it.py",
    "test_layers.py",
    "test_parity.py",
)


def pytest_configure(config: pytest.Config) -> None:
    """Point the cache at a fresh temporary folder before any test, or any pytest-xdist worker, starts: workers
    inherit the environment, so the whole run shares one folder; a worker finds it set and keeps it."""
    if hasattr(config, "workerinput") and os.environ.get(TEST_CACHE_MARK):
        return
    # Findings print in 中文 under a Chinese locale (``--lang``'s default): the tests that read English messages run
    # the same on a developer's zh_CN machine; the tests of the 中文 output ask for it.
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if os.environ.get(name, "").lower().startswith("zh"):
            os.environ[name] = "C.UTF-8"
    folder = tempfile.mkdtemp(prefix="verl-cookbook-test-cache-")
    os.environ[CACHE_ENV] = folder
    os.environ[TEST_CACHE_MARK] = folder
    run_dir = tempfile.mkdtemp(prefix="verl-cookbook-test-run-")
    os.environ[RUN_DIR_ENV] = run_dir
    config._verl_cookbook_test_cache = folder  # type: ignore[attr-defined]
    config._verl_cookbook_test_run_dir = run_dir  # type: ignore[attr-defined]


def pytest_unconfigure(config: pytest.Config) -> None:
    for name in ("_verl_cookbook_test_cache", "_verl_cookbook_test_run_dir"):
        folder = getattr(config, name, None)
        if folder:
            shutil.rmtree(folder, ignore_errors=True)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow files first (SLOW_FILES), then the rest in their usual order; a stable sort, so every worker
    collects the same order (pytest-xdist requires it)."""
    rank = {name: i for i, name in enumerate(SLOW_FILES)}
    tests = Path(__file__).resolve().parent

    def key(item: pytest.Item) -> int:
        try:
            rel = item.path.resolve().relative_to(tests).as_posix()
        except ValueError:
            return len(SLOW_FILES)
        return rank.get(rel, len(SLOW_FILES))

    items.sort(key=key)


@pytest.fixture(scope="session")
def verl_tree() -> VerlTree:
    """The pinned verl release, unpacked from its wheel (never imported)."""
    return from_release()


@pytest.fixture(scope="session")
def facts(verl_tree: VerlTree) -> Facts:
    return load_facts(verl_tree)


@pytest.fixture
def verl_copy(verl_tree: VerlTree, tmp_path: Path) -> VerlTree:
    """A private copy of the pinned verl tree that a test may mutate."""
    dest = tmp_path / "verl-src"
    shutil.copytree(verl_tree.root / "verl", dest / "verl")
    return from_checkout(dest)


@pytest.fixture
def write_page(tmp_path: Path):
    """Write a Markdown page (and optional snippet files) into a throwaway site; return its path."""

    def write(text: str, name: str = "docs/page.md", files: dict[str, str] | None = None) -> Path:
        (tmp_path / "mkdocs.yml").write_text("site_name: t\n")
        for rel, content in (files or {}).items():
            p = tmp_path / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(content)
        page = tmp_path / name
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(text)
        return page

    return write
