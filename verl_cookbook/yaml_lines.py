"""YAML with line numbers: map every dotted key path of a document to its 1-based line.

Uses libyaml's parser (``yaml.CSafeLoader``, ten times faster on verl's 4,000-line generated configs)
when PyYAML was built with it, else the pure-Python one; both build the same nodes and the same data
(the resolver and constructor are the same Python code).
"""

from __future__ import annotations

from typing import Any

import yaml

_LOADER: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _compose(text: str) -> tuple[Any, yaml.Node | None]:
    loader = _LOADER(text)
    try:
        return loader, loader.get_single_node()
    finally:
        loader.dispose()


def safe_load(text: str) -> Any:
    """``yaml.safe_load(text)``, parsed by libyaml when PyYAML has it (the same data, see above)."""
    return yaml.load(text, Loader=_LOADER)  # noqa: S506 - CSafeLoader/SafeLoader: the safe constructor


def key_lines(text: str) -> dict[str, int]:
    """``{"a.b.c": line}`` for every mapping key in the first YAML document of ``text``."""
    _, node = _compose(text)
    out: dict[str, int] = {}
    if node is not None:
        _walk(node, (), out)
    return out


def load_with_lines(text: str) -> tuple[Any, dict[str, int]]:
    """``(yaml.safe_load(text), key_lines(text))`` from one parse of ``text``."""
    loader, node = _compose(text)
    out: dict[str, int] = {}
    if node is None:
        return None, out
    _walk(node, (), out)
    return loader.construct_document(node), out


def _walk(node: yaml.Node, prefix: tuple[str, ...], out: dict[str, int]) -> None:
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = str(key_node.value)
            path = (*prefix, key)
            out[".".join(path)] = key_node.start_mark.line + 1
            _walk(value_node, path, out)
