"""Run verl's v1 trainer's own ``_save_checkpoint`` and ``_load_checkpoint`` (``PPOTrainer``, sync mode) on CPU, in the
startup environment, around the train dataloader verl builds (``StatefulDataLoader`` with ``create_rl_sampler``,
shuffled, ``drop_last``). The worker group and the checkpoint callback are stand-ins; nothing else of the trainer is
built.

    python dataloader_resume.py REPORT.json

A first trainer reads three batches and saves at step 3; a second trainer with a fresh dataloader loads that checkpoint
and reads the rest of the epoch. Writes the batches each read, the epoch's full order from a fresh dataloader, and
the same resume with ``data.pt`` removed.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from types import SimpleNamespace

from omegaconf import OmegaConf
from torchdata.stateful_dataloader import StatefulDataLoader
from verl.trainer.ppo.utils import create_rl_sampler
from verl.trainer.ppo.v1.trainer_base import PPOTrainer

DATASET = list(range(16))
BATCH = 2


class WorkerGroup:
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
        actor_rollout_wg=WorkerGroup(),
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


def main() -> int:
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
    with open(sys.argv[1], "w") as f:
        json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
