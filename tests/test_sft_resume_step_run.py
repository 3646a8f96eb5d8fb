"""The SFT resume-step entry of the troubleshooting page, held by a run of verl 0.9.1's own ``extract_step``
(verl/utils/checkpoint/checkpoint_handler.py) in the startup environment: the step an SFT run resumes at is read from
the first ``global_step_N`` anywhere in the checkpoint's path, so a checkpoint kept under another step's folder
resumes at that folder's step (the bug verl PR #7257 and PR #6543 describe)."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests import helpers
from tests.conftest import REPO

PAGES = [REPO / "docs" / "recipes" / f"troubleshooting{s}.md" for s in ("", ".en")]
PATHS = ("/data/ckpt/sft/global_step_12", "/data/ckpt/global_step_900/archive/global_step_12")


# one process runs verl's code for both tests (importing verl's checkpoint handler takes seconds): ``extract_step`` on
# each path of PATHS, then, for each path after them, SFT's resume-path check followed by ``extract_step``
CODE = """
import json, sys, types
from verl.utils.checkpoint.checkpoint_handler import CheckpointHandler, extract_step
paths, resumed = sys.argv[1:3], sys.argv[3:]
steps = [extract_step(p) for p in paths]
out = []
for p in resumed:
    h = types.SimpleNamespace(resume_mode='resume_path', resume_from_path=p)
    try:
        out.append(['ok', extract_step(CheckpointHandler._determine_resume_path(h))])
    except AssertionError as e:
        out.append(['AssertionError', str(e)])
print(json.dumps({"steps": steps, "resumed": out}))
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> dict:
    """What verl computed for PATHS, and for a checkpoint folder copied as the entry says (``kept``: its name
    ``global_step_12`` kept, under a parent path with no ``global_step_<N>``) or renamed without ``global_step_``."""
    base = tmp_path_factory.mktemp("sft-resume")
    kept, renamed = base / "resume" / "global_step_12", base / "ckpt_12"
    kept.mkdir(parents=True)
    renamed.mkdir()
    r = subprocess.run(
        [helpers.startup_python("0.9.1"), "-c", CODE, *PATHS, str(kept), str(renamed)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
    )
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_the_step_of_an_sft_checkpoint_under_another_steps_folder_is_read_as_that_folders_step(run) -> None:
    assert run["steps"] == [12, 900]
    for page in PAGES:
        assert "global_step_900/archive/global_step_12" in page.read_text(encoding="utf-8"), page


def test_a_copy_under_a_parent_without_a_step_resumes_at_its_own_step_and_one_without_the_name_fails(run) -> None:
    """The entry's fix: copy the checkpoint folder, keeping its name ``global_step_12``, under a parent path with no
    ``global_step_<N>``. A copy renamed so that ``global_step_`` is gone fails SFT's resume-path assertion instead
    (``CheckpointHandler._determine_resume_path``, run on a stand-in for the handler's two attributes)."""
    got = run["resumed"]
    assert got == [["ok", 12], ["AssertionError", "resume_from_path must specify the global_steps"]], got
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        assert "/data/resume/global_step_12" in text and "resume_from_path must specify the global_steps" in text, page
