"""Environment variables verl reads, found statically: ``os.environ.get("X", d)``, ``os.getenv("X", d)``,
``os.environ["X"]``, ``os.environ.setdefault("X", d)``, ``"X" in os.environ`` — each with file:line, the
default when one is given, and the constants the value is compared with (``== "1"``, ``in ["TRUE", "1"]``).

Only string-constant names are recorded; a name built at run time cannot be known statically.
"""

from __future__ import annotations

import ast
import os
from typing import Any

from verl_cookbook.facts.parts import nodes_near
from verl_cookbook.facts.pyast import NO_DEFAULT, dotted_name, literal_or_source
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


_WORDS = ("environ", "getenv")  # every read this family records names one of them, on a line of the read


def scan_source(text: str, rel: str) -> list[tuple[str, dict]]:
    """(name, record) for every environment read in one file's source, in ``ast.walk`` order. Only the nodes on a
    line that names ``environ`` or ``getenv`` (and those around them) are read (:func:`pyast.nodes_near`)."""
    if "environ" not in text and "getenv" not in text:
        return []
    nodes, parents = nodes_near(text, rel, _WORDS)
    found: list[tuple[str, dict]] = []
    for node in nodes:
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
        if not name or not kind or not isinstance(node, ast.expr):
            continue
        rec: dict[str, Any] = {"source": f"{rel}:{node.lineno}", "kind": kind}
        if default is not NO_DEFAULT:
            rec["default"] = default
        if kind != "in":
            compared = _compared_with(node, parents)
            if compared:
                rec["compared_with"] = compared
        found.append((name, rec))
    return found


def extract(tree: VerlTree) -> dict:
    """``{"vars": {NAME: [record, ...]}, "files": n}``: files in walk order (a folder's files before its
    subfolders), a file's reads in ``ast.walk`` order. Only a file that names ``environ`` or ``getenv`` is parsed,
    and of it only the parts that name them."""
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
                continue
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            for name, rec in scan_source(data.decode("utf-8", errors="replace"), rel):
                out.setdefault(name, []).append(rec)
    return {"vars": dict(sorted(out.items())), "files": files}
