"""Shared fixtures: the pinned verl release (downloaded once into the cache), its facts, a site runner."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from verl_cookbook.facts import Facts, load_facts
from verl_cookbook.verl_source import VerlTree, from_checkout, from_release

REPO = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def verl_tree() -> VerlTree:
    """The pinned verl release, unpacked from its wheel (never imported)."""
    return from_release()


@pytest.fixture(scope="session")
def facts(verl_tree: VerlTree) -> Facts:
    return load_facts(verl_tree)


@pytest.fixture
def verl_copy(verl_tree: VerlTree, tmp_path: Path) -> VerlTree:
    """A private copy of the pinned verl tree that a test may mutate."""
    dest = tmp_path / "verl-src"
    shutil.copytree(verl_tree.root / "verl", dest / "verl")
    return from_checkout(dest)


@pytest.fixture
def write_page(tmp_path: Path):
    """Write a Markdown page (and optional snippet files) into a throwaway site; return its path."""

    def write(text: str, name: str = "docs/page.md", files: dict[str, str] | None = None) -> Path:
        (tmp_path / "mkdocs.yml").write_text("site_name: t\n")
        for rel, content in (files or {}).items():
            p = tmp_path / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(content)
        page = tmp_path / name
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(text)
        return page

    return write
