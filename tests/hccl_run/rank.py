"""One process of a weight sync through verl's HCCL checkpoint engine, on CPU (npu_fakes.py replaces the device
layer). Run by tests/test_hccl_engine_run.py, one process per trainer or rollout rank, in the startup environment.

Each sync calls the engine as verl 0.9.1's CheckpointEngineManager.update_weights does (checkpoint_engine/base.py:
build_process_group, then update_weights, then finalize): ``prepare`` on every rank, ``build_topology`` over
everyone's metadata (trainer ranks first), ``init_process_group`` with this rank's share, ``send_weights`` on the
trainer / ``receive_weights`` on the rollout, ``finalize``. Between those steps the ranks wait for each other, as
the manager's ``ray.get`` makes them; a TCPStore hosted by trainer rank 0 carries the metadata and the waits.

argv[1] is a JSON object: role (trainer|rollout), index, trainers, rollouts, syncs, bucket_size, engine_kwargs,
coord_port, out (a JSON report written at the end), phase (a file the process appends each step to) and, for a
rank that is to join late, hold: a file whose creation lets it call its first init_process_group.
stderr holds what verl logs.
"""

from __future__ import annotations

import asyncio
import datetime
import faulthandler
import json
import os
import pickle
import signal
import sys
import time
import traceback
from pathlib import Path

faulthandler.register(signal.SIGUSR1)  # the test asks for every thread's stack before it stops a stuck process
sys.path.insert(0, str(Path(__file__).parent))
import npu_fakes  # noqa: E402

npu_fakes.install()

import torch  # noqa: E402
from torch.distributed import TCPStore  # noqa: E402
from verl.checkpoint_engine import CheckpointEngineRegistry  # noqa: E402

npu_fakes.attach()

CFG = json.loads(sys.argv[1])
ROLE, INDEX = CFG["role"], CFG["index"]
TRAINERS, ROLLOUTS = CFG["trainers"], CFG["rollouts"]
ME = INDEX if ROLE == "trainer" else TRAINERS + INDEX  # position in the manager's metadata list
EVERYONE = TRAINERS + ROLLOUTS
GATHER_TIME = 0.5
KEEP: list = []


def weights(sync: int, gather_time: float = 0.0):
    """Named tensors as a trainer yields them; one larger than the bucket, so it travels in chunks.

    A trainer's generator takes a moment before its first tensor (it gathers sharded parameters); ``gather_time``
    stands for it. Without it the first bucket's metadata can be published before a rollout rank's new ZeroMQ
    subscription, made in ``init_process_group`` just before the barrier, has reached the publisher: PUB/SUB drops
    messages for a subscriber not yet known, and that rollout rank then waits for ever."""
    time.sleep(gather_time)
    gen = torch.Generator().manual_seed(1000 + sync)
    shapes = {"model.embed_tokens.weight": (96, 64), "model.norm.weight": (64,)}
    shapes.update({f"model.layers.{k}.mlp.weight": (16, 16) for k in range(4)})
    for name, shape in shapes.items():
        yield name, torch.randn(*shape, generator=gen).to(torch.bfloat16)


def phase(text: str) -> None:
    with open(CFG["phase"], "a") as f:
        f.write(text + "\n")


def wait_all(coord: TCPStore, key: str) -> None:
    coord.set(f"{key}/{ME}", b"1")
    coord.wait([f"{key}/{i}" for i in range(EVERYONE)], datetime.timedelta(seconds=300))


async def sync_once(engine, coord: TCPStore, sync: int, report: dict) -> bool:
    """One weight update; False when a step raised (recorded in the report)."""
    step = "prepare"
    try:
        coord.set(f"{sync}/meta/{ME}", pickle.dumps(engine.prepare()))
        metadata = [pickle.loads(coord.get(f"{sync}/meta/{i}")) for i in range(EVERYONE)]
        actor_kwargs, rollout_kwargs = type(engine).build_topology(TRAINERS, ROLLOUTS, metadata)
        mine = actor_kwargs if ROLE == "trainer" else rollout_kwargs
        kwargs = {k: v[INDEX] for k, v in mine.items()}
        report["ranks"].append(kwargs["rank"])
        step = "init_process_group"
        if sync == 0 and CFG.get("hold"):
            phase("0 held")
            while not os.path.exists(CFG["hold"]):  # the test lets this rank go on by creating the file
                time.sleep(0.1)
        phase(f"{sync} init_process_group")
        engine.init_process_group(**kwargs)
        phase(f"{sync} init_process_group returned")
        step = "send_weights" if ROLE == "trainer" else "receive_weights"
        if ROLE == "trainer":
            await engine.send_weights(weights(sync, GATHER_TIME), global_steps=sync)
        else:
            expected = dict(weights(sync))
            got = {name: t.clone() for name, t in [item async for item in engine.receive_weights(global_steps=sync)]}
            report["received"].append(
                {
                    "names": sorted(got),
                    "equal": set(got) == set(expected)
                    and all(
                        torch.equal(got[n].view(expected[n].dtype).reshape(expected[n].shape), expected[n]) for n in got
                    ),
                }
            )
        wait_all(coord, f"{sync}/sent")
        step = "finalize"
        engine.finalize()
        return True
    except Exception as exc:  # recorded for the test to judge
        report["error"] = {
            "sync": sync,
            "step": step,
            "type": type(exc).__name__,
            "message": str(exc),
            "traceback": traceback.format_exc()[-3000:],
        }
        return False


def wrong_configs() -> dict:
    """What verl raises, on this NPU host, for the two mistakes backends/nccl-hccl shows: ``backend: hccl`` (verl asks
    its registry for the engine by name) and ``multi_sender`` under ``engine_kwargs.nccl`` (passed to the engine's
    constructor as every worker passes engine_kwargs)."""
    out = {}
    for name, call in (
        ("backend_hccl", lambda: CheckpointEngineRegistry.get("hccl")),
        ("multi_sender", lambda: CheckpointEngineRegistry.new("nccl", bucket_size=1024, multi_sender=True)),
    ):
        try:
            call()
            out[name] = None
        except Exception as exc:  # recorded for the test to judge
            out[name] = f"{type(exc).__name__}: {exc}"
    return out


async def main() -> dict:
    host = "127.0.0.1"
    coord = TCPStore(host, CFG["coord_port"], None, ME == 0, datetime.timedelta(seconds=300), wait_for_workers=False)
    engine = CheckpointEngineRegistry.new(
        "nccl", is_master=(ROLE == "trainer" and INDEX == 0), bucket_size=CFG["bucket_size"], **CFG["engine_kwargs"]
    )
    KEEP.append(engine)  # alive until os._exit: its group owns the listening socket of a store still in use
    report = {"engine": type(engine).__name__, "ranks": [], "received": [], "error": None, "syncs_done": 0}
    if ROLE == "trainer" and INDEX == 1:
        report["wrong_configs"] = wrong_configs()
    for sync in range(CFG["syncs"]):
        ok = await sync_once(engine, coord, sync, report)
        coord.set(f"{sync}/ok/{ME}", b"1" if ok else b"0")
        wait_all(coord, f"{sync}/finalized")
        if ok:
            report["syncs_done"] += 1
        if any(coord.get(f"{sync}/ok/{i}") == b"0" for i in range(EVERYONE)):
            break
    wait_all(coord, "exit")
    # the store lives in trainer rank 0: it leaves last, once every other rank is done with it
    if ME == 0:
        coord.wait([f"gone/{i}" for i in range(1, EVERYONE)], datetime.timedelta(seconds=300))
    else:
        coord.set(f"gone/{ME}", b"1")
    return report


if __name__ == "__main__":
    result = asyncio.run(main())
    Path(CFG["out"]).write_text(json.dumps(result))
    sys.stderr.flush()
    os._exit(0)  # skip gloo's teardown at interpreter exit
