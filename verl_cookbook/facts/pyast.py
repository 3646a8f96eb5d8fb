"""Small helpers for reading verl's Python source with ``ast`` (never importing it)."""

from __future__ import annotations

import ast
from typing import Any

NO_DEFAULT = object()


def literal_or_source(node: ast.AST | None, source: str) -> Any:
    """A default value as Python data when it is a literal, else its source text (e.g. ``torch.bfloat16``)."""
    if node is None:
        return NO_DEFAULT
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return ast.get_source_segment(source, node) or ast.unparse(node)


def annotation_text(node: ast.AST | None, source: str) -> str | None:
    if node is None:
        return None
    return ast.get_source_segment(source, node) or ast.unparse(node)


def dotted_name(node: ast.AST) -> str | None:
    """``a.b.c`` for a Name/Attribute chain, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def function_params(fn: ast.FunctionDef | ast.AsyncFunctionDef, source: str) -> dict[str, Any]:
    """Parameters of ``fn`` (without ``self``): names, defaults, annotations, and whether *args/**kwargs exist."""
    args = fn.args
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.AST | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    params = []
    for a, d in zip(positional, defaults, strict=True):
        params.append((a, d, "positional"))
    for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        params.append((a, d, "keyword"))
    out = []
    for a, d, kind in params:
        if a.arg in ("self", "cls"):
            continue
        default = literal_or_source(d, source)
        out.append(
            {
                "name": a.arg,
                "kind": kind,
                "annotation": annotation_text(a.annotation, source),
                "required": default is NO_DEFAULT,
                "default": None if default is NO_DEFAULT else default,
                "line": a.lineno,
            }
        )
    return {
        "params": out,
        "varargs": args.vararg.arg if args.vararg else None,
        "varkw": args.kwarg.arg if args.kwarg else None,
        "line": fn.lineno,
    }
