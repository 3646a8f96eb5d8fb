"""One fingerprint of this package's code and data keys every cache: a change anywhere in the package (not only
under facts/) invalidates cached facts, and what is not code or data (bytecode, notes) does not."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import verl_cookbook.facts as facts_mod
from verl_cookbook.verl_source import PACKAGE_DIR, package_fingerprint

fingerprint = package_fingerprint.__wrapped__  # uncached: the copies below change between calls


@pytest.fixture
def package(tmp_path: Path) -> Path:
    copy = tmp_path / "verl_cookbook"
    shutil.copytree(PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


@pytest.mark.parametrize(
    "rel",
    ["yaml_lines.py", "verl_source.py", "facts/env.py", "checks/shell.py", "catalog/env_hccl.yaml"],
)
def test_a_change_to_any_module_or_catalog_file_changes_the_fingerprint(package: Path, rel: str) -> None:
    before = fingerprint(package)
    path = package / rel
    path.write_bytes(path.read_bytes() + b"\n# changed\n")
    assert fingerprint(package) != before


def test_bytecode_and_other_files_leave_the_fingerprint_unchanged(package: Path) -> None:
    before = fingerprint(package)
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "yaml_lines.cpython-311.pyc").write_bytes(b"\0bytecode")
    (package / "NOTES.md").write_text("not code\n", encoding="utf-8")
    assert fingerprint(package) == before


def test_the_facts_key_changes_with_the_package_fingerprint(verl_tree, monkeypatch: pytest.MonkeyPatch) -> None:
    key = facts_mod.facts_key(verl_tree)
    assert facts_mod.load_facts(verl_tree).key == key
    monkeypatch.setattr(facts_mod, "package_fingerprint", lambda: "another package")
    assert facts_mod.facts_key(verl_tree) != key
