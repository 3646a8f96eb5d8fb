"""The install overview (docs/install/index.md) held by runs of verl 0.9.1's own code.

tests/install_overview_run/probe.py runs in the isolated environment of the startup stage (CPU only: no torch_npu,
no vLLM, no cupy), once for the module, and reports as JSON: what ``auto_set_device`` makes of ``trainer.device=npu``
on a host without torch_npu, with ``VERL_PLATFORM=huawei``, and with a stand-in torch_npu (the device layer
replaced); the error a ``CheckpointEngineManager`` raises for a backend no engine registers; and which packages of
verl's ``verl-core`` extra the v1 trainer's driver cannot import without. The page's snippet
``list_registered_backends.sh`` runs there too, as a reader runs it. This process reads the JSON only.

Statements on the page that a test here holds carry ``<!-- run: test_install_overview_run.py::<test> -->`` beside
them (CONTRIBUTING.md, "Statements held by a run"); the last tests keep those markers and the tests in step.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests import helpers
from tests.conftest import REPO

VERSION = "0.9.1"
PROBE = Path(__file__).parent / "install_overview_run" / "probe.py"
PAGES = (REPO / "docs" / "install" / "index.md", REPO / "docs" / "install" / "index.en.md")
SNIPPETS = REPO / "snippets" / "install"
MARKER = re.compile(r"<!-- run: (test_install_overview_run\.py)::(\w+) -->")
# the import name of each package that verl 0.9.1 lists under its verl-core extra and not among its own
# dependencies (a test below keeps this in step with the wheel's metadata)
VERL_CORE_ONLY = {
    "transferqueue": "transfer_queue",
    "pyzmq": "zmq",
    "msgspec": "msgspec",
    "fastapi": "fastapi",
    "uvicorn": "uvicorn",
    "mathruler": "mathruler",
    "qwen-vl-utils": "qwen_vl_utils",
    "torchcodec": "torchcodec",
    "cachetools": "cachetools",
    "nvtx": "nvtx",
    "pytest": "pytest",
    "pytest-asyncio": "pytest_asyncio",
    "pytest-rerunfailures": "pytest_rerunfailures",
}


def _env() -> dict[str, str]:
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    env.pop("VERL_PLATFORM", None)
    env.setdefault("OMP_NUM_THREADS", "1")
    return env


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> dict:
    python = helpers.startup_python(VERSION)
    out = tmp_path_factory.mktemp("install-overview-run") / "report.json"
    done = subprocess.run(
        [python, str(PROBE), str(out), *VERL_CORE_ONLY.values()],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=900,
    )
    assert done.returncode == 0, f"probe.py failed ({done.returncode}):\n{done.stderr[-4000:]}"
    report = json.loads(out.read_text(encoding="utf-8"))
    # the page's own snippet, as a reader runs it: python3 is the startup environment's
    snippet = (SNIPPETS / "list_registered_backends.sh").read_text(encoding="utf-8")
    env = dict(_env(), PATH=f"{Path(python).parent}:{os.environ.get('PATH', '')}")
    listed = subprocess.run(["bash", "-e", "-c", snippet], capture_output=True, text=True, env=env, timeout=600)
    assert listed.returncode == 0, listed.stderr[-2000:]
    report["_listed"] = listed.stdout
    return report


def _page_says(text: str) -> None:
    """Both languages state ``text`` (a message, a value): what the run is held to."""
    for page in PAGES:
        assert text in page.read_text(encoding="utf-8"), f"{page.name} no longer says {text!r}"


# -- the launch host ------------------------------------------------------------------------------------------
def test_a_launch_host_without_torch_npu_turns_trainer_device_npu_into_cuda(run):
    case = run["device/no-torch-npu"]
    assert case.get("device") == "cuda", case
    warning = "Detect setting config.trainer.device to npu for cuda, automatically set to `cuda` instead."
    assert warning in case["warnings"]
    _page_says(warning)


def test_verl_platform_huawei_does_not_help_a_host_without_torch_npu(run):
    case = run["device/verl-platform-huawei"]
    assert case.get("error") == "AttributeError: module 'torch' has no attribute 'npu'", case
    _page_says("VERL_PLATFORM=huawei")
    _page_says("AttributeError")


def test_a_launch_host_where_torch_npu_imports_keeps_trainer_device_npu(run):
    """With torch.npu present and no card visible (the device layer replaced by a stand-in torch_npu)."""
    case = run["device/torch-npu-importable"]
    assert case.get("device") == "npu" and "error" not in case, case


# -- what the driver asks of the registry ---------------------------------------------------------------------
def test_a_backend_no_engine_registers_stops_the_manager_naming_each_module_that_failed(run):
    error = run["manager"]["error"]
    assert error.startswith("ValueError: Checkpoint engine nccl not registered, registered backends: ['naive']")
    assert ". Engine modules that failed to import: " in error
    assert "hccl_checkpoint_engine: No module named 'vllm'" in error  # its first import after zmq
    assert "nixl_checkpoint_engine: No module named 'cupy'" in error
    assert "delta_checkpoint_engine: No module named 'cupy'" in error
    _page_says("Checkpoint engine nccl not registered, registered backends:")
    _page_says("Engine modules that failed to import")


def test_without_checkpoint_engine_the_kimi_backend_does_not_register(run):
    """rev50a-1: verl's Ascend images install no checkpoint-engine; the kimi engine module imports it at load time,
    so the backend does not register and the manager names the missing module."""
    error = run["manager/kimi"]["error"]
    assert error.startswith("ValueError: Checkpoint engine kimi_ckpt_engine not registered"), error
    assert "kimi_checkpoint_engine: No module named 'checkpoint_engine'" in error
    assert "not imported: kimi_checkpoint_engine -> No module named 'checkpoint_engine'" in run["_listed"].splitlines()
    _page_says("Checkpoint engine kimi_ckpt_engine not registered")
    _page_says("kimi_checkpoint_engine: No module named 'checkpoint_engine'")


def test_the_pages_registry_snippet_lists_what_registers_and_why_the_others_did_not(run):
    lines = run["_listed"].splitlines()
    assert lines[0] == "registered: ['naive']", lines
    assert "not imported: hccl_checkpoint_engine -> No module named 'vllm'" in lines
    assert "not imported: nccl_checkpoint_engine -> No module named 'cupy'" in lines
    _page_says("registered: ['naive']")


def test_the_driver_imports_custom_backend_module_when_it_builds_the_manager(run):
    """rev50a-3: the manager the v1 trainer builds in the driver in every mode (backend switched to ``naive``, the
    rest of the config kept) imports ``custom_backend_module`` first, so a module missing there stops the job."""
    error = run["manager/custom-module"]["error"]
    assert error == "ModuleNotFoundError: No module named 'verl_cookbook_custom_backend_not_installed'", error
    _page_says("ModuleNotFoundError")


# -- what the v1 trainer's driver imports from verl-core ------------------------------------------------------
def _snippet_installs() -> set[str]:
    """The distributions verl_on_ascend.sh installs beside verl itself."""
    text = (SNIPPETS / "verl_on_ascend.sh").read_text(encoding="utf-8")
    names: set[str] = set()
    for line in text.splitlines():
        words = line.split("#")[0].split()
        if words[:4] == ["python3", "-m", "pip", "install"]:
            names |= {canonicalize_name(Requirement(w.strip("'\"")).name) for w in words[4:] if "verl" not in w}
    return names


def test_the_list_of_verl_core_only_packages_is_the_wheels():
    wheel = json.loads((REPO / "verl_cookbook" / "snapshots" / "wheel_facts.json").read_text("utf-8"))
    reqs = [Requirement(r) for r in wheel["wheels"]["verl==0.9.1"]["requires_dist"]]
    base = {canonicalize_name(r.name) for r in reqs if r.marker is None}
    core = {canonicalize_name(r.name) for r in reqs if r.marker and r.marker.evaluate({"extra": "verl-core"})}
    assert set(VERL_CORE_ONLY) == core - base


def test_the_v1_trainer_needs_these_verl_core_packages_and_the_snippet_installs_exactly_them(run):
    v1 = run["v1-imports"]
    assert v1["error"] is None, v1["error"]
    needed = {dist for dist, mod in VERL_CORE_ONLY.items() if v1["blocked"].get(mod, {}).get("imports") is False}
    assert needed == {"transferqueue", "pyzmq", "msgspec", "cachetools", "fastapi", "uvicorn"}
    assert _snippet_installs() == needed
    # every one imported without a guard: blocking it stops the import of the v1 trainer
    assert all(v1["blocked"][VERL_CORE_ONLY[d]]["error"].startswith("import of ") for d in needed)


# -- the markers on the page and the tests here ---------------------------------------------------------------
def _markers(page: Path) -> list[str]:
    return [name for _file, name in MARKER.findall(page.read_text(encoding="utf-8"))]


def _tests_here() -> set[str]:
    return {n for n in dir(sys.modules[__name__]) if n.startswith("test_")}


NOT_PAGE_STATEMENTS = {  # tests about the input or about the markers, not a statement of the page
    "test_the_list_of_verl_core_only_packages_is_the_wheels",
    "test_every_run_marker_on_the_page_names_a_test_here",
    "test_both_languages_mark_the_same_statements_in_the_same_order",
    "test_every_test_that_holds_a_statement_is_marked_on_the_page",
}


def test_every_run_marker_on_the_page_names_a_test_here():
    for page in PAGES:
        markers = set(_markers(page))
        assert markers, f"{page.name}: no statement is marked as held by a run"
        assert markers <= _tests_here() - NOT_PAGE_STATEMENTS, f"{page.name}: no such test: {markers - _tests_here()}"


def test_both_languages_mark_the_same_statements_in_the_same_order():
    assert _markers(PAGES[0]) == _markers(PAGES[1])


def test_every_test_that_holds_a_statement_is_marked_on_the_page():
    unmarked = _tests_here() - NOT_PAGE_STATEMENTS - set(_markers(PAGES[0]))
    assert not unmarked, f"tests that hold no marked statement: {sorted(unmarked)}"
