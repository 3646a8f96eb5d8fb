"""Cached results are keyed by the libraries that judge: a Hydra, OmegaConf, markdown-it... other than the one the
results were made with (an upgrade, another virtualenv, a copy first on ``PYTHONPATH``) is not served what the old
one decided, and the same libraries in another process are (a warm check hits its cache)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import verl_cookbook.facts as facts_mod
from verl_cookbook.fingerprints import ENGINES, engines_fingerprint
from verl_cookbook.verl_source import PACKAGE_DIR

REPO = PACKAGE_DIR.parent


def fingerprint(first_on_path: Path | None = None) -> str:
    """The fingerprint a fresh process computes, with ``first_on_path`` first on ``PYTHONPATH`` (as a user would
    put another copy of a library there). In a fresh process: this one has imported some of the libraries."""
    code = "from verl_cookbook.fingerprints import engines_fingerprint; print(engines_fingerprint())"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(first_on_path or ""), str(REPO)]))}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    return out.stdout.strip()


def _copy_of(tmp_path: Path, module: str, text: str = "__version__ = '99.0'\n") -> Path:
    (tmp_path / module).mkdir(exist_ok=True)
    (tmp_path / module / "__init__.py").write_text(text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("module", ["markdown_it", "omegaconf", "hydra", "yaml"])
def test_another_copy_of_a_judging_library_changes_the_fingerprint(tmp_path: Path, module: str) -> None:
    assert module in ENGINES
    assert fingerprint(_copy_of(tmp_path, module)) != fingerprint()


def test_rewriting_a_library_file_changes_the_fingerprint(tmp_path: Path) -> None:
    """An upgrade in place rewrites the package's files: the same path, another size."""
    before = fingerprint(_copy_of(tmp_path, "markdown_it"))
    assert fingerprint(_copy_of(tmp_path, "markdown_it", "__version__ = '99.1.0'\n")) != before


def test_the_same_libraries_give_the_same_fingerprint(tmp_path: Path) -> None:
    """What a warm run rests on: another process, the same libraries, the same key; and a module that judges
    nothing, first on the path, changes nothing."""
    assert fingerprint() == fingerprint() == engines_fingerprint()
    assert fingerprint(_copy_of(tmp_path, "not_an_engine_of_ours")) == fingerprint()


def test_computing_it_imports_none_of_the_libraries() -> None:
    code = (
        "import sys; from verl_cookbook.fingerprints import ENGINES, engines_fingerprint; engines_fingerprint();"
        " print(','.join(m for m in ENGINES if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_facts_key_changes_with_the_engines_fingerprint(verl_tree, monkeypatch: pytest.MonkeyPatch) -> None:
    key = facts_mod.facts_key(verl_tree)
    monkeypatch.setattr(facts_mod, "engines_fingerprint", lambda: "another Hydra")
    assert facts_mod.facts_key(verl_tree) != key
