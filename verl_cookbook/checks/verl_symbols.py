"""Dotted names inside verl (``verl.pkg.module.Class.method``) found in its source, read statically.

The longest prefix of the name that is a module file (``….py`` or a package's ``__init__.py``) is parsed, then
the rest is looked up among the classes and functions it defines (also under ``if`` and ``try``), following
``from .x import Y`` re-exports a few levels deep. Used by the ``symbol`` claim and by the Python examples'
check; when a part is not found, the answer says what the last scope found does define.
"""

from __future__ import annotations

import ast

from verl_cookbook.checks.verl_file import read_verl_file
from verl_cookbook.verl_source import VerlTree


def _module_file(tree: VerlTree, dotted: list[str]) -> str | None:
    rel = "/".join(dotted)
    for cand in (f"{rel}.py", f"{rel}/__init__.py"):
        if tree.exists(cand):
            return cand
    return None


def definitions(body: list[ast.stmt]) -> dict[str, ast.AST]:
    out: dict[str, ast.AST] = {}
    for stmt in body:
        if isinstance(stmt, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            out[stmt.name] = stmt
        elif isinstance(stmt, ast.If | ast.Try):  # definitions under `if TYPE_CHECKING` / try-imports
            out.update(definitions(stmt.body))
    return out


def _imports(body: list[ast.stmt], rel: str) -> dict[str, tuple[str, str]]:
    """``name -> (module path, original name)`` for ``from … import`` at module level (re-exports)."""
    out: dict[str, tuple[str, str]] = {}
    pkg = rel.removesuffix(".py").split("/")
    pkg = pkg[:-1]  # the module's package (for __init__.py: the package itself)
    for stmt in body:
        stmts = [stmt] + (list(stmt.body) if isinstance(stmt, ast.Try | ast.If) else [])
        for s in stmts:
            if not isinstance(s, ast.ImportFrom):
                continue
            if s.level:
                base = pkg[: len(pkg) - (s.level - 1)] if s.level > 1 else pkg
                mod = ".".join([*base, *(s.module.split(".") if s.module else [])])
            else:
                mod = s.module or ""
            for a in s.names:
                out[a.asname or a.name] = (mod, a.name)
    return out


def resolve_symbol(
    tree: VerlTree, name: str, read: dict | None = None, depth: int = 0
) -> tuple[str, ast.AST | None, list[str], str]:
    """Find dotted ``name``: (file, node or None, the parts not found, what the last found scope offers). ``read``:
    the run's parsed verl files (``Session.verl_files``; none: files are parsed afresh)."""
    read = {} if read is None else read
    parts = name.split(".")
    if parts[0] != "verl":
        return ("", None, parts, "")
    # the longest prefix that is a module
    for cut in range(len(parts), 0, -1):
        rel = _module_file(tree, parts[:cut])
        if rel:
            break
    else:
        return ("", None, parts, "")
    mod = read_verl_file(tree, rel, read)
    if mod is None or mod.tree is None:
        return (rel, None, parts[cut:], "")
    rest = parts[cut:]
    if not rest:
        return (rel, mod.tree, [], "")
    node: ast.AST = mod.tree
    for i, part in enumerate(rest):
        body = node.body if isinstance(node, ast.Module | ast.ClassDef) else []
        defs = definitions(body)
        if part in defs:
            node = defs[part]
            continue
        if i == 0 and depth < 3:
            imported = _imports(mod.tree.body, rel).get(part)
            if imported:
                target = ".".join([imported[0], imported[1], *rest[1:]])
                return resolve_symbol(tree, target, read, depth + 1)
        return (rel, None, rest[i:], ",".join(sorted(defs)))
    return (rel, node, [], "")
