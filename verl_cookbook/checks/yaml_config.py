"""YAML config fragments: ``check="config"`` (a fragment a user applies) and ``check="defaults"``
(a fragment that claims to show verl's defaults, value by value).

Attributes: ``root="actor_rollout_ref.rollout"`` when the fragment starts below the top level,
``config="ppo_megatron_trainer"`` to pick another generated config, ``device="npu|gpu"``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import yaml
from omegaconf import OmegaConf
from omegaconf._utils import get_yaml_loader
from omegaconf.errors import OmegaConfBaseException

from verl_cookbook.checks import Context, block_check
from verl_cookbook.checks.config.checker import ConfigChecker
from verl_cookbook.checks.config.model import Assignment
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import CodeBlock
from verl_cookbook.rules.config import CONFIG_OMEGACONF
from verl_cookbook.rules.scripts import YAML_EMPTY, YAML_NOT_A_MAPPING, YAML_SYNTAX

_MISSING = object()


@cache
def omegaconf_loader() -> type:
    """The YAML loader OmegaConf reads a config file with, so Hydra reads verl's and the user's: PyYAML's
    SafeLoader that reads ``1e-5`` as a number, a date as a string, and refuses a key written twice in a mapping.
    (OmegaConf builds the class anew on each call; one is enough.)"""
    return get_yaml_loader()


def _construct(node: yaml.Node) -> Any:
    """The Python value of a composed YAML node as OmegaConf's loader gives it (``key:`` with nothing after it is
    None; re-serialising the node instead fails on that one in PyYAML 6.0.3+). Raises ``yaml.YAMLError`` on a key
    written twice."""
    return omegaconf_loader()("").construct_document(node)


def _flatten(node: yaml.MappingNode, path: tuple[str, ...], block: CodeBlock, out: list[Assignment], base: Any) -> None:
    """Leaf assignments of a YAML mapping, each with its line. Below a key that is open in verl's
    defaults (``engine_kwargs: {}``) every leaf is kept; below an unknown key, the key itself."""
    for key_node, value_node in node.value:
        key = str(key_node.value)
        file, line = block.where(key_node.start_mark.line + 1)
        col = key_node.start_mark.column + 1
        sub_base = base.get(key, _MISSING) if isinstance(base, dict) else _MISSING
        if isinstance(value_node, yaml.MappingNode) and value_node.value:
            if isinstance(sub_base, dict) and sub_base:
                _flatten(value_node, (*path, key), block, out, sub_base)
                continue
            if sub_base is not _MISSING:
                _open_mapping(value_node, (*path, key), block, out)
                continue
        value = _construct(value_node)
        out.append(Assignment((*path, key), value, file, line, col))


def _open_mapping(node: yaml.MappingNode, path: tuple[str, ...], block: CodeBlock, out: list[Assignment]) -> None:
    """Under an open mapping every leaf is its own assignment, so findings point at its line."""
    if not node.value:
        file, line = block.where(node.start_mark.line + 1)
        out.append(Assignment(path, {}, file, line))
    for key_node, value_node in node.value:
        key = str(key_node.value)
        file, line = block.where(key_node.start_mark.line + 1)
        if isinstance(value_node, yaml.MappingNode) and value_node.value:
            _open_mapping(value_node, (*path, key), block, out)
        else:
            value = _construct(value_node)
            out.append(Assignment((*path, key), value, file, line, key_node.start_mark.column + 1))


def parse_fragment(block: CodeBlock, base: dict | None) -> tuple[list[Assignment], list[Finding], Any]:
    try:
        node = yaml.compose(block.code, Loader=omegaconf_loader())
        data = _construct(node) if node is not None else None  # from the same parse: what OmegaConf.load gives
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = mark.line + 1 if mark else 1
        file, fline = block.where(line)
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        return (
            [],
            [YAML_SYNTAX.at(file, fline, (mark.column + 1) if mark else 1, error=problem)],
            None,
        )
    if node is None:
        return [], [YAML_EMPTY.at(block.page, block.line, block.col)], None
    if not isinstance(node, yaml.MappingNode):
        return [], [YAML_NOT_A_MAPPING.at(block.page, block.line, block.col)], None
    root = tuple(p for p in block.attrs.get("root", "").split(".") if p)
    scoped = base
    for p in root:
        scoped = scoped.get(p) if isinstance(scoped, dict) else None
    out: list[Assignment] = []
    _flatten(node, root, block, out, scoped if scoped is not None else {})
    return out, [], data


def _omegaconf_merge(
    base: dict, data: dict, root: tuple[str, ...], block: CodeBlock, open_paths: tuple[tuple[str, ...], ...] = ()
) -> list[Finding]:
    """Cross-check with verl's own config library: merge onto the defaults in struct mode. ``open_paths``:
    dict-typed dataclass fields, which take new keys (``distillation.teacher_models.<name>``)."""
    for p in reversed(root):
        data = {p: data}
    top = {k: base[k] for k in data if k in base}
    if len(top) != len(data):
        return []  # unknown top-level keys are already reported
    try:
        cfg = OmegaConf.create(_prune(top, data))
        _open_empty(cfg)
        OmegaConf.set_struct(cfg, True)
        for open_path in open_paths:
            node = OmegaConf.select(cfg, ".".join(open_path), throw_on_missing=False)
            if OmegaConf.is_dict(node):
                OmegaConf.set_struct(node, False)
        OmegaConf.merge(cfg, data)
    except OmegaConfBaseException as e:
        msg = str(e).splitlines()[0]
        return [CONFIG_OMEGACONF.at(block.page, block.line, block.col, error=msg)]
    return []


def _prune(base: Any, data: Any) -> Any:
    """The part of verl's defaults that ``data`` touches. A struct-mode merge onto it fails exactly when a
    merge onto the whole config would, at a fraction of the cost (OmegaConf.create of the full trainer
    config per block was the check's hot spot). A mapping that was not empty stays non-empty, so that
    ``_open_empty`` opens only mappings that are empty in verl's defaults."""
    if not (isinstance(base, dict) and isinstance(data, dict)) or not base:
        return base
    keep = [k for k in data if k in base] or [next(iter(base))]
    return {k: _prune(base[k], data.get(k)) for k in keep}


def _open_empty(cfg: Any) -> None:
    """Empty mappings in verl's defaults (engine_kwargs: {}) accept new keys, as in verl's own composition."""
    from omegaconf import DictConfig

    if isinstance(cfg, DictConfig):
        if len(cfg) == 0:
            OmegaConf.set_struct(cfg, False)
        for key in cfg.keys():
            node = cfg._get_node(key)
            if isinstance(node, DictConfig) and not node._is_none() and not node._is_missing():
                _open_empty(node)


def _run(block: CodeBlock, ctx: Context, mode: str) -> list[Finding]:
    checker = ConfigChecker(ctx.facts, block.attrs.get("config", "ppo_trainer"), block.attrs.get("device"))
    assigns, errors, data = parse_fragment(block, checker.base)
    if errors:
        return errors
    findings = checker.check(assigns, mode=mode, delta=True)
    if mode == "config" and not findings and checker.base is not None:
        root = tuple(p for p in block.attrs.get("root", "").split(".") if p)
        opened = tuple(dict.fromkeys(p for a in assigns if (p := checker.dict_field(a.path))))
        findings = _omegaconf_merge(checker.base, data, root, block, opened)
    return findings


@block_check("config", attrs=("root", "config"))
def check_config(block: CodeBlock, ctx: Context) -> list[Finding]:
    return _run(block, ctx, "config")


@block_check("defaults", attrs=("root", "config"))
def check_defaults(block: CodeBlock, ctx: Context) -> list[Finding]:
    return _run(block, ctx, "defaults")
