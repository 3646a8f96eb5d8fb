"""Hydra composes verl's configs to the same data whether OmegaConf's loader parses YAML in Python or with libyaml.

``omegaconf_on_libyaml`` keeps OmegaConf's own loader class (its float resolver, no timestamps, its duplicate-key
error) and only puts PyYAML's C parser first. These tests compose with and without it and compare, show that the
comparison sees a loader that differs (plain ``CSafeLoader``, which lacks OmegaConf's float resolver), and that
OmegaConf's duplicate-key error still fires.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import omegaconf._utils as omegaconf_utils
import pytest
import yaml
from omegaconf import OmegaConf

from verl_cookbook.facts import compose as compose_mod
from verl_cookbook.verl_source import VerlTree

CONFIG = "verl/trainer/config"


def _both(verl_tree: VerlTree, name: str, choices: tuple[str, ...]) -> tuple[dict, dict]:
    config_dir = verl_tree.root / CONFIG
    fast = compose_mod._compose(verl_tree, config_dir, name, choices)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(compose_mod, "omegaconf_on_libyaml", contextlib.nullcontext)
        slow = compose_mod._compose(verl_tree, config_dir, name, choices)
    return fast, slow


@pytest.mark.parametrize(
    ("name", "choices"),
    [("ppo_trainer", ()), ("ppo_trainer", ("model_engine=megatron",)), ("sft_trainer_engine", ())],
)
def test_libyaml_composition_equals_omegaconfs_python_loader(verl_tree: VerlTree, name: str, choices: tuple) -> None:
    fast, slow = _both(verl_tree, name, choices)
    assert "config" in slow, slow
    assert fast == slow


def test_the_comparison_sees_a_loader_without_omegaconfs_resolver(verl_tree: VerlTree) -> None:
    @contextlib.contextmanager
    def plain_csafeloader() -> Iterator[None]:
        original = omegaconf_utils.get_yaml_loader
        omegaconf_utils.get_yaml_loader = lambda: yaml.CSafeLoader
        try:
            yield
        finally:
            omegaconf_utils.get_yaml_loader = original

    config_dir = verl_tree.root / CONFIG
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(compose_mod, "omegaconf_on_libyaml", plain_csafeloader)
        wrong = compose_mod._compose(verl_tree, config_dir, "ppo_trainer", ())
    right = compose_mod._compose(verl_tree, config_dir, "ppo_trainer", ())
    assert wrong != right  # e.g. ``lr: 1e-6`` is a float for OmegaConf, a string for plain YAML 1.1


def test_duplicate_key_error_survives_the_c_parser(tmp_path: Path) -> None:
    path = tmp_path / "dup.yaml"
    path.write_text("a: 1\na: 2\n", encoding="utf-8")
    with compose_mod.omegaconf_on_libyaml():
        assert "CParser" in {c.__name__ for c in omegaconf_utils.get_yaml_loader().__mro__}
        with pytest.raises(yaml.constructor.ConstructorError, match="duplicate key a"):
            OmegaConf.load(path)
    assert "CParser" not in {c.__name__ for c in omegaconf_utils.get_yaml_loader().__mro__}  # restored
