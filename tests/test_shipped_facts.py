"""The facts shipped for each covered release are what extraction gives today, byte for byte; a covered release's
facts load with no extraction and no verl source, and any other tree is extracted live."""

from __future__ import annotations

from pathlib import Path

import pytest

from verl_cookbook import facts as facts_mod
from verl_cookbook.facts import SHIPPED_DIR, compose, extract_all, load_facts, shipped_facts, shipped_text
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


def test_a_checkout_is_not_taken_for_a_release_by_its_path(
    verl_copy: VerlTree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a checkout's label is its absolute path, and the cache folder joined with an absolute path is that path
    monkeypatch.setenv("VERL_COOKBOOK_CACHE", str(tmp_path / "cache"))
    asked: list[str] = []
    monkeypatch.setattr(facts_mod, "shipped_facts", lambda version: asked.append(version))
    assert Path(verl_copy.label).is_absolute()
    assert facts_mod._release_of(verl_copy) is None
    load_facts(verl_copy)
    assert asked == []  # no release's shipped facts looked up (nor releases.yaml read) for a checkout


def test_no_cache_extracts_a_covered_release_afresh(verl_tree: VerlTree, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    real = facts_mod.families
    monkeypatch.setattr(facts_mod, "families", lambda names=None: calls.append(names) or real(names))
    load_facts(verl_tree, use_cache=False)
    assert calls


# -- default compositions -----------------------------------------------------------------------------------------


@pytest.mark.network
@pytest.mark.parametrize("version", covered_releases())
def test_the_shipped_compositions_are_what_hydra_composes_from_the_release(
    version: str, fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERL_COOKBOOK_CACHE", str(fresh_cache))
    tree = from_release(version)
    configs = shipped_facts(version)["entry_points"]["configs"]
    assert configs, "no config known: nothing would be shipped"
    assert (
        compose.shipped_text(compose.compose_known(tree, configs)).encode()
        == (compose.SHIPPED_DIR / f"{version}.json").read_bytes()
    ), f"the compositions shipped for verl {version} are out of date: run `python scripts/build_facts.py`"


def test_every_covered_release_ships_its_compositions_and_nothing_else_is_shipped() -> None:
    assert sorted(p.stem for p in compose.SHIPPED_DIR.glob("*.json")) == sorted(covered_releases())
    for version in covered_releases():
        shipped = compose.shipped(version)
        assert "verl/trainer/config/ppo_trainer" in shipped
        assert all("config" in r or "error" in r for r in shipped.values())


def _no_composing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError(f"composed (Hydra or the composition cache): {args[2:4]}")

    monkeypatch.setattr(compose, "_compose", refuse)
    monkeypatch.setattr(compose, "compose", refuse)  # nor read from the disk cache: what ships answers


def test_a_covered_release_composes_its_default_configs_without_hydra(
    verl_tree: VerlTree, monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_composing(monkeypatch)
    got = load_facts(verl_tree)
    config = got.default_config("ppo_trainer")
    assert config is not None and "checkpoint_engine" in config["actor_rollout_ref"]["rollout"]
    assert got.compose("sft_trainer_engine").get("config")


def test_group_choices_and_other_trees_are_composed_by_hydra(
    verl_tree: VerlTree, verl_copy: VerlTree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERL_COOKBOOK_CACHE", str(tmp_path / "cache"))
    composed: list[tuple[str, tuple[str, ...]]] = []
    real = compose._compose
    monkeypatch.setattr(compose, "_compose", lambda t, d, n, c: composed.append((n, c)) or real(t, d, n, c))
    load_facts(verl_tree).compose("ppo_trainer", ("model_engine=megatron",))
    load_facts(verl_copy).compose("ppo_trainer")  # --verl-src: the user's tree may differ from the release
    load_facts(verl_tree, use_cache=False).compose("ppo_trainer")  # --no-cache: afresh
    assert composed == [
        ("ppo_trainer", ("model_engine=megatron",)),
        ("ppo_trainer", ()),
        ("ppo_trainer", ()),
    ]
