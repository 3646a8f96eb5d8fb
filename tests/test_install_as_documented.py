"""The install the docs show works: the pages install from a clone (pinning a commit), and an install line that
names the repository's tag (the README's form for after the first release) names this version's tag (the name is
not on PyPI yet). Installing the package that way, from a local build
of these same files, into a fresh venv gives a ``verl-cookbook`` that runs and checks a page. No index and none
of the user's caches: the dependencies come from the wheels scripts/install.sh put beside the environment
([7/7])."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

WHEELHOUSE = Path(sys.prefix) / "wheelhouse"
PROJECT = re.search(r'(?m)^version = "([^"]+)"', (REPO / "pyproject.toml").read_text(encoding="utf-8"))
VERSION = PROJECT.group(1) if PROJECT else ""
REPOSITORY = "https://github.com/verl-cookbook/verl-cookbook"
INSTALL_FILES = [
    "README.md",
    "docs/tools/checker.md",
    "docs/tools/checker.en.md",
    "docs/tools/verl-ci.md",
    "docs/tools/verl-ci.en.md",
    "snippets/tools/verl-docs-drift.yml",
]
_PIP_LINE = re.compile(r"pip install[^\n]*verl-cookbook @ git\+[^\n]*")


def _pip_lines() -> list[tuple[str, str]]:
    return [(f, m.group(0)) for f in INSTALL_FILES for m in _PIP_LINE.finditer((REPO / f).read_text("utf-8"))]


def test_every_install_line_pins_this_versions_tag_in_the_repository() -> None:
    """The README names the tag form for after the first release; the pages and snippets install from a clone and
    pin a commit (a reader of the tool pages objected to a tag that is not published), so any tag they name is
    this version's."""
    lines = _pip_lines()
    assert "README.md" in {f for f, _ in lines}, lines
    expected = f'"verl-cookbook @ git+{REPOSITORY}@v{VERSION}"'
    bad = [(f, line) for f, line in lines if expected not in line]
    assert bad == []
    for f in INSTALL_FILES:
        other = {t for t in re.findall(r"verl-cookbook@v(\d+\.\d+\.\d+)", (REPO / f).read_text("utf-8"))}
        assert other <= {VERSION}, (f, other)


def test_a_bare_name_install_line_would_be_caught() -> None:
    line = _PIP_LINE.search('pip install "verl-cookbook @ git+https://github.com/verl-cookbook/verl-cookbook@main"\n')
    assert line is not None and f"@v{VERSION}" not in line.group(0)


def test_pre_commit_snippet_pins_the_same_tag() -> None:
    """An immutable reference: this version's tag, or a commit (the placeholder the page tells the reader to fill)."""
    text = (REPO / "snippets/tools/pre-commit-config.yaml").read_text(encoding="utf-8")
    assert f"repo: {REPOSITORY}\n" in text
    assert re.search(rf"(?m)^\s+rev: (?:v{re.escape(VERSION)}\b|<commit>|[0-9a-f]{{40}}\b)", text)


def _copy_project(dest: Path) -> Path:
    """The files a build reads (what git tracks for the package), without this checkout's build leftovers."""
    dest.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, dest / name)
    shutil.copytree(REPO / "verl_cookbook", dest / "verl_cookbook", ignore=shutil.ignore_patterns("__pycache__"))
    return dest


PAGE = '# Page\n\n```json\n{"host_ip": ["10.0.0.1"],}\n```\n'


def test_install_as_documented_from_a_local_build_into_a_fresh_venv(tmp_path: Path, verl_tree) -> None:
    if not any(WHEELHOUSE.glob("*.whl")):
        pytest.fail(f"no wheels in {WHEELHOUSE}: run scripts/install.sh (step [7/7] puts them there)")
    src = _copy_project(tmp_path / "src")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "VIRTUAL_ENV", "PYTHON"))},
        "PIP_CONFIG_FILE": os.devnull,
        "PIP_CACHE_DIR": str(tmp_path / "pip-cache"),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "VERL_COOKBOOK_CACHE": str(tmp_path / "cache"),
    }
    # the docs' line, `pip install "verl-cookbook @ git+<repository>@<tag>"`, with the repository here on disk
    install = [
        str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-index", "--find-links", str(WHEELHOUSE),
        f"verl-cookbook @ {src.as_uri()}",
    ]  # fmt: skip
    done = subprocess.run(install, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr

    exe = str(venv / "bin" / "verl-cookbook")
    helped = subprocess.run([exe, "--help"], env=env, capture_output=True, text=True, timeout=60)
    assert helped.returncode == 0 and "check" in helped.stdout and "doctor" in helped.stdout

    page = tmp_path / "page.md"
    page.write_text(PAGE, encoding="utf-8")
    argv = [exe, "check", "--lenient", "--verl-src", str(verl_tree.root), str(page)]
    checked = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert checked.returncode == 1, checked.stderr
    assert checked.stdout.startswith("page.md:4:") and "json/syntax" in checked.stdout
    assert "Traceback" not in checked.stderr
