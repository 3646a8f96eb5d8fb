"""Run verl 0.9.1's own code for the statements of the install overview (docs/install/index.md) and report what
happened as JSON for tests/test_install_overview_run.py to judge.

Runs in the isolated environment of the startup stage: CPU only, no torch_npu, no vLLM, no cupy. The heavy
libraries verl imports (torch, transformers, ray, …) are imported once here; each case then runs in a forked child,
so a case that blocks a module or replaces the device layer starts from a verl that is not imported yet.

Cases:

- ``device/<state>``: ``verl.utils.device.auto_set_device`` (what ``main_ppo`` calls first) on a config with
  ``trainer.device=npu``: on this host as it is (``no-torch-npu``), with ``VERL_PLATFORM=huawei``
  (``verl-platform-huawei``), and with a stand-in ``torch_npu`` that gives torch a ``torch.npu`` without any device
  (``torch-npu-importable``: the device layer replaced, as on an NPU node whose cards are not visible to this
  process). Reports the device afterwards, the exception, and verl's warnings.
- ``manager``: ``CheckpointEngineManager`` built with ``backend="nccl"`` (what the driver does in
  ``separate_async``) where no engine registers that name: the exception verl raises.
- ``manager/kimi``: the same with ``backend="kimi_ckpt_engine"`` where checkpoint-engine is not installed (as in
  verl's Ascend images): the exception verl raises.
- ``manager/custom-module``: the manager the driver builds in every trainer mode (``backend="naive"``, the rest of
  the config as configured) with ``custom_backend_module`` naming a module this environment does not have: whether
  building it imports that module, and the exception.
- ``v1-imports``: ``import verl.trainer.ppo.v1`` (what ``TaskRunnerV1.run`` imports) with an import hook that
  records every top-level module imported during it; then, for each module of ``CANDIDATES`` that was imported, the
  same import with that module blocked, and whether it still succeeds.

Usage: python probe.py OUT_JSON CANDIDATE_MODULE [...]
"""

from __future__ import annotations

import json
import logging
import os
import sys
import types

import hydra  # noqa: F401  (imported once, before the forks: none of them is a case's subject)
import omegaconf
import ray  # noqa: F401
import torch
import transformers  # noqa: F401


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def _in_child(case) -> dict:
    """``case()`` in a forked child; its dict (or the exception it raised) comes back over a pipe."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            out = case()
        except BaseException as e:  # noqa: BLE001  (the report says what was raised)
            out = {"error": f"{type(e).__name__}: {e}"}
        with os.fdopen(w, "w") as fh:
            fh.write(json.dumps(out))
        os._exit(0)
    os.close(w)
    with os.fdopen(r) as fh:
        data = fh.read()
    os.waitpid(pid, 0)
    return json.loads(data) if data else {"error": "the child wrote nothing"}


def _device(state: str) -> dict:
    records = _Records()
    logging.getLogger().addHandler(records)
    if state == "verl-platform-huawei":
        os.environ["VERL_PLATFORM"] = "huawei"
    if state == "torch-npu-importable":  # a stand-in torch_npu: torch.npu exists, no device behind it
        fake = types.ModuleType("torch_npu")
        npu = types.ModuleType("torch.npu")
        npu.is_available = lambda: False  # type: ignore[attr-defined]
        torch.npu = npu  # type: ignore[attr-defined]
        sys.modules["torch_npu"] = fake
    from verl.utils.device import auto_set_device

    config = omegaconf.OmegaConf.create({"trainer": {"device": "npu"}})
    out: dict = {"warnings": records.lines}
    try:
        auto_set_device(config)
        out["device"] = config.trainer.device
    except Exception as e:  # noqa: BLE001
        out["error"] = f"{type(e).__name__}: {e}"
    return out


# a module name no environment has: what the driver imports when custom_backend_module names it
MISSING_MODULE = "verl_cookbook_custom_backend_not_installed"


def _manager(backend: str = "nccl", custom_backend_module: str | None = None) -> dict:
    from verl.checkpoint_engine import CheckpointEngineManager
    from verl.workers.config import CheckpointEngineConfig

    config = CheckpointEngineConfig(backend=backend, custom_backend_module=custom_backend_module)
    try:
        CheckpointEngineManager(config=config, actor_wg=None, replicas=[])
    except Exception as e:  # noqa: BLE001
        return {"error": f"{type(e).__name__}: {e}"}
    return {"error": None}


def _imported_during_v1() -> dict:
    before = set(sys.modules)
    import verl.trainer.ppo.v1  # noqa: F401

    return {"imported": sorted({m.split(".")[0] for m in set(sys.modules) - before})}


def _v1_with(blocked: str) -> dict:
    sys.modules[blocked] = None  # type: ignore[assignment]  # Python's own way to make an import fail
    try:
        import verl.trainer.ppo.v1  # noqa: F401
    except ImportError as e:
        return {"imports": False, "error": str(e)}
    return {"imports": True}


def main() -> None:
    out_path, candidates = sys.argv[1], sys.argv[2:]
    report: dict = {}
    for state in ("no-torch-npu", "verl-platform-huawei", "torch-npu-importable"):
        report[f"device/{state}"] = _in_child(lambda state=state: _device(state))
    report["manager"] = _in_child(_manager)
    report["manager/kimi"] = _in_child(lambda: _manager("kimi_ckpt_engine"))
    report["manager/custom-module"] = _in_child(lambda: _manager("naive", MISSING_MODULE))
    imported = _in_child(_imported_during_v1)
    report["v1-imports"] = {
        "imported": imported.get("imported", []),
        "error": imported.get("error"),
        "blocked": {
            mod: _in_child(lambda mod=mod: _v1_with(mod)) for mod in candidates if mod in imported.get("imported", [])
        },
    }
    with open(out_path, "w", encoding="utf-8") as fh:
        json.dump(report, fh, indent=1)


if __name__ == "__main__":
    main()
