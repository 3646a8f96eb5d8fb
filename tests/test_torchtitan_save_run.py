"""What a TorchTitan save in verl 0.9.1 writes, and what resume then reads, held by a run.

tests/torchtitan_run/save_like_verl.py runs verl's own ``TorchTitanEngine.save_checkpoint`` / ``load_checkpoint``
and the checkpoint config of its ``__init__`` against torchtitan's real ``CheckpointManager`` on CPU, in the
environment scripts/torchtitan_env.sh builds (``$VERL_COOKBOOK_TORCHTITAN_PYTHON`` points elsewhere); missing is a
failure, never a skip. torchtitan is 0.3.0 from the package index: verl's CI installs a nightly
(0.1.0.dev20260701, not on the index) whose save policy is the same code (``_should_save``: save when
``curr_step % interval == 0``, ``interval`` 500 by default; torchtitan commit 952427842,
torchtitan/components/checkpoint.py:1077-1093, and 0.3.0's checkpointer/dcp.py:794-810).

Statements on the pages that a test here holds carry ``<!-- run: test_torchtitan_save_run.py::<test> -->``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

RUN = Path(__file__).parent / "torchtitan_run" / "save_like_verl.py"
PAGES = tuple(
    REPO / "docs" / "recipes" / f"{name}{lang}.md"
    for name in ("checkpoint-callback", "async-resume")
    for lang in ("", ".en")
)
MARKER = re.compile(r"<!-- run: test_torchtitan_save_run\.py::(\w+) -->")
ENV = "VERL_COOKBOOK_TORCHTITAN_PYTHON"


def _python() -> str:
    if os.environ.get(ENV):
        return os.environ[ENV]
    built = Path(sys.prefix) / "torchtitan-env"
    if not (built / ".complete").exists():
        pytest.fail(f"the torchtitan environment is not built: run `bash scripts/torchtitan_env.sh` (or set ${ENV})")
    return str(built / "bin" / "python")


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("torchtitan-save")
    env = dict(os.environ, OMP_NUM_THREADS="1")
    report = out / "report.json"
    r = subprocess.run(
        [_python(), str(RUN), str(out), str(report)], capture_output=True, text=True, env=env, timeout=600
    )
    assert r.returncode == 0, f"{RUN.name} failed ({r.returncode}):\n{r.stderr[-4000:]}"
    return json.loads(report.read_text())


def test_verl_leaves_torchtitans_save_interval_at_its_default_of_500(run):
    assert run["interval"] == 500


def test_a_torchtitan_save_writes_only_at_multiples_of_500_and_then_into_global_step_n_step_n(run):
    every = [step for step in run["saved_at"] if step % 500 == 0]
    assert every and len(every) < len(run["saved_at"]), "the run must save at steps of both kinds"
    assert sorted(run["written"]) == sorted(f"global_step_{s}/step-{s}" for s in every), run["written"]
    assert not [w for w in run["written"] if w.endswith("/actor")], "something was written under actor/"


def test_resuming_from_a_step_torchtitan_did_not_write_fails_with_file_not_found(run):
    for step, error in run["loads"].items():
        if int(step) % 500 == 0:
            assert error is None, f"global_step_{step}: {error}"
        else:
            assert error and error["type"] == "FileNotFoundError", f"global_step_{step}: {error}"
            assert error["message"].startswith(f"--checkpoint.load_step={step} not found at "), error["message"]


def test_max_ckpt_to_keep_deletes_no_torchtitan_checkpoint(run):
    kept = [w for w in run["written"] if "/step-" in w]
    assert len(kept) > run["max_ckpt_to_keep"], f"{kept}: more saves than max_ckpt_to_keep must remain"


# -- the pages and the tests stay in step ---------------------------------------------------------------------
PAGE_TESTS = {
    "test_a_torchtitan_save_writes_only_at_multiples_of_500_and_then_into_global_step_n_step_n",
    "test_resuming_from_a_step_torchtitan_did_not_write_fails_with_file_not_found",
    "test_max_ckpt_to_keep_deletes_no_torchtitan_checkpoint",
    "test_verl_leaves_torchtitans_save_interval_at_its_default_of_500",
}


def test_each_page_marks_the_same_statements_in_both_languages():
    marks = {page.name: MARKER.findall(page.read_text(encoding="utf-8")) for page in PAGES}
    for zh, en in zip(PAGES[::2], PAGES[1::2], strict=True):
        assert marks[zh.name] == marks[en.name], f"{zh.name} and {en.name} mark different statements"
    marked = {m for found in marks.values() for m in found}
    assert marked == PAGE_TESTS, f"marked but no such test: {marked - PAGE_TESTS}; unmarked: {PAGE_TESTS - marked}"
