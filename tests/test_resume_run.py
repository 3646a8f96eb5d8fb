"""What verl does on a resume, held by runs of verl 0.9.1's own trainers in one process of the startup environment
(tests/resume_run/resume.py, never in this process):

* the legacy trainer (``trainer.use_v1=false``) with a ``trainer.resume_mode`` it does not know — the async-resume
  page's "Values of trainer.resume_mode" (verl #270: users wrote ``resume_mode=global_step_2800``);
* what the legacy trainer prints on a resume, and where it refuses ``trainer.default_hdfs_dir`` — the async-resume
  page's synchronous resume and "Resume does not read default_hdfs_dir";
* what a resume does with the training data — the async-resume page's "What is restored" (verl #1875 asked how to
  skip the data already trained on after a resume);
* ``trainer.resume_mode=resume_path`` with no ``trainer.resume_from_path``, and the SFT trainer with a path that does
  not exist — the troubleshooting page's #resume-path-missing;
* what a new run with ``trainer.resume_mode=disable`` does in a folder that holds a checkpoint — the troubleshooting
  page's check after starting afresh from merged weights (#fsdp-same-world-size, review41d-2);
* how many warm-up prompts the async modes submit after a resume — the async-resume page's worked example under
  "Warm-up submissions" (rev50c: it was ※, the arithmetic of trainer_base.py read, not run).

Statements on the pages that a test here holds carry ``<!-- run: test_resume_run.py::<test> -->``.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests import helpers

VERSION = "0.9.1"
RUN = Path(__file__).parent / "resume_run" / "resume.py"


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("resume") / "report.json"
    env = dict(os.environ, OMP_NUM_THREADS="1")
    r = subprocess.run(
        [helpers.startup_python(VERSION), str(RUN), str(out)], capture_output=True, text=True, env=env, timeout=600
    )
    assert r.returncode == 0, f"{RUN.name} failed ({r.returncode}):\n{r.stderr[-4000:]}"
    return json.loads(out.read_text())


def test_an_unknown_resume_mode_resumes_from_the_newest_checkpoint_like_auto(report):
    legacy = report["legacy"]
    # resume_from_path names global_step_2800; the trainer loads global_step_40, the newest, as `auto` does
    assert legacy["global_step_2800/checkpoint"] == {"global_steps": 40, "loaded": ["global_step_40/actor"]}
    assert legacy["global_step_2800/checkpoint"] == legacy["auto/checkpoint"]


def test_an_unknown_resume_mode_with_no_checkpoint_fails_on_none_split(report):
    legacy = report["legacy"]
    assert legacy["global_step_2800/empty"] == {
        "raised": "AttributeError",
        "message": "'NoneType' object has no attribute 'split'",
    }
    assert "raised" not in legacy["auto/empty"]  # `auto` with nothing saved starts from scratch


def test_a_save_writes_the_dataloader_state_to_data_pt(report):
    assert "data.pt" in report["dataloader"]["saved_files"]


def test_a_resume_reads_on_from_the_batch_after_the_saved_step_without_any_setting(report):
    data = report["dataloader"]
    order = data["epoch_order"]
    assert len(order) == 8 and data["read_before_save"] == order[:3]
    assert data["resumed_at_step"] == 3
    # the rest of the same shuffled epoch, none of the three batches already trained on
    assert data["read_after_resume"] == order[3:]


def test_without_data_pt_a_resume_reads_the_data_from_the_start(report):
    data = report["dataloader"]
    assert data["read_without_data_pt"] == data["epoch_order"]


def test_the_legacy_trainer_prints_the_step_and_the_folder_on_lines_of_their_own(report):
    # review39i-1: three print() lines, not v1's single "Resuming from …, setting global step to N"
    # (find_latest_ckpt_path prints its own "Found checkpoint: …" line before them, the data.pt warning follows)
    printed = report["legacy"]["auto/checkpoint/printed"]
    first = printed.index("Load from checkpoint folder: <dir>/global_step_40")
    assert printed[first : first + 3] == [
        "Load from checkpoint folder: <dir>/global_step_40",
        "Setting global step to 40",
        "Resuming from <dir>/global_step_40",
    ]


def test_the_legacy_trainer_refuses_default_hdfs_dir_unless_resume_mode_is_disable(report):
    # review39i-2: also on a first start with `auto` and nothing saved, not only on a resume
    legacy = report["legacy"]
    refused = {"raised": "NotImplementedError", "message": "load from hdfs is not implemented yet"}
    assert legacy["auto/empty/hdfs"] == refused
    assert legacy["resume_path/empty/hdfs"] == refused
    assert "raised" not in legacy["disable/empty/hdfs"]


def test_with_resume_mode_disable_a_new_run_loads_no_checkpoint_and_starts_from_step_1(report):
    # review41d-2: the step counter is left at 0 (fit() adds 1 before the first step), nothing is loaded although
    # global_step_3 is there, and the data is read from the start of the epoch
    got = report["disable"]
    assert "global_step_3" in got["saved"]
    assert got["global_steps"] == 0
    assert got["loaded"] == []
    assert got["read"] == got["epoch_order"]


def test_resume_path_without_a_path_fails_in_both_ppo_trainers_on_the_str_assertion(report):
    refused = {"raised": "AssertionError", "message": "resume ckpt must be str type"}
    assert report["no_path"]["legacy"] == refused
    assert report["no_path"]["v1"] == refused


def test_resume_path_without_a_path_fails_in_the_sft_handler_with_a_type_error_from_os_stat(report):
    assert report["no_path"]["sft"] == {
        "raised": "TypeError",
        "message": "stat: path should be string, bytes, os.PathLike or integer, not NoneType",
    }


def test_the_sft_handler_refuses_a_path_that_does_not_exist_in_both_modes(report):
    got = report["no_path"]
    assert got["sft/missing"] == {
        "raised": "AssertionError",
        "message": "resume_from_path must be an existing path when resume_mode is 'resume_path'",
    }
    assert got["sft/auto-missing"] == {
        "raised": "AssertionError",
        "message": "resume_from_path must be null or an existing path when resume_mode is 'auto'",
    }


def test_the_warm_up_tops_up_the_window_the_restored_prompt_groups_leave(report):
    # train_batch_size=64, num_warmup_batches=2: a 128-prompt window; 100 restored leave 28 to submit
    got = report["warmup"]
    assert got["2/100"] == {
        "submitted": 28,
        "logged": ["Added 28 warmup prompts after restoring 100 of 128 target prompt groups"],
    }
    assert got["2/0"]["submitted"] == 128  # a fresh run, no TransferQueue checkpoint


def test_restored_prompt_groups_that_fill_the_window_skip_the_warm_up(report):
    assert report["warmup"]["2/150"] == {
        "submitted": 0,
        "logged": ["Skipping async warmup: 150 restored prompt groups already fill the 128-prompt prefetch window"],
    }


def test_a_fractional_num_warmup_batches_makes_a_96_prompt_window_of_64_prompt_batches(report):
    assert report["warmup"]["1.5/0"]["submitted"] == 96
