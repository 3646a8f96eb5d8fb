"""What a resume does with the training data, held by a run of verl 0.9.1's own v1 trainer ``_save_checkpoint`` and
``_load_checkpoint`` around the dataloader verl builds (tests/resume_run/dataloader_resume.py, in the startup
environment, never in this process). The async-resume page's "What is restored" states it (verl #1875 asked how to
skip the data already trained on after a resume).

Statements on the pages that a test here holds carry ``<!-- run: test_dataloader_resume_run.py::<test> -->``.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests import helpers

VERSION = "0.9.1"
RUN = Path(__file__).parent / "resume_run" / "dataloader_resume.py"


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("dataloader_resume") / "report.json"
    env = dict(os.environ, OMP_NUM_THREADS="1")
    r = subprocess.run(
        [helpers.startup_python(VERSION), str(RUN), str(out)], capture_output=True, text=True, env=env, timeout=600
    )
    assert r.returncode == 0, f"{RUN.name} failed ({r.returncode}):\n{r.stderr[-4000:]}"
    return json.loads(out.read_text())


def test_a_save_writes_the_dataloader_state_to_data_pt(report):
    assert "data.pt" in report["saved_files"]


def test_a_resume_reads_on_from_the_batch_after_the_saved_step_without_any_setting(report):
    order = report["epoch_order"]
    assert len(order) == 8 and report["read_before_save"] == order[:3]
    assert report["resumed_at_step"] == 3
    # the rest of the same shuffled epoch, none of the three batches already trained on
    assert report["read_after_resume"] == order[3:]


def test_without_data_pt_a_resume_reads_the_data_from_the_start(report):
    assert report["read_without_data_pt"] == report["epoch_order"]
