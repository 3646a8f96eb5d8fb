"""What pip does with ``pip install "git+URL@branch"`` when the branch's version is the one already installed, held
by a run of pip itself: a throwaway package named ``verl``, version 0.8.0 from a wheel (as from PyPI), then the same
version from a git branch carrying a change (as verl's ``release/v0.8.0`` does after the 0.8.0 tag). The
troubleshooting page's #transformers5-moe-packed-experts step 2 tells readers to install that branch (review23e F8:
without ``--force-reinstall`` pip keeps the installed 0.8.0 and says nothing).

Statements on the pages that a test here holds carry ``<!-- run: test_pip_vcs_reinstall_run.py::<test> -->``.
Offline: the build backend (setuptools) comes from the wheelhouse scripts/install.sh fills.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

WHEELHOUSE = Path(sys.prefix) / "wheelhouse"
GIT = ["git", "-c", "user.email=test@example.invalid", "-c", "user.name=test", "-c", "init.defaultBranch=main"]


def _run(*args: str, cwd: Path | None = None) -> str:
    r = subprocess.run(list(args), cwd=cwd, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"{' '.join(args)} failed ({r.returncode}):\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}"
    return r.stdout


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> dict:
    if not any(WHEELHOUSE.glob("setuptools-*.whl")):
        pytest.fail(f"no setuptools wheel in {WHEELHOUSE}: run scripts/install.sh")
    tmp = tmp_path_factory.mktemp("pip_vcs")
    src = tmp / "src"
    (src / "verl").mkdir(parents=True)
    (src / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n'
        '[project]\nname = "verl"\nversion = "0.8.0"\n[tool.setuptools]\npackages = ["verl"]\n'
    )
    (src / "verl" / "__init__.py").write_text("BACKPORT = False\n")
    _run(*GIT, "init", "-q", cwd=src)
    _run(*GIT, "add", "-A", cwd=src)
    _run(*GIT, "commit", "-qm", "0.8.0", cwd=src)
    _run(*GIT, "checkout", "-qb", "release/v0.8.0", cwd=src)
    (src / "verl" / "__init__.py").write_text("BACKPORT = True\n")
    _run(*GIT, "commit", "-qam", "backport", cwd=src)
    head = _run(*GIT, "rev-parse", "HEAD", cwd=src).strip()
    _run(*GIT, "checkout", "-q", "main", cwd=src)

    venv = tmp / "venv"
    _run(sys.executable, "-m", "venv", str(venv))
    py = str(venv / "bin" / "python")
    offline = ["--no-index", "--find-links", str(WHEELHOUSE)]
    dist = tmp / "dist"
    _run(py, "-m", "pip", "wheel", "-q", "--no-deps", *offline, "-w", str(dist), str(src))
    _run(py, "-m", "pip", "install", "-q", "--no-index", "--find-links", str(dist), "verl==0.8.0")

    def state() -> dict:
        freeze = [x for x in _run(py, "-m", "pip", "freeze").splitlines() if x.lower().startswith("verl")]
        backport = _run(py, "-c", "import verl; print(verl.BACKPORT)").strip()
        return {"freeze": freeze, "backport": backport}

    url = f"git+file://{src}@release/v0.8.0"
    out = {"head": head, "url": url, "from_wheel": state()}
    plain = _run(py, "-m", "pip", "install", *offline, url)
    out["plain"] = {**state(), "said_installed": "Successfully installed" in plain}
    _run(py, "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", *offline, url)
    out["forced"] = state()
    return out


def test_a_plain_install_of_the_branch_over_the_same_version_changes_nothing_and_says_so_nowhere(report):
    assert report["from_wheel"] == {"freeze": ["verl==0.8.0"], "backport": "False"}
    assert report["plain"] == {"freeze": ["verl==0.8.0"], "backport": "False", "said_installed": False}


def test_force_reinstall_no_deps_installs_the_branch_and_pip_freeze_names_its_commit(report):
    pinned = f"verl @ {report['url'].split('@')[0]}@{report['head']}"
    assert report["forced"] == {"freeze": [pinned], "backport": "True"}
