"""YAML with line numbers: map every dotted key path of a document to its 1-based line.

Uses libyaml's parser (``yaml.CSafeLoader``, ten times faster on verl's 4,000-line generated configs)
when PyYAML was built with it, else the pure-Python one; both build the same nodes and the same data
(the resolver and constructor are the same Python code).

A text's key lines are kept for the process (verl's generated trainer config is read by the trainer family and
again by every check that cites one of its keys, ``Facts.config_source``), and data is built only where it is asked
for (:func:`values_at`): building Python data is most of the cost of reading YAML in Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Any

import yaml

_LOADER: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STR = "tag:yaml.org,2002:str"


def _compose(text: str) -> yaml.Node | None:
    loader = _LOADER(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


@lru_cache(maxsize=16)
def _lines(text: str) -> dict[str, int]:
    """The key lines of ``text``, kept for the process (callers get copies). Only the lines: a node tree kept alive
    would cost every later garbage collection a walk over its tens of thousands of objects."""
    node = _compose(text)
    out: dict[str, int] = {}
    if node is not None:
        _walk(node, (), out)
    return out


def _construct(node: yaml.Node) -> Any:
    """The Python data of ``node``, as ``safe_load`` builds it."""
    return _LOADER("").construct_document(node)


def safe_load(text: str) -> Any:
    """``yaml.safe_load(text)``, parsed by libyaml when PyYAML has it (the same data, see above)."""
    return yaml.load(text, Loader=_LOADER)  # noqa: S506 - CSafeLoader/SafeLoader: the safe constructor


def key_lines(text: str) -> dict[str, int]:
    """``{"a.b.c": line}`` for every mapping key in the first YAML document of ``text``."""
    return dict(_lines(text))


def key_lines_kept(text: str) -> Mapping[str, int]:
    """:func:`key_lines` without the copy, for a caller that only looks up (many times, in large files)."""
    return MappingProxyType(_lines(text))


def load_with_lines(text: str) -> tuple[Any, dict[str, int]]:
    """``(yaml.safe_load(text), key_lines(text))`` from one parse of ``text``."""
    node = _compose(text)
    out: dict[str, int] = {}
    if node is None:
        return None, out
    _walk(node, (), out)
    return _construct(node), out


def values_at(text: str, paths: list[str]) -> dict[str, Any]:
    """``{path: value}`` for each dotted ``path`` that ``yaml.safe_load(text)`` has (each step a string key of a
    mapping), the value built from its own node only: equal to walking the whole loaded data, at a fraction of
    the cost when the paths hold a small part of a large document."""
    out: dict[str, Any] = {}
    if "<<" in text:  # merge keys bring keys from elsewhere: walk the whole data
        data, _ = load_with_lines(text)
        for path in paths:
            found, value = _get(data, path)
            if found:
                out[path] = value
        return out
    node = _compose(text)
    for path in paths:
        sub: yaml.Node | None = node
        for part in path.split("."):
            sub = _child(sub, part)
            if sub is None:
                break
        if sub is not None:
            out[path] = _construct(sub)
    return out


def _child(node: yaml.Node | None, key: str) -> yaml.Node | None:
    """The value node of string key ``key`` in mapping ``node`` (the last one, as a loaded dict keeps it)."""
    if not isinstance(node, yaml.MappingNode):
        return None
    found = None
    for key_node, value_node in node.value:
        if key_node.tag == _STR and key_node.value == key:
            found = value_node
    return found


def _get(data: Any, path: str) -> tuple[bool, Any]:
    for part in path.split("."):
        if not isinstance(data, dict) or part not in data:
            return False, None
        data = data[part]
    return True, data


def _walk(node: yaml.Node, prefix: tuple[str, ...], out: dict[str, int]) -> None:
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = str(key_node.value)
            path = (*prefix, key)
            out[".".join(path)] = key_node.start_mark.line + 1
            _walk(value_node, path, out)
