"""A verl source file as the claims read it: read and parsed once per run, with what the claims derive from it.

A file is keyed in the run's session (``Session.verl_files``) by tree, path, mtime and size, so the several
claims that name the same file share one parse; what they derive from it (its ``raise`` sites, its code lines,
its docstring lines, its comment-stripped lines) is stored on the :class:`VerlFile` when first asked for. The
parse itself is a memo of the file's path and text (:func:`parse_source`): another run in the same process, or
another release's copy of an unchanged file, reads the same text and shares it. Code
lines are the file with comments and docstrings masked out (a docstring's "defaults to" is prose, not code),
plus each statement spread over several lines joined into one. No judgement here: the claims judge.
"""

from __future__ import annotations

import ast
import functools
import io
import tokenize
from dataclasses import dataclass

from verl_cookbook.verl_source import VerlTree


@dataclass
class VerlFile:
    rel: str
    source: str
    tree: ast.Module | None
    error: str | None = None
    # derived once per file: many claims read the same few files
    raises: list[tuple[str, str, int]] | None = None
    code: list[tuple[str, int]] | None = None
    docstrings: set[int] | None = None
    plain: list[str] | None = None  # each line, whitespace collapsed, cut at its first `#`


def read_verl_file(tree: VerlTree, rel: str, read: dict) -> VerlFile | None:
    """``rel`` of ``tree`` parsed, from ``read`` (the run's ``Session.verl_files``) when read before."""
    path = tree.root / rel
    try:
        st = path.stat()
    except OSError:
        return None
    if not path.is_file():
        return None
    key = (str(tree.root), rel, st.st_mtime_ns, st.st_size)
    mod = read.get(key)
    if mod is None:
        mod = read[key] = parse_source(rel, tree.read(rel))
    return mod


@functools.lru_cache(maxsize=128)
def parse_source(rel: str, source: str) -> VerlFile:
    """``source``, verl's file ``rel``, parsed (``tree`` None and ``error`` set when Python cannot parse it).

    A memo of a pure function, keyed by the text itself, so it cannot answer for a file that has changed: what the
    claims derive and store on the :class:`VerlFile` is derived from ``source`` alone. It serves the runs of one
    process (the test suite makes hundreds, a served site one a rebuild) and the unchanged files of the releases
    of a matrix run; 128 of verl's larger files take ~70 MB parsed."""
    try:
        return VerlFile(rel, source, ast.parse(source))
    except SyntaxError as e:
        return VerlFile(rel, source, None, f"{e.msg} (line {e.lineno})")


def docstring_lines(tree: ast.Module | None) -> set[int]:
    """Lines that belong to docstrings: prose, not code (a docstring's "defaults to" is no default).

    Walks statements only (module, class and function bodies, and the blocks that hold them), not every
    expression node: this runs on large trainer files."""
    out: set[int] = set()
    if tree is None:
        return out
    todo: list[list[ast.stmt]] = [tree.body]
    while todo:
        body = todo.pop()
        if body:
            first = body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                out.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
        for stmt in body:
            for name in ("body", "orelse", "finalbody"):
                sub = getattr(stmt, name, None)
                if isinstance(sub, list) and sub and isinstance(sub[0], ast.stmt):
                    todo.append(sub)
            for handler in getattr(stmt, "handlers", None) or []:
                todo.append(handler.body)
    return out


def code_lines(source: str, tree: ast.Module | None = None) -> list[tuple[str, int]]:
    """(text, line) of every physical line and every multi-line statement, comments and docstrings removed."""
    lines = source.splitlines()
    prose = docstring_lines(tree)
    comments: dict[int, int] = {}  # line -> column where a comment starts
    logical: list[tuple[int, int]] = []
    try:
        start = None
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                comments[tok.start[0]] = tok.start[1]
            elif tok.type in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
                if tok.type == tokenize.NEWLINE and start is not None:
                    logical.append((start, tok.start[0]))
                    start = None
            elif start is None and tok.type != tokenize.ENDMARKER:
                start = tok.start[0]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    stripped = ["" if n in prose else (ln[: comments[n]] if n in comments else ln) for n, ln in enumerate(lines, 1)]
    out = [(text, n) for n, text in enumerate(stripped, 1) if text.strip()]
    for a, b in logical:
        if b > a:
            out.append((" ".join(stripped[a - 1 : b]), a))
    return out
