"""Checkpoint retention across a restart (verl #7395) and with ``max_ckpt_to_keep=1`` (verl #4873), held by a run
of verl 0.9.1's own retention code.

tests/retention_run/restart.py runs ``BaseCheckpointManager.ensure_checkpoint_capacity`` / ``register_checkpoint``
(what the FSDP and Megatron checkpoint managers call around every save) in the startup environment: one manager
saves steps 1..3 with ``max_ckpt_to_keep=2``, then a new manager, as after a restart, saves steps 4..5. The
troubleshooting page's clean-up snippet then runs on what is left, as a user runs it.

Statements on the page that a test here holds carry ``<!-- run: test_retention_run.py::<test> -->``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests import helpers
from tests.conftest import REPO

VERSION = "0.9.1"
RUN = Path(__file__).parent / "retention_run" / "restart.py"
SNIPPET = REPO / "snippets" / "recipes" / "prune_checkpoints_after_restart.sh"
SNIPPET_DIR = "checkpoints/my_project/my_run"
PAGES = (REPO / "docs" / "recipes" / "troubleshooting.md", REPO / "docs" / "recipes" / "troubleshooting.en.md")
MARKER = re.compile(r"<!-- run: test_retention_run\.py::(\w+) -->")


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("retention")
    report = root / "report.json"
    env = dict(os.environ, OMP_NUM_THREADS="1")
    python = helpers.startup_python(VERSION)
    r = subprocess.run(
        [python, str(RUN), str(root / "ckpt"), str(report)], capture_output=True, text=True, env=env, timeout=600
    )
    assert r.returncode == 0, f"{RUN.name} failed ({r.returncode}):\n{r.stderr[-4000:]}"
    return {**json.loads(report.read_text()), "root": root / "ckpt"}


def test_within_one_process_max_ckpt_to_keep_deletes_the_oldest(run):
    assert run["after_first_process"] == [2, 3]


def test_after_a_restart_checkpoints_saved_before_it_are_never_deleted(run):
    assert run["after_restart"] == [2, 3, 4, 5], run["after_restart"]
    assert len(run["after_restart"]) > run["max_ckpt_to_keep"]


def test_the_pages_clean_up_keeps_the_newest_two(run):
    text = SNIPPET.read_text(encoding="utf-8")
    assert SNIPPET_DIR in text, f"{SNIPPET.name} changed: update this test"
    r = subprocess.run(
        ["bash", "-e", "-c", text.replace(SNIPPET_DIR, str(run["root"]))], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr
    left = sorted(p.name for p in run["root"].glob("global_step_*"))
    assert left == ["global_step_4", "global_step_5"], left
    assert r.stdout.split() == [str(run["root"] / n) for n in left], "the snippet's last line lists what is left"


def test_with_max_ckpt_to_keep_1_the_old_checkpoint_stays_until_the_new_one_is_written(run):
    assert run["keep1_while_saving_step_2"] == [1, 2], run["keep1_while_saving_step_2"]
    assert run["keep1_after_step_2"] == [2], run["keep1_after_step_2"]


# -- the page and the tests stay in step ----------------------------------------------------------------------
PAGE_TESTS = {
    "test_within_one_process_max_ckpt_to_keep_deletes_the_oldest",
    "test_after_a_restart_checkpoints_saved_before_it_are_never_deleted",
    "test_the_pages_clean_up_keeps_the_newest_two",
    "test_with_max_ckpt_to_keep_1_the_old_checkpoint_stays_until_the_new_one_is_written",
}


def test_both_languages_mark_the_statements_these_runs_hold():
    zh, en = (MARKER.findall(p.read_text(encoding="utf-8")) for p in PAGES)
    assert zh == en, "the two languages mark different statements"
    assert set(zh) == PAGE_TESTS, f"marked: {sorted(set(zh))}"
