"""Environment variables verl reads, found statically: ``os.environ.get("X", d)``, ``os.getenv("X", d)``,
``os.environ["X"]``, ``os.environ.setdefault("X", d)``, ``"X" in os.environ`` — each with file:line, the
default when one is given, and the constants the value is compared with (``== "1"``, ``in ["TRUE", "1"]``).

Only string-constant names are recorded; a name built at run time cannot be known statically.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable
from typing import Any

from verl_cookbook.facts.pyast import (
    NO_DEFAULT,
    dotted_name,
    literal_or_source,
    parse_statements,
    walk_order_keys,
    walk_position,
)
from verl_cookbook.verl_source import VerlTree

_GETTERS = {
    "os.environ.get": "get",
    "environ.get": "get",
    "os.getenv": "getenv",
    "getenv": "getenv",
    "os.environ.setdefault": "setdefault",
    "environ.setdefault": "setdefault",
    "os.environ.pop": "pop",
    "environ.pop": "pop",
}
_ENVIRON = {"os.environ", "environ"}
# Methods applied to the value before it is compared (``os.getenv("X", "0").lower() == "1"``).
_NORMALISERS = {"lower", "upper", "strip", "casefold"}


def _str_const(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _constants(node: ast.AST) -> list[Any]:
    if isinstance(node, ast.Constant):
        return [node.value]
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return [e.value for e in node.elts if isinstance(e, ast.Constant)]
    return []


def _compared_with(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> list[Any]:
    """Constants the value read at ``node`` is compared with, through ``.lower()``-style calls and casts."""
    cur = node
    while True:
        parent = parents.get(cur)
        if isinstance(parent, ast.Attribute) and parent.attr in _NORMALISERS:
            call = parents.get(parent)
            if isinstance(call, ast.Call) and call.func is parent:
                cur = call
                continue
        if (
            isinstance(parent, ast.Call)
            and isinstance(parent.func, ast.Name)
            and parent.func.id in ("int", "float", "str")
        ):
            cur = parent
            continue
        break
    parent = parents.get(cur)
    if isinstance(parent, ast.Compare) and parent.left is cur:
        out: list[Any] = []
        for comp in parent.comparators:
            out.extend(_constants(comp))
        return out
    return []


def _reads(module: ast.AST, text: str, rel: str, offset: int = 0) -> list[tuple[str, dict, ast.AST]]:
    """(name, record, node) for every environment read under ``module``, in ``ast.walk`` order; ``text``
    is the source ``module`` was parsed from, ``offset`` turns its line numbers into the file's."""
    parents: dict[ast.AST, ast.AST] = {}  # built on first need: most files read no variable by constant name
    found: list[tuple[str, dict, ast.AST]] = []
    for node in ast.walk(module):
        name = None
        kind = None
        default: Any = NO_DEFAULT
        if isinstance(node, ast.Call):
            fn = dotted_name(node.func)
            kind = _GETTERS.get(fn or "")
            if kind and node.args:
                name = _str_const(node.args[0])
                if len(node.args) > 1:
                    default = literal_or_source(node.args[1], text)
                else:
                    kw = next((k.value for k in node.keywords if k.arg in ("default", "value")), None)
                    if kw is not None:
                        default = literal_or_source(kw, text)
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            if dotted_name(node.value) in _ENVIRON:
                name, kind = _str_const(node.slice), "subscript"
        elif isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.In | ast.NotIn):
            if dotted_name(node.comparators[0]) in _ENVIRON:
                name, kind = _str_const(node.left), "in"
        if not name or not kind:
            continue
        rec: dict[str, Any] = {"source": f"{rel}:{node.lineno + offset}", "kind": kind}
        if default is not NO_DEFAULT:
            rec["default"] = default
        if kind != "in":
            if not parents:
                for parent in ast.walk(module):
                    for child in ast.iter_child_nodes(parent):
                        parents[child] = parent
            compared = _compared_with(node, parents)
            if compared:
                rec["compared_with"] = compared
        found.append((name, rec, node))
    return found


def scan_source(text: str, rel: str) -> list[tuple[str, dict]]:
    """(name, record) for every environment read in one file's source, parsing the whole file."""
    if "environ" not in text and "getenv" not in text:
        return []
    try:
        module = ast.parse(text)
    except (SyntaxError, ValueError):  # ValueError: a null byte
        return []
    return [(name, rec) for name, rec, _ in _reads(module, text, rel)]


_WORDS = (b"environ", b"getenv")


def scan_bytes(data: bytes, rel: str) -> list[tuple[str, dict]]:
    """The same as ``scan_source(data.decode(...), rel)``, parsing only the statements that mention
    ``environ`` or ``getenv`` (every read above names one of them in its own statement). One case
    differs: a file with a syntax error elsewhere (e.g. newer Python syntax than the running one) has
    its reads listed here, where the whole-file parse lists none."""
    if b"environ" not in data and b"getenv" not in data:
        return []
    fragments = parse_statements(data, _WORDS)
    if fragments is None:
        return scan_source(data.decode("utf-8", errors="replace"), rel)
    found = [(r, f) for f in fragments for r in _reads(f.module, f.text, rel, f.offset)]
    names = [name for (name, _, _), _ in found]
    if len(names) != len(set(names)):
        # Reads of one name are listed in the whole-file walk's order (breadth first), which the
        # statements alone do not give: place each read in the file's block structure (a few files).
        keys = walk_order_keys(data, [(f, node) for (_, _, node), f in found])
        if keys is None:
            module = _parse_or_none(data.decode("utf-8", errors="replace"))
            keys = [walk_position(module, node, f.offset) if module else None for (_, _, node), f in found]
        if any(k is None for k in keys):
            return scan_source(data.decode("utf-8", errors="replace"), rel)
        found = [found[i] for i in sorted(range(len(found)), key=lambda i: keys[i])]
    return [(name, rec) for (name, rec, _), _ in found]


def _parse_or_none(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return None


def extract(tree: VerlTree, scan: Callable[[bytes, str], list[tuple[str, dict]]] = scan_bytes) -> dict:
    """``{"vars": {NAME: [record, ...]}, "files": n}``: files in walk order (a folder's files before its
    subfolders), a file's reads in ``ast.walk`` order. ``scan`` is the per-file reader (the whole-file
    one is ``lambda data, rel: scan_source(data.decode("utf-8", errors="replace"), rel)``)."""
    out: dict[str, list[dict]] = {}
    files = 0
    root = tree.root
    for dirpath, dirnames, filenames in os.walk(tree.package):
        dirnames.sort()
        for fn in sorted(filenames):
            if not fn.endswith(".py"):
                continue
            path = os.path.join(dirpath, fn)
            try:
                with open(path, "rb") as fh:
                    data = fh.read()
            except OSError:
                continue
            files += 1
            if b"environ" not in data and b"getenv" not in data:
                continue  # (both readers find nothing in such a file)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            for name, rec in scan(data, rel):
                out.setdefault(name, []).append(rec)
    return {"vars": dict(sorted(out.items())), "files": files}
