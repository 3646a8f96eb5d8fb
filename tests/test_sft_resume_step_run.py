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
