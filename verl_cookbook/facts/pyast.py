"""Small helpers for reading verl's Python source with ``ast`` (never importing it).

A family first filters files by their bytes (a word the nodes it looks for must contain), then parses what it needs
of each file it keeps (:mod:`verl_cookbook.facts.parts`), or the whole file: every node has the line and columns it
has in the file."""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path
from typing import Any

from verl_cookbook.verl_source import VerlSourceError

NO_DEFAULT = object()


@lru_cache(maxsize=2)
def _lines(source: str) -> list[str]:
    """``source`` split after each ``\n`` (a pure function, memoised for the file being read)."""
    parts = source.split("\n")
    return [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def source_segment(source: str, node: ast.AST) -> str | None:
    """``ast.get_source_segment(source, node)``, splitting ``source`` into lines once for all the nodes
    of one file instead of once per call (which is most of the cost on a large file)."""
    lineno = getattr(node, "lineno", None)
    end_lineno = getattr(node, "end_lineno", None)
    col, end_col = getattr(node, "col_offset", None), getattr(node, "end_col_offset", None)
    if lineno is None or end_lineno is None or col is None or end_col is None:
        return None
    if "\r" in source:  # \r and \r\n end lines too: leave the splitting to ast
        return ast.get_source_segment(source, node)
    lines = _lines(source)
    first, last = lineno - 1, end_lineno - 1
    if first == last:
        return lines[first].encode()[col:end_col].decode()
    head = lines[first].encode()[col:].decode()
    tail = lines[last].encode()[:end_col].decode()
    return "".join([head, *lines[first + 1 : last], tail])


def literal_or_source(node: ast.AST | None, source: str) -> Any:
    """A default value as Python data when it is a literal, else its source text (e.g. ``torch.bfloat16``)."""
    if node is None:
        return NO_DEFAULT
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return source_segment(source, node) or ast.unparse(node)


def annotation_text(node: ast.AST | None, source: str) -> str | None:
    if node is None:
        return None
    return source_segment(source, node) or ast.unparse(node)


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


class Unparsable(VerlSourceError):
    """A verl file a fact family reads that Python cannot parse (exit code 2, naming the file and line): the facts
    read from it would be missing, not true, so none are extracted from the tree."""

    def __init__(self, rel: str, line: int, col: int, why: str) -> None:
        super().__init__(f"{rel}:{line}:{col}: Python cannot parse this verl file ({why})")
        self.rel, self.line, self.col, self.why = rel, line, col, why


def parse(text: str, rel: str) -> ast.Module:
    """``ast.parse(text)`` of verl's file ``rel``; :class:`Unparsable` (with the file, line and column) when Python
    cannot parse it."""
    try:
        return ast.parse(text, filename=rel)
    except SyntaxError as e:
        raise Unparsable(rel, e.lineno or 1, e.offset or 1, f"{type(e).__name__}: {e.msg}") from None
    except ValueError as e:  # a null byte
        raise Unparsable(rel, 1, 1, str(e)) from None


def parse_file(root: Path, rel: str) -> tuple[str, ast.Module]:
    """(text, module) of verl's file ``rel`` under ``root``, parsed whole; :class:`Unparsable` as :func:`parse`."""
    text = (root / rel).read_text(encoding="utf-8", errors="replace")
    return text, parse(text, rel)
