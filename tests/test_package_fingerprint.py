"""One fingerprint of this package's code and data keys every cache: a change anywhere in the package (not only
under facts/) invalidates cached facts, and what is not code or data (bytecode, notes) does not."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import verl_cookbook.facts as facts_mod
from verl_cookbook.fingerprints import package_fingerprint, tree_fingerprint
from verl_cookbook.verl_source import PACKAGE_DIR

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


def test_an_edit_that_keeps_the_size_changes_the_fingerprint(package: Path) -> None:
    path = package / "checks" / "shell.py"
    before = fingerprint(package)
    text = path.read_bytes()
    path.write_bytes(text.replace(b"import", b"IMPORT", 1))  # same size, written anew
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))  # a coarse clock could give the same time
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


def _walk_fingerprint(tree) -> str:
    """The tree fingerprint spelled with os.walk and os.path.relpath: the reference the fast walk is held to."""
    import hashlib
    import os

    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(tree.package):
        dirnames.sort()
        for fn in sorted(filenames):
            if fn.endswith((".py", ".yaml", ".yml", ".md")):
                p = os.path.join(dirpath, fn)
                st = os.stat(p)
                h.update(f"{os.path.relpath(p, tree.root)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def test_the_tree_fingerprint_equals_an_os_walk_of_the_tree(verl_tree, tmp_path: Path) -> None:
    from verl_cookbook.verl_source import VerlTree

    assert tree_fingerprint(verl_tree) == _walk_fingerprint(verl_tree)
    # the corners: folders whose sorted order differs from their listing, a link to a folder (listed, not entered),
    # a link to a file, names that differ only by suffix
    root = tmp_path / "tree"
    for rel in ["verl/b/z.py", "verl/a/y.yaml", "verl/a/y.txt", "verl/B/x.md", "verl/a.py", "verl/a/deep/er/w.yml"]:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(rel, encoding="utf-8")
    (root / "verl" / "linked").symlink_to(root / "verl" / "b", target_is_directory=True)
    (root / "verl" / "file_link.py").symlink_to(root / "verl" / "a.py")
    tree = VerlTree(root, str(root), None)
    assert tree_fingerprint(tree) == _walk_fingerprint(tree)
    before = tree_fingerprint(tree)
    (root / "verl" / "a" / "deep" / "er" / "w.yml").write_text("changed size", encoding="utf-8")
    assert tree_fingerprint(tree) != before
