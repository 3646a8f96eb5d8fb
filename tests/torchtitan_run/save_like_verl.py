"""Call torchtitan's checkpointer the way verl 0.9.1's TorchTitan engine calls it, and report what lands on disk.

Runs in the environment scripts/torchtitan_env.sh builds (the startup environment's torch and verl, plus
torchtitan), never in pytest's process. Nothing here restates verl: the ``CheckpointManager.Config(...)``
expression of ``TorchTitanEngine.__init__`` and the bodies of ``TorchTitanEngine.save_checkpoint`` and
``load_checkpoint`` are read from verl's installed source with ``ast`` and run as they are, on a stand-in engine
that holds only what those bodies touch (``checkpointer``, ``module``, the offload flags). verl's module itself
cannot be imported with the torchtitan on the package index: it imports ``torchtitan.components.lr_scheduler``
(a nightly's layout; torchtitan 0.3.0 moved it), so the methods are taken from its source instead.

The checkpointer is torchtitan's own ``CheckpointManager`` built from that config, on one CPU rank (gloo), for a
tiny model and its torchtitan optimizer container. The driver's part of a verl save, ``data.pt`` in
``global_step_N/``, is written as the trainer writes it (an empty file stands for it) before each load.

Usage: python save_like_verl.py OUT_DIR REPORT_JSON
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import sys
import typing
from pathlib import Path
from types import SimpleNamespace

import torch
import torch.distributed as dist
from torch import nn
from torchtitan.components.checkpoint import CheckpointManager
from torchtitan.components.optimizer import OptimizersContainer, ParamGroupConfig

SPEC = importlib.util.find_spec("verl")
assert SPEC and SPEC.submodule_search_locations
ENGINE = Path(SPEC.submodule_search_locations[0]) / "workers" / "engine" / "torchtitan" / "transformer_impl.py"
SAVED_AT = (1, 2, 500, 501, 1000, 1500)  # the global steps verl saves at in this run
MAX_CKPT_TO_KEEP = 2


def _engine_class() -> ast.ClassDef:
    tree = ast.parse(ENGINE.read_text(encoding="utf-8"), filename=str(ENGINE))
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "TorchTitanEngine")


def verl_method(name: str):
    """``TorchTitanEngine.<name>`` compiled from verl's file (tracebacks name verl's lines)."""
    fn = next(n for n in _engine_class().body if isinstance(n, ast.FunctionDef) and n.name == name)
    namespace = {"os": os, "re": re, "torch": torch, "Optional": typing.Optional}
    exec(compile(ast.Module(body=[fn], type_ignores=[]), str(ENGINE), "exec"), namespace)
    return namespace[name]


def verl_checkpoint_config(model_path: str) -> CheckpointManager.Config:
    """The ``checkpoint = CheckpointManager.Config(...)`` of verl's ``__init__``, evaluated."""
    init = next(n for n in _engine_class().body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    assign = next(
        n
        for n in ast.walk(init)
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "checkpoint" for t in n.targets)
    )
    code = compile(ast.Expression(body=assign.value), str(ENGINE), "eval")
    return eval(code, {"CheckpointManager": CheckpointManager, "model_config": SimpleNamespace(path=model_path)})


def main(out: Path, report_json: Path) -> None:
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(29500 + os.getpid() % 1000))
    dist.init_process_group("gloo", rank=0, world_size=1)
    model = nn.Linear(4, 4)
    optimizers = OptimizersContainer(
        OptimizersContainer.Config(
            param_groups=[ParamGroupConfig(pattern=r".*", optimizer_name="AdamW", optimizer_kwargs={"lr": 1e-3})],
            implementation="for-loop",
        ),
        model_parts=[model],
    )
    config = verl_checkpoint_config(str(out / "hf_model"))

    def checkpointer() -> CheckpointManager:
        return CheckpointManager(
            config, dataloader=None, model_parts=[model], optimizers=optimizers, lr_schedulers=None, states={},
            sd_adapter=None,
        )  # fmt: skip

    engine = SimpleNamespace(checkpointer=checkpointer(), module=[model])
    engine._is_offload_param = engine._is_offload_optimizer = False
    save, load = verl_method("save_checkpoint"), verl_method("load_checkpoint")
    for step in SAVED_AT:
        actor = out / f"global_step_{step}" / "actor"
        save(engine, local_path=str(actor), global_step=step, max_ckpt_to_keep=MAX_CKPT_TO_KEEP)
    engine.checkpointer.close()  # joins the purge thread, so every deletion it was asked for is done

    written = sorted(str(p.relative_to(out)) for p in out.glob("global_step_*/*"))
    loads = {}
    engine.checkpointer = checkpointer()
    for step in SAVED_AT:
        folder = out / f"global_step_{step}"
        folder.mkdir(exist_ok=True)
        (folder / "data.pt").touch()  # the driver's dataloader state, written after every worker save
        try:
            load(engine, local_path=str(folder / "actor"))
            loads[step] = None
        except Exception as e:  # what resume ends with is the point: record it
            loads[step] = {"type": type(e).__name__, "message": str(e)}
    engine.checkpointer.close()
    dist.destroy_process_group()
    report = {
        "interval": config.interval,
        "saved_at": list(SAVED_AT),
        "max_ckpt_to_keep": MAX_CKPT_TO_KEEP,
        "written": written,
        "loads": {str(k): v for k, v in loads.items()},
    }
    report_json.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
