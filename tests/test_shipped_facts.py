"""The facts shipped for each covered release are what extraction gives today, byte for byte; a covered release's
facts load with no extraction and no verl source, and any other tree is extracted live."""

from __future__ import annotations

from pathlib import Path

import pytest

from verl_cookbook import facts as facts_mod
from verl_cookbook.facts import SHIPPED_DIR, extract_all, load_facts, shipped_facts, shipped_text
from verl_cookbook.releases import covered_releases
from verl_cookbook.verl_source import VerlTree, from_release


@pytest.fixture(scope="module")
def fresh_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A temporary checker cache: releases are downloaded into it, never into the developer's own."""
    return tmp_path_factory.mktemp("cache")


@pytest.mark.network
@pytest.mark.parametrize("version", covered_releases())
def test_the_shipped_facts_are_what_extraction_gives_from_the_release(
    version: str, fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERL_COOKBOOK_CACHE", str(fresh_cache))
    tree = from_release(version)  # pip download of the wheel, unpacked into the temporary cache
    assert tree.root.is_relative_to(fresh_cache)
    shipped = (SHIPPED_DIR / f"{version}.json").read_bytes()
    assert shipped_text(extract_all(tree)).encode() == shipped, (
        f"the facts shipped for verl {version} are out of date: run `python scripts/build_facts.py {version}`"
    )


def test_every_covered_release_ships_facts_and_nothing_else_is_shipped() -> None:
    assert sorted(p.stem for p in SHIPPED_DIR.glob("*.json")) == sorted(covered_releases())


def test_shipped_facts_load_without_verl_source_or_network(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERL_COOKBOOK_CACHE", str(tmp_path / "empty"))  # no release unpacked, nothing cached
    for version in covered_releases():
        data = shipped_facts(version)
        assert data is not None and data["verl"]["version"] == version
        # citeable: an engine registration names its file and line
        assert all(":" in r["source"] for r in data["engines"]["registrations"])
    assert not (tmp_path / "empty").exists()


def test_a_version_not_covered_ships_nothing() -> None:
    assert shipped_facts("0.1.0") is None


def _no_extraction(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(names=None):
        raise AssertionError("facts were extracted")

    monkeypatch.setattr(facts_mod, "families", refuse)


def test_a_covered_release_is_not_extracted(verl_tree: VerlTree, monkeypatch: pytest.MonkeyPatch) -> None:
    _no_extraction(monkeypatch)
    got = load_facts(verl_tree)
    assert got.data == shipped_facts(verl_tree.label)
    assert got.backends()  # usable as any facts


def test_a_checkout_of_a_covered_release_is_extracted_live(
    verl_tree: VerlTree, verl_copy: VerlTree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERL_COOKBOOK_CACHE", str(tmp_path / "cache"))
    calls: list[object] = []
    real = facts_mod.families
    monkeypatch.setattr(facts_mod, "families", lambda names=None: calls.append(names) or real(names))
    got = load_facts(verl_copy)  # --verl-src: the user's tree may differ from the release
    assert calls, "a checkout is extracted"
    assert got.data["engines"] == shipped_facts(verl_tree.label)["engines"]  # the copy is unchanged: same facts


def test_no_cache_extracts_a_covered_release_afresh(verl_tree: VerlTree, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    real = facts_mod.families
    monkeypatch.setattr(facts_mod, "families", lambda names=None: calls.append(names) or real(names))
    load_facts(verl_tree, use_cache=False)
    assert calls
