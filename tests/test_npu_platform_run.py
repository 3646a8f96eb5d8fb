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
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests import helpers
from tests.conftest import REPO

RUN = Path(__file__).parent / "npu_run" / "platform_run.py"
PAGES = [REPO / "docs" / "recipes" / f"troubleshooting{s}.md" for s in ("", ".en")]

FAKE_NPU_SMI = """#!/bin/sh
# npu-smi as a node with the cards in $FAKE_CARDS has it: board info for those, exit 215 for any other
echo "$5" >> "$FAKE_ASKED"
for card in $FAKE_CARDS; do
  if [ "$5" = "$card" ]; then printf 'NPU ID : %s\\nSoftware Version : %s\\n' "$card" "$FAKE_SOFTWARE"; exit 0; fi
done
echo "Error: the device $5 does not exist" >&2
exit 215
"""


def _ipc_case(
    folder: Path,
    cards: str,
    visible: str | None,
    software: str = "25.3.rc1.2",
    cann: str | None = "8.5.0",
    arch_folder: bool = True,
) -> dict:
    """The ``ipc`` run on a node with ``cards`` (a fake ``npu-smi`` first on PATH that reports driver ``software``,
    a CANN install info of version ``cann`` under ASCEND_HOME_PATH: no info file when ``cann`` is None, not even
    the ``<arch>-linux`` folder without ``arch_folder``), ASCEND_VISIBLE_DEVICES set to ``visible`` or unset; the
    cards it asked for go to ``folder/asked``."""
    bin_dir = folder / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    fake = bin_dir / "npu-smi"
    fake.write_text(FAKE_NPU_SMI, encoding="utf-8")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    toolkit = folder / "toolkit"
    toolkit.mkdir(parents=True, exist_ok=True)
    if arch_folder:
        (toolkit / f"{platform.machine()}-linux").mkdir(parents=True, exist_ok=True)
    if arch_folder and cann is not None:
        (toolkit / f"{platform.machine()}-linux" / "ascend_toolkit_install.info").write_text(f"version={cann}\n")
    env = {k: v for k, v in os.environ.items() if k != "ASCEND_VISIBLE_DEVICES"}
    env.update(
        PATH=f"{bin_dir}:{env['PATH']}",
        FAKE_CARDS=cards,
        FAKE_ASKED=str(folder / "asked"),
        FAKE_SOFTWARE=software,
        ASCEND_HOME_PATH=str(toolkit),
        OMP_NUM_THREADS="1",
    )
    if visible is not None:
        env["ASCEND_VISIBLE_DEVICES"] = visible
    return {"args": ["ipc"], "env": env}


def _resource_case(*args: str, **env: str) -> dict:
    """The resource name verl's placement-group bundles ask Ray for, in a process like the TaskRunner."""
    environ = {k: v for k, v in os.environ.items() if k != "VERL_PLATFORM"} | env | {"OMP_NUM_THREADS": "1"}
    return {"args": ["resource", *args], "env": environ}


@dataclass
class Runs:
    status: dict[str, int]  # each case's exit status
    printed: dict[str, dict]  # the JSON each case printed last
    stderr: str  # every case's stderr
    env: dict[str, dict[str, str]]  # the environment each case ran in


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Runs:
    """Every case of this file, each in a verl process of its own with its own environment: one run of
    platform_run.py forks them after ``import torch`` (which every case does first, before anything it sets), instead
    of seven interpreters importing torch each."""
    base = tmp_path_factory.mktemp("npu-platform-run")
    cases = {
        "no card 1, no variable": _ipc_case(base / "ipc-no-variable", cards="4 5", visible=None),
        "no card 1, visible 4,5": _ipc_case(base / "ipc-visible", cards="4 5", visible="4,5"),
        "card 1": _ipc_case(base / "ipc-card-1", cards="0 1", visible=None),
        "no arch folder": _ipc_case(base / "ipc-no-arch", cards="0 1", visible=None, arch_folder=False),
        "no info file": _ipc_case(base / "ipc-no-info", cards="0 1", visible=None, cann=None),
        "old driver": _ipc_case(base / "ipc-old-driver", cards="0 1", visible=None, software="24.1.rc3"),
        "old CANN": _ipc_case(base / "ipc-old-cann", cards="0 1", visible=None, cann="8.2.RC1"),
        "available": {"args": ["available"], "env": dict(os.environ)},
        "resource, torch_npu": _resource_case("torch_npu"),
        "resource": _resource_case(),
        "resource, VERL_PLATFORM=huawei": _resource_case(VERL_PLATFORM="huawei"),
    }
    for n, case in enumerate(cases.values()):
        case["out"] = str(base / f"case-{n}.json")
    (base / "cases.json").write_text(json.dumps(list(cases.values())), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("ASCEND_VISIBLE_DEVICES", "VERL_PLATFORM")}
    r = subprocess.run(
        [helpers.startup_python("0.9.1"), str(RUN), "cases", str(base / "cases.json")],
        capture_output=True,
        text=True,
        env=env | {"OMP_NUM_THREADS": "1"},
        timeout=900,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    got = Runs({}, {}, r.stderr, {name: case["env"] for name, case in cases.items()})
    for name, case in cases.items():
        got.status[name] = int(Path(case["out"] + ".status").read_text())
        lines = Path(case["out"]).read_text(encoding="utf-8").strip().splitlines()
        got.printed[name] = json.loads(lines[-1]) if lines else {}
    return got


def _result(runs: Runs, name: str) -> dict:
    assert runs.status[name] == 0, f"{name}: exit {runs.status[name]}\n{runs.stderr[-3000:]}"
    return runs.printed[name]


SAID = (
    "RuntimeError: Failed to execute npu-smi command: Command '['npu-smi', 'info', '-t', 'board', '-i', '1']' "
    "returned non-zero exit status 215."
)


def test_without_card_1_and_without_ascend_visible_devices_the_ipc_check_fails_on_npu_smis_exit_215(runs) -> None:
    got = _result(runs, "no card 1, no variable")
    assert f"{got['error']['type']}: {got['error']['message']}" == SAID
    for page in PAGES:
        assert SAID in page.read_text(encoding="utf-8"), page


def test_with_ascend_visible_devices_naming_a_card_the_node_has_the_ipc_check_reads_that_card(runs) -> None:
    got = _result(runs, "no card 1, visible 4,5")
    assert got["error"] is None, got  # it got past npu-smi, read the software version and CANN's, and decided
    asked = Path(runs.env["no card 1, visible 4,5"]["FAKE_ASKED"])
    assert asked.read_text().split() == ["1", "4"]  # card 1 first, then the first visible device


def test_a_node_with_card_1_needs_no_variable(runs) -> None:
    assert _result(runs, "card 1")["error"] is None


WARNING = (
    "Platform 'huawei' (PlatformNPU) is registered but not available. "
    "This may be due to this ray actor being a CPU-only actor."
)


def test_a_process_without_an_npu_logs_that_the_platform_is_not_available_and_goes_on(runs) -> None:
    got = _result(runs, "available")
    assert got["platform"] == "PlatformNPU" and got["log"] == [f"WARNING {WARNING}"]
    for page in PAGES:
        assert WARNING in page.read_text(encoding="utf-8"), page


def test_where_torch_npu_imports_the_ray_resource_verl_names_is_npu(runs) -> None:
    assert _result(runs, "resource, torch_npu") == {"resource": "NPU", "error": None}


def test_where_torch_npu_does_not_import_the_ray_resource_verl_names_is_gpu(runs) -> None:
    assert _result(runs, "resource") == {"resource": "GPU", "error": None}


def test_verl_platform_huawei_does_not_replace_torch_npu(runs) -> None:
    got = _result(runs, "resource, VERL_PLATFORM=huawei")
    assert got["error"] == {"type": "AttributeError", "message": "module 'torch' has no attribute 'npu'"}, got


def test_without_the_cann_arch_folder_under_ascend_home_path_the_ipc_check_fails(runs) -> None:
    got = _result(runs, "no arch folder")
    folder = Path(runs.env["no arch folder"]["ASCEND_HOME_PATH"]) / f"{platform.machine()}-linux"
    said = "Error checking IPC support: CANN toolkit path does not exist: "
    assert got["error"] == {"type": "RuntimeError", "message": f"{said}{folder}"}, got
    for page in PAGES:
        assert said in page.read_text(encoding="utf-8"), page


def test_without_ascend_toolkit_install_info_the_ipc_check_fails(runs) -> None:
    got = _result(runs, "no info file")
    info = (
        Path(runs.env["no info file"]["ASCEND_HOME_PATH"])
        / f"{platform.machine()}-linux"
        / "ascend_toolkit_install.info"
    )
    said = "Error checking IPC support: CANN toolkit info file does not exist: "
    assert got["error"] == {"type": "RuntimeError", "message": f"{said}{info}"}, got
    for page in PAGES:
        assert said in page.read_text(encoding="utf-8"), page


def test_a_driver_and_cann_new_enough_count_as_ipc_support(runs) -> None:
    assert _result(runs, "card 1") == {"error": None, "ipc": True}  # driver 25.3.rc1.2, CANN 8.5.0


def test_a_driver_before_25_3_rc1_or_a_cann_before_8_3_rc1_count_as_no_ipc_support_without_an_error(runs) -> None:
    assert _result(runs, "old driver") == {"error": None, "ipc": False}  # driver 24.1.rc3, CANN 8.5.0
    assert _result(runs, "old CANN") == {"error": None, "ipc": False}  # driver 25.3.rc1.2, CANN 8.2.RC1
