"""The ``raise`` and ``assert … , msg`` sites of a verl file, with each message rendered as its source writes it.

A message is rendered from its source: plain and implicitly concatenated strings as they are, f-strings with
their placeholders as written (``f"got {x!r}"`` reads ``got {x!r}``), ``"…".format(…)`` as its template,
``a + b`` joined, and a variable from the strings assigned to it in the same function (else at module level).
The scan enters only the nodes whose lines hold ``raise`` or ``assert``; the ``raises`` claim judges the sites.
"""

from __future__ import annotations

import ast
from bisect import bisect_left
from collections.abc import Iterator

from verl_cookbook.checks.verl_file import VerlFile


def render_message(node: ast.AST | None, scope: ast.AST | None = None, module: ast.Module | None = None) -> str:
    """The text of an error message as written in the source (f-string placeholders kept as ``{expr}``).

    A variable is replaced by what ``scope`` (the enclosing function, or the module) assigns to it, else by
    what ``module`` assigns to it at top level; an expression that is not text is kept as ``{expr}``, so
    a message is never shown as empty when the source has one.
    """
    if node is None:
        return ""
    if isinstance(node, ast.Constant):
        return str(node.value) if isinstance(node.value, str) else repr(node.value)
    if isinstance(node, ast.JoinedStr):
        out = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                out.append(str(v.value))
            elif isinstance(v, ast.FormattedValue):
                conv = {-1: "", 115: "!s", 114: "!r", 97: "!a"}.get(v.conversion, "")
                spec = f":{render_message(v.format_spec)}" if v.format_spec is not None else ""
                out.append("{" + ast.unparse(v.value) + conv + spec + "}")
        return "".join(out)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mod):
        return render_message(node.left, scope, module) + render_message(node.right, scope, module)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return render_message(node.func.value, scope, module)
    if isinstance(node, ast.Name):
        for where in (scope, module):
            parts = [render_message(value, None, module) for value in _assigned(where, node.id)] if where else []
            if parts:
                return "".join(parts)
    try:
        return "{" + ast.unparse(node) + "}"
    except Exception:  # an AST that cannot be unparsed: nothing to show
        return ""


def _assigned(scope: ast.AST, name: str) -> list[ast.expr]:
    """The values ``scope`` assigns (``=``, ``+=``) to variable ``name``, in order, not looking into the
    functions and classes it defines (their variables are their own)."""
    out: list[ast.expr] = []
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        n = todo.pop(0)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in n.targets):
            out.append(n.value)
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id == name:
            out.append(n.value)
        todo[:0] = list(ast.iter_child_nodes(n))
    return out


def raise_sites(mod: VerlFile, whole: bool = False) -> Iterator[tuple[str, str, int]]:
    """(error name, rendered message, line) for every ``raise`` and ``assert … , msg`` in the module, in walk order.
    Only the nodes whose lines hold ``raise`` or ``assert`` are entered; ``whole=True`` enters every node (the
    reference the tests hold this to)."""
    assert mod.tree is not None
    module = mod.tree
    # a raise or an assert starts on a line that holds its keyword: a node whose lines hold neither has none inside
    hits = [n for n, line in enumerate(mod.source.splitlines(), 1) if "raise" in line or "assert" in line]

    def holds_one(node: ast.AST) -> bool:
        first, last = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
        if whole or first is None or last is None:
            return True
        i = bisect_left(hits, first)
        return i < len(hits) and hits[i] <= last

    def visit(node: ast.AST, scope: ast.AST) -> Iterator[tuple[str, str, int]]:
        for child in ast.iter_child_nodes(node):
            if not holds_one(child):
                continue
            inner = child if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else scope
            if isinstance(child, ast.Raise) and child.exc is not None:
                exc = child.exc
                call = exc if isinstance(exc, ast.Call) else None
                name = ast.unparse(call.func if call else exc).rpartition(".")[2]
                msg = ""
                if call is not None:
                    msg = " ".join(render_message(a, scope, module) for a in call.args[:1]) or " ".join(
                        render_message(k.value, scope, module) for k in call.keywords if k.arg in ("msg", "message")
                    )
                yield name, msg, child.lineno
            elif isinstance(child, ast.Assert):
                yield "AssertionError", render_message(child.msg, scope, module), child.lineno
            yield from visit(child, inner)

    yield from visit(module, module)
