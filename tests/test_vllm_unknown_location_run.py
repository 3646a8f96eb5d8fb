"""Troubleshooting, "Importing vLLM fails: ``cannot import name … from 'vllm' (unknown location)``" (miner32): a
stand-in for a vLLM source clone (a folder ``vllm`` holding the package ``vllm/vllm``, no ``__init__.py`` at the top)
installed in editable mode by pip and setuptools from the wheelhouse, as ``cd vllm && pip install -e . && cd ..`` does
in verl's Ascend install script. Python started in the folder that holds the clone takes the clone's top folder for a
namespace package ``vllm`` and fails with the message users report; started elsewhere it imports the package.

Statements on the page that a test here holds carry ``<!-- run: test_vllm_unknown_location_run.py::<test> -->``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

WHEELHOUSE = Path(sys.prefix) / "wheelhouse"
PAGES = (REPO / "docs" / "recipes" / "troubleshooting.md", REPO / "docs" / "recipes" / "troubleshooting.en.md")
# the check the page gives, and the import the reports fail on
WHERE = 'python3 -c "import vllm; print(vllm.__file__)"'
FAILING = "from vllm import LLM"
PYPROJECT = """[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"

[project]
name = "vllm"
version = "0.0.0"

[tool.setuptools.packages.find]
include = ["vllm*"]
"""


def _env(tmp: Path) -> dict[str, str]:
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "VIRTUAL_ENV", "PYTHON"))},
        "PIP_CONFIG_FILE": os.devnull,
        "PIP_CACHE_DIR": str(tmp / "pip-cache"),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path]:
    """(the folder holding the clone, the site-packages folder the editable install wrote its .pth into)."""
    if not any(WHEELHOUSE.glob("setuptools-*.whl")):
        pytest.fail(f"no setuptools wheel in {WHEELHOUSE}: run scripts/install.sh")
    tmp = tmp_path_factory.mktemp("unknown-location")
    work = tmp / "work"
    clone = work / "vllm"
    (clone / "vllm").mkdir(parents=True)
    (clone / "vllm" / "__init__.py").write_text('LLM = "the installed package"\n', encoding="utf-8")
    (clone / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    prefix = tmp / "prefix"
    install = [
        sys.executable, "-m", "pip", "install", "-q", "--no-index", "--find-links", str(WHEELHOUSE), "--no-deps",
        "--prefix", str(prefix), "-e", ".",
    ]  # fmt: skip
    done = subprocess.run(install, cwd=clone, env=_env(tmp), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    site = prefix / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
    assert any(site.glob("__editable__*vllm*.pth")), sorted(p.name for p in site.iterdir())
    return work, site


def _python(code: str, cwd: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """``python3 -c code`` in ``cwd`` with the editable install's site folder processed as site-packages are."""
    prelude = f"import site; site.addsitedir({str(site)!r}); "
    env = _env(cwd)
    return subprocess.run(
        [sys.executable, "-c", prelude + code], cwd=cwd, env=env, capture_output=True, text=True, timeout=60
    )


def _page_code(command: str) -> str:
    for page in PAGES:
        assert command in page.read_text(encoding="utf-8"), (page, command)
    return command.split('"')[1]


def test_started_next_to_the_clone_python_takes_the_clone_for_a_namespace_package(installed) -> None:
    work, site = installed
    failed = _python(FAILING, work, site)
    assert failed.returncode != 0
    assert "ImportError: cannot import name 'LLM' from 'vllm' (unknown location)" in failed.stderr
    where = _python(_page_code(WHERE) + "; print(list(vllm.__path__))", work, site)
    assert where.returncode == 0, where.stderr
    first, second = where.stdout.splitlines()
    assert first == "None"
    assert second == f"[{str(work / 'vllm')!r}]"


def test_started_in_another_folder_python_imports_the_installed_package(installed, tmp_path: Path) -> None:
    _, site = installed
    done = _python(FAILING + "; print(LLM)", tmp_path, site)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "the installed package"
    where = _python(_page_code(WHERE), tmp_path, site)
    assert where.stdout.strip().endswith(os.path.join("vllm", "vllm", "__init__.py"))


# review42g-5: #failed-to-infer-device-type step 2 checks where the imported plugin lives against `pip show`
SHOW = 'grep -E "^(Version|Location|Editable project location)"'


def test_pip_show_of_an_editable_install_puts_the_imported_file_under_editable_project_location(
    installed, tmp_path: Path
) -> None:
    work, site = installed
    for page in PAGES:
        assert f"pip show vllm-ascend | {SHOW}" in page.read_text(encoding="utf-8"), page
    env = _env(tmp_path) | {"PYTHONPATH": str(site)}
    shown = subprocess.run(
        [sys.executable, "-m", "pip", "show", "vllm"], env=env, capture_output=True, text=True, timeout=120
    )
    assert shown.returncode == 0, shown.stderr
    fields = dict(
        line.split(": ", 1)
        for line in shown.stdout.splitlines()
        if line.startswith(("Version:", "Location:", "Editable project location:"))
    )
    assert fields == {"Version": "0.0.0", "Location": str(site), "Editable project location": str(work / "vllm")}
    where = _python(_page_code(WHERE), tmp_path, site).stdout.strip()
    assert where.startswith(str(work / "vllm") + os.sep) and not where.startswith(str(site)), where
