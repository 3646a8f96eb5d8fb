"""Run verl's NPU platform code (verl/plugin/platform/) in the startup environment, with the device layer replaced,
and print what happened as JSON. torch_npu is absent here.

``ipc``: ``PlatformNPU().is_ipc_supported()``, the check that asks ``npu-smi`` for the board's software version
(``verl.utils.device.get_npu_versions``), under whatever fake ``npu-smi`` (first on PATH), ASCEND_VISIBLE_DEVICES and
ASCEND_HOME_PATH the test gives. ``available``: ``platform_manager._create_platform("huawei")`` in a process whose
``torch.npu.is_available()`` is False (a Ray actor without an NPU), with verl's warnings captured.
Usage: python platform_run.py ipc|available
"""

from __future__ import annotations

import io
import json
import logging
import sys
import types

import torch

mode = sys.argv[1]
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
