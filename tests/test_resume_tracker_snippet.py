"""The async-resume page's tracker check (snippets/recipes/resume_tracker_check.sh and its 中文 twin), run as a user
runs it in the training's working folder: its output is the two lines the page's expected result names."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conftest import REPO

RUN_DIR = Path("checkpoints/my_project/my_run")


def _run(snippet: str, cwd: Path) -> subprocess.CompletedProcess:
    path = REPO / "snippets" / "recipes" / snippet
    return subprocess.run(["bash", str(path)], cwd=cwd, capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.parametrize("snippet", ["resume_tracker_check.sh", "resume_tracker_check.zh.sh"])
def test_the_tracker_check_prints_two_lines_the_page_names(tmp_path: Path, snippet: str) -> None:
    run = tmp_path / RUN_DIR
    for step in (100, 200, 300):
        (run / f"global_step_{step}").mkdir(parents=True)
    # no tracker: review20a saw cat's own error as the second line a reader reads
    r = _run(snippet, tmp_path)
    assert r.stdout.splitlines() == [f"{RUN_DIR}/global_step_300", "no tracker file"] and r.stderr == ""
    (run / "latest_checkpointed_iteration.txt").write_text("300")
    r = _run(snippet, tmp_path)
    assert r.stdout.splitlines() == [f"{RUN_DIR}/global_step_300", "300"] and r.stderr == ""
