"""The SFT resume-step entry of the troubleshooting page, held by a run of verl 0.9.1's own ``extract_step``
(verl/utils/checkpoint/checkpoint_handler.py) in the startup environment: the step an SFT run resumes at is read from
the first ``global_step_N`` anywhere in the checkpoint's path, so a checkpoint kept under another step's folder
resumes at that folder's step (the bug verl PR #7257 and PR #6543 describe)."""

from __future__ import annotations

import json
import os
import subprocess

from tests import helpers
from tests.conftest import REPO

PAGES = [REPO / "docs" / "recipes" / f"troubleshooting{s}.md" for s in ("", ".en")]
PATHS = ("/data/ckpt/sft/global_step_12", "/data/ckpt/global_step_900/archive/global_step_12")


def _steps() -> list[int | None]:
    code = (
        "import json, sys\n"
        "from verl.utils.checkpoint.checkpoint_handler import extract_step\n"
        "print(json.dumps([extract_step(p) for p in sys.argv[1:]]))\n"
    )
    r = subprocess.run(
        [helpers.startup_python("0.9.1"), "-c", code, *PATHS],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
    )
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_the_step_of_an_sft_checkpoint_under_another_steps_folder_is_read_as_that_folders_step() -> None:
    assert _steps() == [12, 900]
    for page in PAGES:
        assert "global_step_900/archive/global_step_12" in page.read_text(encoding="utf-8"), page


def test_a_copy_under_a_parent_without_a_step_resumes_at_its_own_step_and_one_without_the_name_fails(tmp_path) -> None:
    """The entry's fix: copy the checkpoint folder, keeping its name ``global_step_12``, under a parent path with no
    ``global_step_<N>``. A copy renamed so that ``global_step_`` is gone fails SFT's resume-path assertion instead
    (``CheckpointHandler._determine_resume_path``, run on a stand-in for the handler's two attributes)."""
    kept, renamed = tmp_path / "resume" / "global_step_12", tmp_path / "ckpt_12"
    kept.mkdir(parents=True)
    renamed.mkdir()
    code = (
        "import json, sys, types\n"
        "from verl.utils.checkpoint.checkpoint_handler import CheckpointHandler, extract_step\n"
        "out = []\n"
        "for p in sys.argv[1:]:\n"
        "    h = types.SimpleNamespace(resume_mode='resume_path', resume_from_path=p)\n"
        "    try:\n"
        "        out.append(['ok', extract_step(CheckpointHandler._determine_resume_path(h))])\n"
        "    except AssertionError as e:\n"
        "        out.append(['AssertionError', str(e)])\n"
        "print(json.dumps(out))\n"
    )
    r = subprocess.run(
        [helpers.startup_python("0.9.1"), "-c", code, str(kept), str(renamed)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
    )
    assert r.returncode == 0, r.stderr[-3000:]
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got == [["ok", 12], ["AssertionError", "resume_from_path must specify the global_steps"]], got
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        assert "/data/resume/global_step_12" in text and "resume_from_path must specify the global_steps" in text, page
