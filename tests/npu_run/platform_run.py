"""Run verl's NPU platform code (verl/plugin/platform/) in the startup environment, with the device layer replaced,
and print what happened as JSON. torch_npu is absent here.

``ipc``: ``PlatformNPU().is_ipc_supported()``, the check that asks ``npu-smi`` for the board's software version
(``verl.utils.device.get_npu_versions``), under whatever fake ``npu-smi`` (first on PATH), ASCEND_VISIBLE_DEVICES and
ASCEND_HOME_PATH the test gives. ``available``: ``platform_manager._create_platform("huawei")`` in a process whose
``torch.npu.is_available()`` is False (a Ray actor without an NPU), with verl's warnings captured.
``resource``: the Ray resource name verl asks placement groups for (``get_platform().ray_resource_name()``, what
``RayResourcePool.get_placement_groups`` puts in each bundle) in a process where torch_npu imports (a stand-in module
that gives ``torch`` an ``npu`` attribute, the one thing verl's detection looks for) or not, with whatever
``VERL_PLATFORM`` the test gives.
Usage: python platform_run.py ipc|available|resource [torch_npu]
       python platform_run.py cases CASES.json: each case ``{"args": [...], "env": {...}, "out": path}`` in a process
       of its own, forked after ``import torch`` (the first thing every mode does, before anything a case sets) with
       the case's environment, its JSON written to ``out`` and its exit status to ``out`` + ``.status``: one torch
       import for every case instead of one each.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import sys
import traceback
import types

import torch


def main(argv: list[str]) -> None:
    mode = argv[1]
    if mode == "ipc":
        from verl.plugin.platform.platform_npu import PlatformNPU

        try:
            result = PlatformNPU().is_ipc_supported()
            print(json.dumps({"error": None, "ipc": result}))
        except Exception as e:  # what a user sees is the point
            print(json.dumps({"error": {"type": type(e).__name__, "message": str(e)}}))
    elif mode == "available":
        torch.npu = types.SimpleNamespace(is_available=lambda: False)  # type: ignore[attr-defined]
        from verl.plugin.platform.platform_manager import _create_platform

        log = io.StringIO()
        handler = logging.StreamHandler(log)
        handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
        logging.getLogger("verl").addHandler(handler)
        platform = _create_platform("huawei")
        print(json.dumps({"platform": type(platform).__name__, "log": log.getvalue().splitlines()}))
    elif mode == "resource":
        if argv[2:] == ["torch_npu"]:  # a stand-in: importing it gives torch an ``npu`` attribute, as torch_npu does
            stand_in = types.ModuleType("torch_npu")
            torch.npu = types.SimpleNamespace(is_available=lambda: False)  # type: ignore[attr-defined]
            sys.modules["torch_npu"] = stand_in
        from verl.plugin.platform.platform_manager import get_platform

        try:
            print(json.dumps({"resource": get_platform().ray_resource_name(), "error": None}))
        except Exception as e:
            print(json.dumps({"resource": None, "error": {"type": type(e).__name__, "message": str(e)}}))


def run_cases(path: str) -> None:
    for case in json.loads(open(path, encoding="utf-8").read()):
        pid = os.fork()
        if pid == 0:  # the case's process: its environment, its stdout, then what its mode does
            code = 0
            try:
                os.environ.clear()
                os.environ.update(case["env"])
                with open(case["out"], "w", encoding="utf-8") as out, contextlib.redirect_stdout(out):
                    main([sys.argv[0], *case["args"]])
            except BaseException:
                traceback.print_exc()
                code = 1
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        with open(case["out"] + ".status", "w", encoding="utf-8") as f:
            f.write(str(os.waitstatus_to_exitcode(status)))


if __name__ == "__main__":
    if sys.argv[1] == "cases":
        run_cases(sys.argv[2])
    else:
        main(sys.argv)
