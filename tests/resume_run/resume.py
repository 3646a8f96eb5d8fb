"""Runs of verl 0.9.1's own resume code on CPU, in the startup environment, in one process (one import of verl):

* ``legacy``: the legacy trainer's ``RayPPOTrainer._load_checkpoint`` (``trainer.use_v1=false``) with a
  ``resume_mode`` the v1 trainer refuses (``global_step_2800``) and with ``auto``, in a checkpoint folder that holds
  ``global_step_40`` and in an empty one, what it prints on a resume, and each ``resume_mode`` with
  ``trainer.default_hdfs_dir`` set. The worker group is a stand-in that records the path it is asked to load.
* ``dataloader``: the v1 trainer's own ``_save_checkpoint`` and ``_load_checkpoint`` (``PPOTrainer``, sync mode)
  around the train dataloader verl builds (``StatefulDataLoader`` with ``create_rl_sampler``, shuffled,
  ``drop_last``). A first trainer reads three batches and saves at step 3; a second trainer with a fresh dataloader
  loads that checkpoint and reads the rest of the epoch; a third does the same with ``data.pt`` removed. The worker
  group and the checkpoint callback are stand-ins.
* ``no_path``: ``trainer.resume_mode=resume_path`` with ``trainer.resume_from_path`` left at its default ``null``, in
  the legacy trainer, the v1 trainer and the SFT trainers' ``CheckpointHandler``; and the handler with a path that
  does not exist, under ``resume_path`` and ``auto``.
* ``disable``: a new v1 trainer with ``trainer.resume_mode=disable`` in the folder that holds that checkpoint, as a
  run started afresh from merged weights in the old folder: the step it starts from and what it loads.
* ``warmup``: the v1 trainer's ``_add_async_warmup_batches`` (what both async modes call before training) with
  ``data.train_batch_size=64`` and the ``gen_batch_size`` of 1 the async modes force, for ``num_warmup_batches`` 2
  and 1.5 and a count of prompt groups restored from TransferQueue: how many prompts it submits (the submission is
  a stand-in that records the count) and what it logs. The async-resume page's worked example.

Nothing else of the trainers is built.

    python resume.py REPORT.json
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import sys
import tempfile
from types import SimpleNamespace

from omegaconf import OmegaConf
from torchdata.stateful_dataloader import StatefulDataLoader
from verl.trainer.ppo.ray_trainer import RayPPOTrainer
from verl.trainer.ppo.utils import create_rl_sampler
from verl.trainer.ppo.v1 import trainer_base
from verl.trainer.ppo.v1.trainer_base import PPOTrainer
from verl.utils.checkpoint.checkpoint_handler import CheckpointHandler


class RecordingWorkerGroup:
    def __init__(self) -> None:
        self.loaded: list[str] = []

    def load_checkpoint(self, path, del_local_after_load=False):
        self.loaded.append(path)


def legacy_case(mode: str, with_checkpoint: bool, hdfs_dir: str | None = None, printed: list | None = None) -> dict:
    folder = tempfile.mkdtemp()
    if with_checkpoint:
        os.makedirs(os.path.join(folder, "global_step_40", "actor"))
        with open(os.path.join(folder, "latest_checkpointed_iteration.txt"), "w") as f:
            f.write("40")
    trainer = RayPPOTrainer.__new__(RayPPOTrainer)
    trainer.config = OmegaConf.create(
        {
            "trainer": {
                "resume_mode": mode,
                "default_hdfs_dir": hdfs_dir,
                "default_local_dir": folder,
                "resume_from_path": os.path.join(folder, "global_step_2800"),
                "del_local_ckpt_after_load": False,
            }
        }
    )
    trainer.actor_rollout_wg = RecordingWorkerGroup()
    trainer.use_critic = False
    trainer.train_dataloader = []
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            RayPPOTrainer._load_checkpoint(trainer)
    except Exception as e:  # what the user sees is the point
        return {"raised": type(e).__name__, "message": str(e)}
    finally:
        if printed is not None:
            printed.extend(line.replace(folder, "<dir>") for line in out.getvalue().splitlines())
    loaded = [os.path.relpath(p, folder) for p in trainer.actor_rollout_wg.loaded]
    return {"global_steps": getattr(trainer, "global_steps", None), "loaded": loaded}


DATASET = list(range(16))
BATCH = 2


class StandInWorkerGroup:
    def save_checkpoint(self, local_path, hdfs_path=None, global_step=0, max_ckpt_to_keep=None):
        os.makedirs(local_path, exist_ok=True)

    def load_checkpoint(self, local_path, del_local_after_load=False):
        pass


class Callback:
    def on_save(self, **kwargs):
        pass


def dataloader() -> StatefulDataLoader:
    data = OmegaConf.create({"shuffle": True, "seed": 1})
    return StatefulDataLoader(
        dataset=DATASET, batch_size=BATCH, drop_last=True, sampler=create_rl_sampler(data, DATASET)
    )


def trainer(folder: str) -> SimpleNamespace:
    config = OmegaConf.create(
        {
            "trainer": {
                "resume_mode": "auto",
                "default_local_dir": folder,
                "default_hdfs_dir": None,
                "del_local_ckpt_after_load": False,
            },
            "actor_rollout_ref": {"actor": {"checkpoint": {"async_save": False}}},
        }
    )
    return SimpleNamespace(
        config=config,
        trainer_mode="sync",
        use_critic=False,
        actor_rollout_wg=StandInWorkerGroup(),
        checkpoint_callback=Callback(),
        train_dataloader=dataloader(),
        global_steps=0,
    )


def batches(it, n=None) -> list[list[int]]:
    out = []
    for batch in it:
        out.append(batch.tolist())
        if n is not None and len(out) == n:
            break
    return out


def dataloader_report() -> dict:
    folder = tempfile.mkdtemp()
    first = trainer(folder)
    read_before_save = batches(iter(first.train_dataloader), 3)
    first.global_steps = 3
    PPOTrainer._save_checkpoint(first)

    second = trainer(folder)
    PPOTrainer._load_checkpoint(second)
    read_after_resume = batches(second.train_dataloader)

    saved_files = sorted(os.listdir(os.path.join(folder, "global_step_3")))
    os.remove(os.path.join(folder, "global_step_3", "data.pt"))
    third = trainer(folder)
    PPOTrainer._load_checkpoint(third)
    read_without_data_pt = batches(third.train_dataloader)

    report = {
        "epoch_order": batches(dataloader()),
        "read_before_save": read_before_save,
        "resumed_at_step": second.global_steps,
        "read_after_resume": read_after_resume,
        "read_without_data_pt": read_without_data_pt,
        "saved_files": saved_files,
    }
    return report


class LoadRecorder(StandInWorkerGroup):
    def __init__(self) -> None:
        self.loaded: list[str] = []

    def load_checkpoint(self, local_path, del_local_after_load=False):
        self.loaded.append(local_path)


def disable_report() -> dict:
    folder = tempfile.mkdtemp()
    first = trainer(folder)
    batches(iter(first.train_dataloader), 3)
    first.global_steps = 3
    PPOTrainer._save_checkpoint(first)

    fresh = trainer(folder)
    fresh.config.trainer.resume_mode = "disable"
    fresh.actor_rollout_wg = LoadRecorder()
    fresh.global_steps = None  # whatever _load_checkpoint leaves is what fit() counts on from
    PPOTrainer._load_checkpoint(fresh)
    return {
        "saved": sorted(os.listdir(folder)),
        "global_steps": fresh.global_steps,
        "loaded": fresh.actor_rollout_wg.loaded,
        "read": batches(fresh.train_dataloader),
        "epoch_order": batches(dataloader()),
    }


def _outcome(call) -> dict:
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            got = call()
    except Exception as e:  # what the user sees is the point
        return {"raised": type(e).__name__, "message": str(e)}
    return {"returned": got}


def handler(mode: str, path) -> CheckpointHandler:
    h = CheckpointHandler.__new__(CheckpointHandler)
    h.resume_mode, h.resume_from_path, h.default_local_dir, h.rank = mode, path, tempfile.mkdtemp(), 0
    return h


def no_path_report() -> dict:
    report = {}
    for name, cls in (("legacy", RayPPOTrainer), ("v1", PPOTrainer)):
        t = trainer(tempfile.mkdtemp())
        t.config.trainer.resume_mode = "resume_path"
        t.config.trainer.resume_from_path = None
        report[name] = _outcome(lambda cls=cls, t=t: cls._load_checkpoint(t))
    report["sft"] = _outcome(handler("resume_path", None)._determine_resume_path)
    missing = os.path.join(tempfile.mkdtemp(), "global_step_50")
    report["sft/missing"] = _outcome(handler("resume_path", missing)._determine_resume_path)
    report["sft/auto-missing"] = _outcome(handler("auto", missing)._determine_resume_path)
    return report


class LogLines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def warmup_case(num_warmup_batches: float, restored: int) -> dict:
    submitted: list[int] = []
    t = SimpleNamespace(  # PPOTrainer is abstract: its method runs on a stand-in holding what it reads
        config=OmegaConf.create(
            {"skip": {"rollout_tq": {"enable": False}}, "data": {"train_batch_size": 64, "gen_batch_size": 1}}
        ),
        _restored_tq_prompt_count=restored,
        _add_prompts_to_generate=submitted.append,
    )
    log = LogLines()
    trainer_logger = logging.getLogger(trainer_base.__name__)
    trainer_logger.addHandler(log)
    try:
        PPOTrainer._add_async_warmup_batches(t, num_warmup_batches)
    finally:
        trainer_logger.removeHandler(log)
    return {"submitted": sum(submitted), "logged": log.lines}


def warmup_report() -> dict:
    return {
        f"{batches}/{restored}": warmup_case(batches, restored)
        for batches, restored in ((2, 100), (2, 150), (2, 0), (1.5, 0))
    }


def main() -> int:
    legacy = {
        f"{mode}/{'checkpoint' if with_checkpoint else 'empty'}": legacy_case(mode, with_checkpoint)
        for mode in ("global_step_2800", "auto")
        for with_checkpoint in (True, False)
    }
    printed: list[str] = []
    legacy_case("auto", True, printed=printed)
    legacy["auto/checkpoint/printed"] = printed
    for mode in ("auto", "resume_path", "disable"):
        legacy[f"{mode}/empty/hdfs"] = legacy_case(mode, False, hdfs_dir="hdfs://namenode/ckpt")
    report = {
        "legacy": legacy,
        "dataloader": dataloader_report(),
        "disable": disable_report(),
        "no_path": no_path_report(),
        "warmup": warmup_report(),
    }
    with open(sys.argv[1], "w") as f:
        json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
