"""Three reports about verl's NPU platform code (troubleshooting page), held by runs of verl 0.9.1 in the startup
environment with the device layer replaced (tests/npu_run/platform_run.py):

- verl #6773: ``npu-smi info -t board -i 1`` exiting 215 when the workers start. ``PlatformNPU.is_ipc_supported``
  runs with a fake ``npu-smi`` that knows only the cards it is given: verl asks for card 1; when that fails it
  retries with the first device in ASCEND_VISIBLE_DEVICES, and without that variable the failure stops the check.
- verl #6741: the warning that the platform is "registered but not available", from a process without an NPU.
- ray #55137: the Ray resource verl's placement-group bundles ask for, `NPU` only in a process where torch_npu
  imports (a stand-in module here), `GPU` otherwise, and `VERL_PLATFORM=huawei` no substitute for torch_npu."""

from __future__ import annotations

import json
import os
import platform
import stat
import subprocess
from pathlib import Path

from tests import helpers
from tests.conftest import REPO

RUN = Path(__file__).parent / "npu_run" / "platform_run.py"
PAGES = [REPO / "docs" / "recipes" / f"troubleshooting{s}.md" for s in ("", ".en")]

FAKE_NPU_SMI = """#!/bin/sh
# npu-smi as a node with the cards in $FAKE_CARDS has it: board info for those, exit 215 for any other
echo "$5" >> "$FAKE_ASKED"
for card in $FAKE_CARDS; do
  if [ "$5" = "$card" ]; then printf 'NPU ID : %s\\nSoftware Version : 25.3.rc1.2\\n' "$card"; exit 0; fi
done
echo "Error: the device $5 does not exist" >&2
exit 215
"""


def _versions(tmp_path: Path, cards: str, visible: str | None) -> dict:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    fake = bin_dir / "npu-smi"
    fake.write_text(FAKE_NPU_SMI, encoding="utf-8")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    toolkit = tmp_path / "toolkit"
    (toolkit / f"{platform.machine()}-linux").mkdir(parents=True, exist_ok=True)
    (toolkit / f"{platform.machine()}-linux" / "ascend_toolkit_install.info").write_text("version=8.5.0\n")
    env = {k: v for k, v in os.environ.items() if k != "ASCEND_VISIBLE_DEVICES"}
    env.update(
        PATH=f"{bin_dir}:{env['PATH']}",
        FAKE_CARDS=cards,
        FAKE_ASKED=str(tmp_path / "asked"),
        ASCEND_HOME_PATH=str(toolkit),
        OMP_NUM_THREADS="1",
    )
    if visible is not None:
        env["ASCEND_VISIBLE_DEVICES"] = visible
    r = subprocess.run(
        [helpers.startup_python("0.9.1"), str(RUN), "ipc"], capture_output=True, text=True, env=env, timeout=300
    )
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


SAID = (
    "RuntimeError: Failed to execute npu-smi command: Command '['npu-smi', 'info', '-t', 'board', '-i', '1']' "
    "returned non-zero exit status 215."
)


def test_without_card_1_and_without_ascend_visible_devices_the_ipc_check_fails_on_npu_smis_exit_215(
    tmp_path: Path,
) -> None:
    got = _versions(tmp_path, cards="4 5", visible=None)
    assert f"{got['error']['type']}: {got['error']['message']}" == SAID
    for page in PAGES:
        assert SAID in page.read_text(encoding="utf-8"), page


def test_with_ascend_visible_devices_naming_a_card_the_node_has_the_ipc_check_reads_that_card(tmp_path: Path) -> None:
    got = _versions(tmp_path, cards="4 5", visible="4,5")
    assert got["error"] is None, got  # it got past npu-smi, read the software version and CANN's, and decided
    assert (tmp_path / "asked").read_text().split() == ["1", "4"]  # card 1 first, then the first visible device


def test_a_node_with_card_1_needs_no_variable(tmp_path: Path) -> None:
    assert _versions(tmp_path, cards="0 1", visible=None)["error"] is None


WARNING = (
    "Platform 'huawei' (PlatformNPU) is registered but not available. "
    "This may be due to this ray actor being a CPU-only actor."
)


def test_a_process_without_an_npu_logs_that_the_platform_is_not_available_and_goes_on() -> None:
    r = subprocess.run(
        [helpers.startup_python("0.9.1"), str(RUN), "available"], capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, r.stderr[-3000:]
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got["platform"] == "PlatformNPU" and got["log"] == [f"WARNING {WARNING}"]
    for page in PAGES:
        assert WARNING in page.read_text(encoding="utf-8"), page


def _ray_resource(*args: str, **env: str) -> dict:
    """The resource name verl's placement-group bundles ask Ray for, in a process like the TaskRunner."""
    environ = {k: v for k, v in os.environ.items() if k != "VERL_PLATFORM"} | env | {"OMP_NUM_THREADS": "1"}
    r = subprocess.run(
        [helpers.startup_python("0.9.1"), str(RUN), "resource", *args],
        capture_output=True,
        text=True,
        env=environ,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_where_torch_npu_imports_the_ray_resource_verl_names_is_npu() -> None:
    assert _ray_resource("torch_npu") == {"resource": "NPU", "error": None}


def test_where_torch_npu_does_not_import_the_ray_resource_verl_names_is_gpu() -> None:
    assert _ray_resource() == {"resource": "GPU", "error": None}


def test_verl_platform_huawei_does_not_replace_torch_npu() -> None:
    got = _ray_resource(VERL_PLATFORM="huawei")
    assert got["error"] == {"type": "AttributeError", "message": "module 'torch' has no attribute 'npu'"}, got
