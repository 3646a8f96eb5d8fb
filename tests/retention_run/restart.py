"""verl 0.9.1's checkpoint retention across a restart, run with verl's own ``BaseCheckpointManager``.

Runs in the startup environment (verl importable), never in pytest's process. The FSDP and Megatron checkpoint
managers enforce ``max_ckpt_to_keep`` through two methods of their base class, called in this order on rank 0
around every save: ``ensure_checkpoint_capacity`` before writing, ``register_checkpoint`` after
(verl/utils/checkpoint/fsdp_checkpoint_manager.py:296-297 and :475-476 at 0.9.1). Here one manager saves steps
1..3 (a training process), then a new manager, as a restarted process builds one, saves steps 4..5; each save
writes a ``global_step_N/actor`` folder. The report lists the folders left after each process.

Usage: python restart.py ROOT REPORT_JSON
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import torch.distributed as dist
from verl.utils.checkpoint.checkpoint_manager import BaseCheckpointManager

MAX_CKPT_TO_KEEP = 2


def save(manager: BaseCheckpointManager, root: Path, step: int) -> None:
    actor = root / f"global_step_{step}" / "actor"
    manager.ensure_checkpoint_capacity(MAX_CKPT_TO_KEEP)
    actor.mkdir(parents=True)
    (actor / "model_world_size_1_rank_0.pt").write_bytes(b"w")
    manager.register_checkpoint(str(actor), MAX_CKPT_TO_KEEP)


def left(root: Path) -> list[int]:
    return sorted(int(p.parent.name.removeprefix("global_step_")) for p in root.glob("global_step_*/actor"))


def main(root: Path, report_json: Path) -> None:
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(29500 + os.getpid() % 1000))
    dist.init_process_group("gloo", rank=0, world_size=1)
    first = BaseCheckpointManager(model=None, optimizer=None)
    for step in (1, 2, 3):
        save(first, root, step)
    after_first = left(root)
    restarted = BaseCheckpointManager(model=None, optimizer=None)
    for step in (4, 5):
        save(restarted, root, step)
    dist.destroy_process_group()
    report = {"max_ckpt_to_keep": MAX_CKPT_TO_KEEP, "after_first_process": after_first, "after_restart": left(root)}
    report_json.write_text(json.dumps(report))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
