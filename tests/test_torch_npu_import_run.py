"""What torch_npu raises without CANN, held by runs of the torch_npu wheels from the package index (troubleshooting
page, #torch-npu-import, #cann-env-not-loaded, #torch-npu-undefined-symbol, #libatb-not-found; review42g-1, -2, -3):

- ``import torch_npu`` where CANN's libraries cannot be found: torch_npu 2.10.0.post4 fails with a bare
  ``ImportError: libhccl.so: …`` (``torch_npu/npu/utils.py`` imports ``torch_npu._C`` before the probe that would add a
  hint); 2.7.1, 2.8.0.post2 and 2.9.0 fail with it twice, chained, because the ``except ImportError`` handler that
  would add ``Please run 'source set_env.sh' …`` and ``ERR00008`` first imports ``torch_npu.utils``, which imports
  ``_C`` again. No release prints the hint.
- the first ATB call when ``torch_npu/lib/libop_plugin_atb.so`` cannot load (``libatb.so`` missing, or a symbol
  missing): ``_atb_ops.py`` picks its hint by looking for ``libatb.so`` / ``undefined symbol`` in the loader's error.
  torch 2.9 and later wrap that error in ``OSError("Could not load this library: …")``, so the raised error is
  ``OSError: [Errno None] `` with the loader's text two causes down; with torch 2.8's unwrapped ``ctypes.CDLL``
  (replayed here) the hint is there. tests/torch_npu_run/atb_probe.py runs the wheel's ``_atb_ops.py`` as shipped.

The wheels are ``pip download``ed once (pip's cache serves reruns) for this machine's platform and run in the startup
environment's Python (tests/helpers.startup_python), whose torch is 2.13.0+cpu, not the ``torch==2.X.0+cpu`` each
torch_npu requires (that build is on PyTorch's own index, not on PyPI). ``import torch`` succeeds and the failures are
in torch_npu's own modules and in the dynamic linker; torch 2.13's ``load_library`` wraps errors as 2.9 and 2.10 do.
A missing symbol is made by empty stand-in libraries for the CANN libraries the plugin needs (built with ``cc``).

Statements on the pages that a test here holds carry ``<!-- run: test_torch_npu_import_run.py::<test> -->``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests import helpers
from tests.conftest import REPO

PAGES = [REPO / "docs" / "recipes" / f"troubleshooting{s}.md" for s in ("", ".en")]
MARKER = re.compile(r"<!-- run: test_torch_npu_import_run\.py::(\w+) -->")
PROBE = Path(__file__).parent / "torch_npu_run" / "atb_probe.py"
MISSING_LIBS = Path(__file__).parent / "torch_npu_run" / "missing_libs.py"
RELEASES = ("2.7.1", "2.8.0.post2", "2.9.0", "2.10.0.post4")
TORCH = {"2.7.1": "2.7.1", "2.8.0.post2": "2.8.0", "2.9.0": "2.9.0", "2.10.0.post4": "2.10.0"}
NO_HCCL = "ImportError: libhccl.so: cannot open shared object file: No such file or directory"
CHAINED = "During handling of the above exception, another exception occurred:"
NNAL_MISSING = (
    "Please check that the nnal package is installed. Please run 'source set_env.sh' in the NNAL installation path."
)
NNAL_VERSION = "Please check the version of the NNAL package."


def _env(**extra: str) -> dict[str, str]:
    """This process's environment without CANN's (no library path, no ASCEND_* variable), torch's device-backend
    autoload off (the unpacked torch_npu would otherwise be imported by ``import torch``)."""
    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH" and not k.startswith("ASCEND_")}
    return env | {"TORCH_DEVICE_BACKEND_AUTOLOAD": "0", "OMP_NUM_THREADS": "1"} | extra


@pytest.fixture(scope="module")
def wheels(tmp_path_factory) -> dict[str, Path]:
    """Each release's wheel unpacked into a folder of its own."""
    base = tmp_path_factory.mktemp("torch-npu")
    out = {}
    for v in RELEASES:
        cmd = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", f"torch-npu=={v}"]
        r = subprocess.run([*cmd, "-d", str(base / "dl")], capture_output=True, text=True, timeout=900)
        assert r.returncode == 0, r.stderr[-2000:]
        with zipfile.ZipFile(next((base / "dl").glob(f"torch_npu-{v}-*.whl"))) as z:
            z.extractall(base / v)
        out[v] = base / v
    return out


def _import(target: Path) -> subprocess.CompletedProcess[str]:
    py = helpers.startup_python("0.9.1")
    return subprocess.run(
        [py, "-c", "import torch_npu"], capture_output=True, text=True, env=_env(PYTHONPATH=str(target)), timeout=300
    )


def _probe(target: Path, loader: str, stubs: Path | None = None) -> list[dict[str, str]]:
    env = _env(PYTHONPATH=str(target), **({"LD_LIBRARY_PATH": str(stubs)} if stubs else {}))
    py = helpers.startup_python("0.9.1")
    r = subprocess.run([py, str(PROBE), str(target), loader], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def stubs(wheels, tmp_path_factory) -> dict[str, Path]:
    """For each release, a folder of empty shared libraries named as the CANN libraries ``libop_plugin_atb.so``
    needs (found by loading it until no library is missing, one stand-in at a time, in one process after
    ``import torch``: tests/torch_npu_run/missing_libs.py): loading then fails on an undefined symbol."""
    cc = shutil.which("cc") or shutil.which("gcc")
    assert cc, "a C compiler is needed to build the stand-in libraries"
    out = {}
    for v in ("2.8.0.post2", "2.10.0.post4"):
        folder = tmp_path_factory.mktemp(f"stubs-{v}")
        env = _env(PYTHONPATH=str(wheels[v]), LD_LIBRARY_PATH=str(folder))
        cmd = [helpers.startup_python("0.9.1"), str(MISSING_LIBS), str(wheels[v]), str(folder), cc]
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
        assert r.returncode == 0, r.stderr[-3000:]
        found = json.loads(r.stdout.strip().splitlines()[-1])
        assert "cannot open shared object file" not in found["error"], (v, found)
        out[v] = folder
    return out


def _metadata_torch(target: Path) -> list[str]:
    meta = next(target.glob("torch_npu-*.dist-info")) / "METADATA"
    lines = meta.read_text(encoding="utf-8").splitlines()
    return [line.split(":", 1)[1].replace(" ", "") for line in lines if line.startswith("Requires-Dist:")]


def test_each_torch_npu_release_requires_the_torch_of_its_own_number(wheels) -> None:
    for v in RELEASES:
        required = _metadata_torch(wheels[v])
        assert len(required) == 1 and re.fullmatch(rf"torch\(?==\s*{re.escape(TORCH[v])}(\+cpu)?\)?", required[0]), (
            v,
            required,
        )


def test_without_cann_torch_npu_2_10_0_post4_fails_with_a_bare_libhccl_import_error(wheels) -> None:
    r = _import(wheels["2.10.0.post4"])
    assert r.returncode != 0
    assert r.stderr.strip().splitlines()[-1] == NO_HCCL, r.stderr[-3000:]
    assert r.stderr.count("Traceback (most recent call last):") == 1 and CHAINED not in r.stderr
    assert "torch_npu/npu/utils.py" in r.stderr and "import torch_npu._C" in r.stderr
    assert "set_env.sh" not in r.stderr and "ERR00008" not in r.stderr
    for page in PAGES:
        assert NO_HCCL in page.read_text(encoding="utf-8"), page


def test_without_cann_torch_npu_2_7_1_to_2_9_0_fail_with_the_libhccl_import_error_twice_without_the_hint(
    wheels,
) -> None:
    for v in ("2.7.1", "2.8.0.post2", "2.9.0"):
        r = _import(wheels[v])
        assert r.returncode != 0, v
        assert r.stderr.strip().splitlines()[-1] == NO_HCCL, (v, r.stderr[-3000:])
        assert r.stderr.count(NO_HCCL) == 2 and CHAINED in r.stderr, (v, r.stderr[-3000:])
        # the handler's own first line fails: it imports torch_npu.utils, which imports _C again
        assert "from torch_npu.utils._error_code import ErrCode, pta_error" in r.stderr, v
        assert "set_env.sh" not in r.stderr and "ERR00008" not in r.stderr, v
    for page in PAGES:
        assert CHAINED in page.read_text(encoding="utf-8"), page


def test_from_torch_2_9_on_the_first_atb_call_raises_errno_none_from_could_not_load_this_library(wheels, stubs) -> None:
    for v in ("2.9.0", "2.10.0.post4"):
        chain = _probe(wheels[v], "torch")
        plugin = wheels[v] / "torch_npu" / "lib" / "libop_plugin_atb.so"
        assert [c["type"] for c in chain] == ["OSError"] * 3, (v, chain)
        assert chain[0]["str"] == "[Errno None] ", (v, chain)
        assert chain[1]["str"] == f"Could not load this library: {plugin}", (v, chain)
        assert chain[2]["str"].startswith("libatb.so: cannot open shared object file"), (v, chain)
    chain = _probe(wheels["2.10.0.post4"], "torch", stubs["2.10.0.post4"])
    assert chain[0]["str"] == "[Errno None] " and "undefined symbol" in chain[2]["str"], chain
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        assert "OSError: [Errno None]" in text and "Could not load this library:" in text, page


def test_with_torch_2_8s_loader_the_first_atb_call_raises_the_nnal_hint(wheels, stubs) -> None:
    chain = _probe(wheels["2.8.0.post2"], "raw")
    assert chain[0] == {"type": "OSError", "str": f"[Errno None] {NNAL_MISSING}"}, chain
    assert chain[1]["str"].startswith("libatb.so: cannot open shared object file"), chain
    chain = _probe(wheels["2.8.0.post2"], "raw", stubs["2.8.0.post2"])
    assert chain[0]["str"].startswith(f"[Errno None] {NNAL_VERSION}") and "undefined symbol" in chain[1]["str"], chain
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        assert "Please check that the nnal package is installed" in text and NNAL_VERSION in text, page


def test_libop_plugin_atb_is_torch_npus_own_library_and_the_only_one_that_needs_libatb(wheels) -> None:
    readelf = shutil.which("readelf")
    assert readelf, "readelf (binutils) is needed to read the libraries' NEEDED entries"
    for v in RELEASES:
        torch_npu = wheels[v] / "torch_npu"
        needing = []
        for lib in sorted(torch_npu.rglob("*.so")):
            out = subprocess.run([readelf, "-d", str(lib)], capture_output=True, text=True, check=True).stdout
            if "Shared library: [libatb.so]" in out:
                needing.append(lib.relative_to(wheels[v]).as_posix())
        assert needing == ["torch_npu/lib/libop_plugin_atb.so"], (v, needing)
        loader = (torch_npu / "op_plugin" / "atb" / "_atb_ops.py").read_text(encoding="utf-8")
        assert "os.path.join(npu_path, 'lib', 'libop_plugin_atb.so')" in loader, v


def test_every_run_marker_names_a_test_here_and_both_languages_carry_the_same() -> None:
    found = [[m.group(1) for m in MARKER.finditer(page.read_text(encoding="utf-8"))] for page in PAGES]
    assert found[0] == found[1]
    here = {name for name in globals() if name.startswith("test_")}
    assert set(found[0]) == here - {"test_every_run_marker_names_a_test_here_and_both_languages_carry_the_same"}
