"""How verl 0.9.1 loads a checkpoint callback, held by a run of its own ``build_checkpoint_callback``.

tests/callback_run/load.py runs in the startup environment: it puts the page's example module on ``sys.path`` as
``my_project.ckpt_callbacks`` and asks verl to build callbacks from several ``trainer.checkpoint_callback_class``
values, then calls the example's ``on_save`` as the v1 trainer does. Statements on the checkpoint-callback page that
a test here holds carry ``<!-- run: test_callback_loader_run.py::<test> -->``.
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
RUN = Path(__file__).parent / "callback_run" / "load.py"
SNIPPET = REPO / "snippets" / "recipes" / "checkpoint_callback.py"
PAGES = (REPO / "docs" / "recipes" / "checkpoint-callback.md", REPO / "docs" / "recipes" / "checkpoint-callback.en.md")
MARKER = re.compile(r"<!-- run: test_callback_loader_run\.py::(\w+) -->")


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> dict:
    tmp = tmp_path_factory.mktemp("callback")
    report = tmp / "report.json"
    env = dict(os.environ, OMP_NUM_THREADS="1")
    python = helpers.startup_python(VERSION)
    r = subprocess.run(
        [python, str(RUN), str(tmp / "work"), str(SNIPPET), str(report)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert r.returncode == 0, f"{RUN.name} failed ({r.returncode}):\n{r.stderr[-4000:]}"
    return json.loads(report.read_text())


def test_without_a_class_verl_builds_a_callback_that_does_nothing(run):
    assert run["unset"] == {
        "error": None,
        "class": "CheckpointCallback",
        "is_checkpoint_callback": True,
        "got_the_config": True,
    }


def test_a_name_without_a_dot_a_missing_module_and_a_missing_class_raise_at_construction(run):
    assert run["no_dot"]["error"] == "ValueError"
    assert run["no_module"]["is_import_error"], run["no_module"]
    assert run["no_class"]["error"] == "AttributeError"


def test_verl_builds_the_pages_example_with_the_whole_config_and_it_publishes_a_synchronous_save(run):
    example = run["example"]
    assert example["error"] is None and example["class"] == "UploadRegisterEvaluate"
    assert example["got_the_config"], "verl did not pass the training config as config="
    assert example["registered"] == [1]
    assert example["uploaded"] == ["actor", "data.pt"]


# -- the page and the tests stay in step ----------------------------------------------------------------------
PAGE_TESTS = {
    "test_without_a_class_verl_builds_a_callback_that_does_nothing",
    "test_a_name_without_a_dot_a_missing_module_and_a_missing_class_raise_at_construction",
    "test_verl_builds_the_pages_example_with_the_whole_config_and_it_publishes_a_synchronous_save",
}


def test_both_languages_mark_the_statements_these_runs_hold():
    zh, en = (MARKER.findall(p.read_text(encoding="utf-8")) for p in PAGES)
    assert zh == en, "the two languages mark different statements"
    assert set(zh) == PAGE_TESTS, f"marked: {sorted(set(zh))}"
