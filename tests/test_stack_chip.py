"""vllm-ascend's wheel on PyPI is compiled for one chip family: on Atlas A3 and Ascend 950 the plan builds it on the
node. Proved by running vllm-ascend's own device check, taken from the wheel the plan names, with the NPU replaced."""

from __future__ import annotations

import ast
import enum
import json
import re
import shutil
import subprocess
import sys
import types
import zipfile
from pathlib import Path

import pytest

from verl_cookbook.releases import newest_covered
from verl_cookbook.stack_pages import plans_for, plans_markdown
from verl_cookbook.stack_plan import build, source_build
from verl_cookbook.stack_render import steps
from verl_cookbook.stack_resolve import Ask, recorded

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))

from refresh_wheel_facts import read_build_info  # noqa: E402


def _plan(product: str, verl: str = "0.9.1"):
    ask = Ask(verl, product)
    record = recorded(ask)
    assert record is not None
    return build(ask, record)


def _vllm_ascend(plan):
    return next(p for p in plan.extra if p.name.replace("-", "_") == "vllm_ascend")


def test_on_a2_the_wheel_from_the_index_is_installed_as_it_is():
    pin = _vllm_ascend(_plan("A2"))
    assert pin.how == "no-deps" and pin.file.startswith("vllm_ascend-0.23.0")
    assert source_build(Ask("0.9.1", "A2"), "0.23.0") is None
    assert "pip install --no-deps vllm_ascend==0.23.0" in steps(_plan("A2"))


@pytest.mark.parametrize(("product", "soc"), [("A3", "ascend910_9391"), ("950", "ascend950dt_9582")])
def test_on_a3_and_950_vllm_ascend_is_built_on_the_node_with_the_soc_its_guide_gives(product: str, soc: str):
    plan = _plan(product)
    pin = _vllm_ascend(plan)
    assert pin.how == "source" and pin.file == ""
    assert any("__device_type__ = 'A2'" in w for w in pin.why)
    assert any("utils.py#L863" in w for w in pin.why)
    order = steps(plan)
    assert "git clone --depth 1 --branch v0.23.0 https://github.com/vllm-project/vllm-ascend.git" in order
    build_step = next(s for s in order if s.startswith("pip install --no-deps --no-build-isolation -v -e vllm-ascend"))
    assert f"SOC_VERSION={soc}" in build_step and "install_vllm_mcore_npu.sh#L23" in build_step
    # as verl's script builds it: submodules first, the build tools installed, no isolated build (which would look
    # for triton-ascend on PyPI, which does not have it)
    i = order.index(build_step)
    assert order[i - 2 : i] == ["git -C vllm-ascend submodule update --init --recursive", "pip install setuptools-scm"]
    assert not any(s == "pip install --no-deps vllm_ascend==0.23.0" for s in order)


def test_a_wheel_compiled_for_the_product_is_installed_from_the_index(tmp_path: Path, monkeypatch):
    """Silent on a wheel that fits: a snapshot whose vllm-ascend wheel says A3 gives A3 the plain install."""
    snapshots = tmp_path / "snapshots"
    shutil.copytree(REPO / "verl_cookbook" / "snapshots", snapshots)
    facts = json.loads((snapshots / "wheel_facts.json").read_text(encoding="utf-8"))
    for info in facts["wheels"]["vllm-ascend==0.23.0"]["build_info"].values():
        info["value"] = "A3"
    (snapshots / "wheel_facts.json").write_text(json.dumps(facts), encoding="utf-8")
    monkeypatch.setenv("VERL_COOKBOOK_SNAPSHOTS", str(snapshots))
    assert source_build(Ask("0.9.1", "A3"), "0.23.0") is None
    assert source_build(Ask("0.9.1", "A2"), "0.23.0") is not None  # and now the A2 node is the one that builds


def test_each_product_table_says_how_that_product_installs_vllm_ascend_in_both_languages():
    en, zh = plans_markdown(["0.9.1"], "en"), plans_markdown(["0.9.1"], "zh")
    for md, wheel, built in (
        (en, "| `vllm_ascend` | `0.23.0` | wheel from PyPI (`--no-deps`, last) |", "built on the node from source |"),
        (zh, "| `vllm_ascend` | `0.23.0` | 从 PyPI 安装 wheel（`--no-deps`，最后安装） |", "在节点上源码编译 |"),
    ):
        a2, a3, a5 = md.split("**")[2], md.split("**")[4], md.split("**")[6]  # the Atlas A2, Atlas A3, 950 tables
        assert wheel in a2 and wheel not in a3 and wheel not in a5
        assert f"| `vllm_ascend` | `0.23.0` | {built}" in a3 and f"| `vllm_ascend` | `0.23.0` | {built}" in a5
    # review39g-1: the table builds it, not "must": vllm-ascend also publishes variant wheels for these products
    assert en.count("this table builds vllm-ascend 0.23.0 on the node") == 2  # A3 and the 950
    assert zh.count("按本表安装时，在该产品的节点上源码编译 vllm-ascend 0.23.0") == 2
    assert "须在节点上" not in zh and "is built on the node" not in en


def test_the_build_info_of_a_wheel_is_read_with_its_line(tmp_path: Path):
    whl = tmp_path / "pkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(whl, "w") as z:
        z.writestr("pkg/_build_info.py", "# Auto-generated file\n__device_type__ = 'A3'\n__soc__ = 'x'\n")
        z.writestr("pkg/sub/_build_info.py", "__device_type__ = 'nested, not read'\n")
    record = ["pkg/_build_info.py", "pkg/sub/_build_info.py"]
    assert read_build_info(whl, record) == {
        "pkg/_build_info.py:2": {"name": "__device_type__", "value": "A3"},
        "pkg/_build_info.py:3": {"name": "__soc__", "value": "x"},
    }


def _device_check(utils_py: str, build_info_py: str, soc_version: int):
    """vllm-ascend's own ``check_ascend_device_type`` and what it needs from ``utils.py`` (the enum, the module
    global, the initialiser), run with the wheel's real ``_build_info`` and an NPU that reports ``soc_version``."""
    tree = ast.parse(utils_py)
    wanted = {"AscendDeviceType", "_ascend_device_type", "_init_ascend_device_type", "check_ascend_device_type"}
    body = [
        n
        for n in tree.body
        if (isinstance(n, (ast.ClassDef, ast.FunctionDef)) and n.name in wanted)
        or (isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id in wanted for t in n.targets))
    ]
    assert len(body) == 4, "vllm-ascend's device check changed shape"
    build_info = types.ModuleType("vllm_ascend._build_info")
    exec(compile(build_info_py, "_build_info.py", "exec"), build_info.__dict__)
    package = types.ModuleType("vllm_ascend")
    package._build_info = build_info  # type: ignore[attr-defined]
    npu = types.SimpleNamespace(npu=types.SimpleNamespace(get_soc_version=lambda: soc_version))
    namespace = {"Enum": enum.Enum, "torch_npu": npu, "__name__": "vllm_ascend.utils"}
    saved = {k: sys.modules.get(k) for k in ("vllm_ascend", "vllm_ascend._build_info")}
    sys.modules.update({"vllm_ascend": package, "vllm_ascend._build_info": build_info})
    try:
        exec(compile(ast.Module(body=body, type_ignores=[]), "vllm_ascend/utils.py", "exec"), namespace)
        namespace["check_ascend_device_type"]()
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v


@pytest.mark.network
def test_the_pypi_wheel_stops_on_an_a3_chip_and_runs_on_an_a2_chip(tmp_path: Path):
    """The run behind the plan: the wheel the A2 plan installs, its device check run on an A3 SoC (250) and an A2
    SoC (222) — the chip is the only thing replaced."""
    pip = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-q", "-d", str(tmp_path)]
    subprocess.run([*pip, "vllm-ascend==0.23.0"], check=True, capture_output=True, timeout=600)
    (whl,) = tmp_path.glob("vllm_ascend-0.23.0-*.whl")
    with zipfile.ZipFile(whl) as z:
        utils_py = z.read("vllm_ascend/utils.py").decode()
        build_info_py = z.read("vllm_ascend/_build_info.py").decode()
    _device_check(utils_py, build_info_py, 222)  # an A2 chip: the check passes
    with pytest.raises(AssertionError, match="does not match the installed version's device type"):
        _device_check(utils_py, build_info_py, 250)  # an A3 chip
    with pytest.raises(AssertionError, match="does not match the installed version's device type"):
        _device_check(utils_py, build_info_py, 260)  # an Ascend 950 chip (A5)


def _install_snippet_tags() -> set[tuple[str, str]]:
    """(repository, tag) of each ``git clone --branch`` in the install page's build steps."""
    text = (Path(__file__).parents[1] / "snippets" / "install" / "vllm_ascend_npu.sh").read_text(encoding="utf-8")
    return set(re.findall(r"--branch (v[\w.]+) https://github.com/vllm-project/([\w-]+)\.git", text))


def test_the_install_pages_build_steps_clone_the_tags_of_the_newest_releases_stack():
    newest = newest_covered()
    base = plans_for(newest, "A3")["nccl"]
    pins = base.pins + base.extra
    want = {(f"v{p.version}", p.name.replace("_", "-")) for p in pins if p.name in ("vllm", "vllm_ascend")}
    assert want and _install_snippet_tags() == want


def test_an_older_release_whose_vllm_differs_says_which_tags_to_clone_and_the_newest_says_nothing():
    en_old, zh_old = plans_markdown(["0.7.1"], "en"), plans_markdown(["0.7.1"], "zh")
    assert "clone tags `v0.13.0` of vLLM and `v0.13.0` of vllm-ascend instead" in en_old
    assert "verl-cookbook stack --verl 0.7.1 --product A2" in en_old
    assert "改为克隆 vLLM 的 `v0.13.0` 与 vllm-ascend 的 `v0.13.0` 标签" in zh_old
    # 0.9.0 uses the same vLLM/vllm-ascend as 0.9.1: the steps apply as written
    for release in ("0.9.0", "0.9.1"):
        assert "Those build steps are written for" not in plans_markdown([release], "en")
        assert "上述编译步骤按" not in plans_markdown([release], "zh")
