"""What verl's legacy trainer (``trainer.use_v1=false``) does with a ``trainer.resume_mode`` it does not know, held by
a run of verl 0.9.1's own ``RayPPOTrainer._load_checkpoint`` (tests/resume_run/legacy_resume.py, in the startup
environment, never in this process). The async-resume page's "Values of trainer.resume_mode" states it (verl #270:
users wrote ``resume_mode=global_step_2800``).

Statements on the pages that a test here holds carry ``<!-- run: test_legacy_resume_run.py::<test> -->``.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests import helpers

VERSION = "0.9.1"
RUN = Path(__file__).parent / "resume_run" / "legacy_resume.py"


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("legacy_resume") / "report.json"
    env = dict(os.environ, OMP_NUM_THREADS="1")
    r = subprocess.run(
        [helpers.startup_python(VERSION), str(RUN), str(out)], capture_output=True, text=True, env=env, timeout=600
    )
    assert r.returncode == 0, f"{RUN.name} failed ({r.returncode}):\n{r.stderr[-4000:]}"
    return json.loads(out.read_text())


def test_an_unknown_resume_mode_resumes_from_the_newest_checkpoint_like_auto(report):
    # resume_from_path names global_step_2800; the trainer loads global_step_40, the newest, as `auto` does
    assert report["global_step_2800/checkpoint"] == {"global_steps": 40, "loaded": ["global_step_40/actor"]}
    assert report["global_step_2800/checkpoint"] == report["auto/checkpoint"]


def test_an_unknown_resume_mode_with_no_checkpoint_fails_on_none_split(report):
    assert report["global_step_2800/empty"] == {
        "raised": "AttributeError",
        "message": "'NoneType' object has no attribute 'split'",
    }
    assert "raised" not in report["auto/empty"]  # `auto` with nothing saved starts from scratch
