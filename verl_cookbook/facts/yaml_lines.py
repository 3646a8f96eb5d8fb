"""YAML with line numbers: map every dotted key path of a document to its 1-based line."""

from __future__ import annotations

import yaml


def key_lines(text: str) -> dict[str, int]:
    """``{"a.b.c": line}`` for every mapping key in the first YAML document of ``text``."""
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    out: dict[str, int] = {}
    if node is not None:
        _walk(node, (), out)
    return out


def _walk(node: yaml.Node, prefix: tuple[str, ...], out: dict[str, int]) -> None:
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = str(key_node.value)
            path = (*prefix, key)
            out[".".join(path)] = key_node.start_mark.line + 1
            _walk(value_node, path, out)
