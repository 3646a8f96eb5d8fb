"""What verl 0.9.1 does with ``trainer.device=npu`` on the host that launches ``main_ppo``, held by running it.

``verl.trainer.main_ppo.main`` first calls ``auto_set_device(config)`` (main_ppo.py:174), which replaces
``trainer.device`` by the platform verl detects on that host. The function runs here, unchanged, in the startup
environment (verl 0.9.1, CPU-only torch, no torch_npu): as on a launch host without torch_npu. With
tests/device_run/torch_npu_stub on the path it runs as on a host where torch_npu is installed but no NPU is visible.
Statements on backends/nccl-hccl carry ``<!-- run: test_auto_set_device_run.py::<test> -->``.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests import helpers
from tests.conftest import REPO

HERE = Path(__file__).parent / "device_run"
PAGES = (REPO / "docs/backends/nccl-hccl.md", REPO / "docs/backends/nccl-hccl.en.md")


def _auto_set_device(device: str, **env: str) -> tuple[dict, str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("VERL_PLATFORM", "PYTHONPATH")}
    environ.update(env)
    r = subprocess.run(
        [helpers.startup_python("0.9.1"), str(HERE / "auto_set_device.py"), device],
        capture_output=True, text=True, env=environ, timeout=600,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1]), r.stderr


def test_without_torch_npu_an_explicit_npu_device_becomes_cuda_with_a_warning():
    result, log = _auto_set_device("npu")
    assert result == {"device": "cuda"}
    assert "Detect setting config.trainer.device to npu for cuda, automatically set to `cuda` instead." in log
    for page in PAGES:
        assert "automatically set to `cuda` instead" in page.read_text(encoding="utf-8"), page.name


def test_verl_platform_huawei_without_torch_npu_fails_with_attribute_error():
    result, _log = _auto_set_device("npu", VERL_PLATFORM="huawei")
    assert result == {"error": "AttributeError", "message": "module 'torch' has no attribute 'npu'"}


def test_where_torch_npu_imports_the_npu_device_is_kept_even_with_no_npu_visible():
    result, _log = _auto_set_device("npu", PYTHONPATH=str(HERE / "torch_npu_stub"))
    assert result == {"device": "npu"}
