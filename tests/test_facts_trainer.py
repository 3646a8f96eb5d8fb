"""Trainer checkpoint facts: every reported line holds what the fact says; older releases give empty facts."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from verl_cookbook.facts import trainer
from verl_cookbook.facts.trainer import CALLBACK_FILE, TRAINER_KEYS
from verl_cookbook.verl_source import VerlTree, from_checkout, from_release


def line_at(tree: VerlTree, source: str) -> str:
    rel, _, line = source.rpartition(":")
    return tree.read(rel).splitlines()[int(line) - 1]


@pytest.fixture(scope="module")
def facts_091(verl_tree: VerlTree) -> dict:
    return trainer.extract(verl_tree)


def test_every_checkpoint_key_sits_on_its_generated_and_hand_written_line(verl_tree: VerlTree, facts_091) -> None:
    keys = facts_091["config"]["keys"]
    assert {f"trainer.{k}" for k in TRAINER_KEYS} <= set(keys)
    for path, entry in keys.items():
        leaf = path.rpartition(".")[2]
        assert line_at(verl_tree, entry["source"]).strip().startswith(f"{leaf}:"), path
        if entry["defined"]:
            assert line_at(verl_tree, entry["defined"]).strip().startswith(f"{leaf}:"), path


def test_defaults_equal_the_generated_config(facts, facts_091) -> None:
    base = facts.default_config("ppo_trainer")
    for path, entry in facts_091["config"]["keys"].items():
        node = base
        for part in path.split("."):
            node = node[part]
        assert entry["default"] == node, path


def test_doc_is_the_comment_verl_writes_above_the_key(verl_tree: VerlTree, facts_091) -> None:
    entry = facts_091["config"]["keys"]["trainer.checkpoint_callback_class"]
    rel, _, line = entry["defined"].rpartition(":")
    above = verl_tree.read(rel).splitlines()[int(line) - 2].strip().lstrip("#").strip()
    assert entry["doc"] and entry["doc"].endswith(above)


def test_resume_modes_are_the_values_the_trainer_compares(verl_tree: VerlTree, facts_091) -> None:
    modes = facts_091["resume_modes"]
    assert modes
    for m in modes:
        code = line_at(verl_tree, m["source"])
        assert "resume_mode" in code and f'"{m["value"]}"' in code


def test_callback_methods_with_signatures_and_lines(verl_tree: VerlTree, facts_091) -> None:
    cb = facts_091["callback"]
    assert cb["source"].startswith(CALLBACK_FILE)
    assert f"class {cb['class']}" in line_at(verl_tree, cb["source"])
    for name, m in cb["methods"].items():
        assert f"def {name}(" in line_at(verl_tree, m["source"])
        for p in m["params"]:
            assert p in m["text"]
    on_save = cb["methods"]["on_save"]
    assert on_save["varkw"]  # verl's hook takes **kwargs
    assert cb["builder"] and "checkpoint_callback_class" in cb["builder"]["reads"]


def test_call_sites_name_the_lines_where_the_trainer_builds_and_calls_the_callback(verl_tree, facts_091) -> None:
    sites = facts_091["call_sites"]
    kinds = {s["what"] for s in sites}
    assert {"import", "build", "on_save"} <= kinds
    for s in sites:
        text = line_at(verl_tree, s["source"])
        if s["what"] == "import":
            assert "checkpoint_callback" in text
        else:
            assert s["call"].rpartition(".")[2] in text
    for call in [s for s in sites if s["what"] == "on_save"]:
        assert set(call["kwargs"]) <= set(facts_091["callback"]["methods"]["on_save"]["params"])


def test_a_release_without_the_callback_gives_empty_facts_not_an_error(verl_copy: VerlTree) -> None:
    (verl_copy.root / CALLBACK_FILE).unlink()
    data = trainer.extract(verl_copy)
    assert data["callback"] is None and data["call_sites"] == []
    assert data["config"]["keys"]  # the config keys are still there


def test_a_tree_without_trainer_configs_gives_empty_facts(tmp_path: Path, verl_tree: VerlTree) -> None:
    shutil.copytree(verl_tree.root / "verl" / "checkpoint_engine", tmp_path / "verl" / "checkpoint_engine")
    data = trainer.extract(from_checkout(tmp_path))
    assert data == {"config": {"file": None, "keys": {}}, "resume_modes": [], "callback": None, "call_sites": []}


@pytest.mark.parametrize("version", ["0.7.1", "0.9.0"])
def test_older_releases_without_the_callback(version: str) -> None:
    data = trainer.extract(from_release(version))  # the wheel, downloaded once into the cache
    assert data["callback"] is None and data["call_sites"] == []
    assert "trainer.save_freq" in data["config"]["keys"]
