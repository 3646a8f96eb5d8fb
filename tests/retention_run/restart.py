"""verl 0.9.1's checkpoint retention across a restart, run with verl's own ``BaseCheckpointManager``.

Runs in the startup environment (verl importable), never in pytest's process. The FSDP and Megatron checkpoint
managers enforce ``max_ckpt_to_keep`` through two methods of their base class, called in this order on rank 0
around every save: ``ensure_checkpoint_capacity`` before writing, ``register_checkpoint`` after
(verl/utils/checkpoint/fsdp_checkpoint_manager.py:296-297 and :475-476 at 0.9.1). Here one manager saves steps
1..3 (a training process), then a new manager, as a restarted process builds one, saves steps 4..5; each save
writes a ``global_step_N/actor`` folder. The report lists the folders left after each process. A second tree
(``ROOT``'s sibling ``keep1``) is saved with ``max_ckpt_to_keep=1`` (verl #4873): the report also lists the folders
on disk while step 2 is being written (after ``ensure_checkpoint_capacity``, before ``register_checkpoint``) and
after it is registered.

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


def save(manager: BaseCheckpointManager, root: Path, step: int, keep: int = MAX_CKPT_TO_KEEP) -> list[int]:
    """Save one step; returns the steps on disk once it is written, before it is registered."""
    actor = root / f"global_step_{step}" / "actor"
    manager.ensure_checkpoint_capacity(keep)
    actor.mkdir(parents=True)
    (actor / "model_world_size_1_rank_0.pt").write_bytes(b"w")
    written = left(root)
    manager.register_checkpoint(str(actor), keep)
    return written


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
    keep1 = root.with_name("keep1")
    single = BaseCheckpointManager(model=None, optimizer=None)
    save(single, keep1, 1, keep=1)
    keep1_while_saving = save(single, keep1, 2, keep=1)
    dist.destroy_process_group()
    report = {
        "max_ckpt_to_keep": MAX_CKPT_TO_KEEP,
        "after_first_process": after_first,
        "after_restart": left(root),
        "keep1_while_saving_step_2": keep1_while_saving,
        "keep1_after_step_2": left(keep1),
    }
    report_json.write_text(json.dumps(report))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
