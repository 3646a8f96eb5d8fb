"""Run verl's legacy trainer's ``RayPPOTrainer._load_checkpoint`` (``trainer.use_v1=false``) on CPU, in the startup
environment, with a ``resume_mode`` the v1 trainer refuses (``global_step_2800``) and with ``auto``, in a checkpoint
folder that holds ``global_step_40`` and in an empty one. The worker group is a stand-in that records the path it is
asked to load; nothing else of the trainer is built.

    python legacy_resume.py REPORT.json

Writes, per case, the path loaded and the step the trainer resumes at, or the exception it raised.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile

from omegaconf import OmegaConf
from verl.trainer.ppo.ray_trainer import RayPPOTrainer


class WorkerGroup:
    def __init__(self) -> None:
        self.loaded: list[str] = []

    def load_checkpoint(self, path, del_local_after_load=False):
        self.loaded.append(path)


def case(mode: str, with_checkpoint: bool) -> dict:
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
                "default_hdfs_dir": None,
                "default_local_dir": folder,
                "resume_from_path": os.path.join(folder, "global_step_2800"),
                "del_local_ckpt_after_load": False,
            }
        }
    )
    trainer.actor_rollout_wg = WorkerGroup()
    trainer.use_critic = False
    trainer.train_dataloader = []
    try:
        RayPPOTrainer._load_checkpoint(trainer)
    except Exception as e:  # what the user sees is the point
        return {"raised": type(e).__name__, "message": str(e)}
    loaded = [os.path.relpath(p, folder) for p in trainer.actor_rollout_wg.loaded]
    return {"global_steps": getattr(trainer, "global_steps", None), "loaded": loaded}


def main() -> int:
    report = {
        f"{mode}/{'checkpoint' if with_checkpoint else 'empty'}": case(mode, with_checkpoint)
        for mode in ("global_step_2800", "auto")
        for with_checkpoint in (True, False)
    }
    with open(sys.argv[1], "w") as f:
        json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
