"""Config facts: ``CheckpointEngineConfig`` (dataclass), its YAML block, and verl's generated trainer configs."""

from __future__ import annotations

import ast
from typing import Any

from verl_cookbook.facts.parts import parse_near
from verl_cookbook.facts.pyast import annotation_text, literal_or_source
from verl_cookbook.verl_source import VerlTree
from verl_cookbook.yaml_lines import load_with_lines

DATACLASS_FILE = "verl/workers/config/rollout.py"
ROLLOUT_YAML = "verl/trainer/config/rollout/rollout.yaml"
GENERATED_GLOB = "_generated_*.yaml"
CONFIG_DIR = "verl/trainer/config"


def dataclass_fields(tree: VerlTree, rel: str, class_name: str) -> dict[str, Any] | None:
    """Fields of dataclass ``class_name`` in ``rel``: annotation, default and line. None if the class is absent."""
    if not tree.exists(rel):
        return None
    source = tree.read(rel)
    mod = parse_near(source, rel, (class_name,))  # the class, which names itself
    for node in ast.walk(mod):
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            fields: dict[str, dict] = {}
            for stmt in node.body:
                if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
                    continue
                name = stmt.target.id
                if name.startswith("_"):
                    continue
                default: Any = None
                value = stmt.value
                if isinstance(value, ast.Call) and getattr(value.func, "id", None) == "field":
                    for kw in value.keywords:
                        if kw.arg == "default":
                            default = literal_or_source(kw.value, source)
                        elif kw.arg == "default_factory":
                            factory = ast.unparse(kw.value)
                            default = {"dict": {}, "list": []}.get(factory, f"{factory}()")
                elif value is not None:
                    default = literal_or_source(value, source)
                fields[name] = {
                    "annotation": annotation_text(stmt.annotation, source),
                    "default": default,
                    "source": f"{rel}:{stmt.lineno}",
                }
            return {"class": class_name, "source": f"{rel}:{node.lineno}", "fields": fields}
    return None


def generated_configs(tree: VerlTree) -> dict[str, dict]:
    """Every ``_generated_<name>.yaml``: its file. The checks cite a key by its line there, read from the file when
    a check asks (``Facts.config_source``); the values come from Hydra's composition (facts/compose.py)."""
    out: dict[str, dict] = {}
    for path in sorted((tree.root / CONFIG_DIR).glob(GENERATED_GLOB)):
        out[path.stem.removeprefix("_generated_")] = {"file": f"{CONFIG_DIR}/{path.name}"}
    return out


def yaml_block(tree: VerlTree, rel: str, key: str) -> dict | None:
    """The mapping under top-level ``key`` in ``rel`` with a line per field."""
    if not tree.exists(rel):
        return None
    text = tree.read(rel)
    data, lines = load_with_lines(text)
    data = data or {}
    if key not in data:
        return None
    return {
        "file": rel,
        "line": lines.get(key),
        "fields": {
            k: {"value": v, "source": f"{rel}:{lines.get(f'{key}.{k}', 0)}"} for k, v in (data[key] or {}).items()
        },
    }


def extract(tree: VerlTree) -> dict:
    return {
        "checkpoint_engine_config": dataclass_fields(tree, DATACLASS_FILE, "CheckpointEngineConfig"),
        "checkpoint_engine_yaml": yaml_block(tree, ROLLOUT_YAML, "checkpoint_engine"),
        "generated": generated_configs(tree),
    }
