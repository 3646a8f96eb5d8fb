"""Small helpers for reading verl's Python source with ``ast`` (never importing it)."""

from __future__ import annotations

import ast
import operator
import re
from bisect import bisect_left
from collections import deque
from collections.abc import Callable, Iterator
from functools import cache
from itertools import accumulate
from pathlib import Path
from typing import Any

NO_DEFAULT = object()


_split_cache: tuple[str, list[str]] = ("", [])


def source_segment(source: str, node: ast.AST) -> str | None:
    """``ast.get_source_segment(source, node)``, splitting ``source`` into lines once for all the nodes
    of one file instead of once per call (which is most of the cost on a large file)."""
    global _split_cache
    lineno = getattr(node, "lineno", None)
    end_lineno = getattr(node, "end_lineno", None)
    col, end_col = getattr(node, "col_offset", None), getattr(node, "end_col_offset", None)
    if lineno is None or end_lineno is None or col is None or end_col is None:
        return None
    if "\r" in source:  # \r and \r\n end lines too: leave the splitting to ast
        return ast.get_source_segment(source, node)
    if _split_cache[0] is not source:
        parts = source.split("\n")
        _split_cache = (source, [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else []))
    lines = _split_cache[1]
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


# -- parsing only the statements that mention a word ------------------------------------------------
#
# Parsing a whole file costs far more than reading it, and most families need a handful of statements
# of a large file (the env family: the few statements of each file that mention ``environ``). The
# helpers below find, without parsing, the *logical lines* (statements, with their bracketed or
# backslash-continued lines and multi-line strings) that contain a word, and parse only those. A
# logical line is parsed verbatim (same lines, same columns), wrapped when it cannot stand alone (an
# indented line, ``elif``/``else``/``except``/``finally``/``case``, a decorator, a block header), so
# every node has the line, the columns and the source segment it has in the whole file. When the
# file cannot be lexed with certainty (a ``\r`` line ending, an unterminated string, unbalanced
# brackets) or a fragment does not parse, the caller gets None and parses the whole file instead.

# String literals (any quote style; prefixes need no special case: they only precede the quote) and
# comments, on bytes so nothing is decoded before it is needed.
_STRING_OR_COMMENT = re.compile(
    rb"("
    rb'"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*"""'
    rb"|'''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''"
    rb'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"'
    rb"|'[^'\\\n]*(?:\\.[^'\\\n]*)*'"
    rb"|#[^\n]*"
    rb")",
    re.S,
)
_LEX_MARGIN = 2048  # bytes lexed past the last hit before trying the whole file
_FIRST_WORD = re.compile(rb"[ \t\f]*(@|\w+)")
_count_newlines = operator.methodcaller("count", b"\n")


def _lines_at(data: bytes, offsets: list[int]) -> list[int]:
    """The 0-based lines of sorted ``offsets`` of ``data``, without repeats."""
    lines: list[int] = []
    line, pos = 0, 0
    for offset in offsets:
        line += data.count(b"\n", pos, offset)
        pos = offset
        if not lines or lines[-1] != line:
            lines.append(line)
    return lines


def _find_all(data: bytes, word: bytes) -> Iterator[int]:
    i = data.find(word)
    while i != -1:
        yield i
        i = data.find(word, i + len(word))


def _bracket_delta(line: bytes) -> int:
    """Brackets opened minus brackets closed in ``line`` (strings blanked): the six counts spelled out, since this
    runs for every line the lexers look at and two generator sums cost three times as much."""
    return (
        line.count(b"(") + line.count(b"[") + line.count(b"{") - line.count(b")") - line.count(b"]") - line.count(b"}")
    )


class Fragment:
    """One logical line of a file, parsed: ``module`` holds its statements; ``offset`` is added to a
    node's ``lineno`` to get its line in the file; ``text`` is the parsed text (for source segments);
    ``first``/``last``: its 0-based physical lines in the file."""

    __slots__ = ("first", "last", "module", "offset", "text")

    def __init__(self, module: ast.Module, offset: int, text: str, first: int, last: int) -> None:
        self.module = module
        self.offset = offset
        self.text = text
        self.first = first
        self.last = last


def _code_lines(data: bytes) -> tuple[list[bytes], set[int]] | None:
    """The physical lines of ``data`` with strings blanked (one ``S`` each) and comments dropped, and
    the 0-based lines that start inside a multi-line string. None if a string is not closed."""
    if b"\r" in data:
        return None  # \r and \r\n count as line ends for Python: keep to the whole-file parser
    # split keeps the matched strings and comments at the odd positions, the code between at the even ones
    parts = _STRING_OR_COMMENT.split(data)
    tokens = parts[1::2]
    parts[1::2] = [b"" if t[:1] == b"#" else (b"S" + b"\n" * t.count(b"\n") if b"\n" in t else b"S") for t in tokens]
    code = b"".join(parts)
    if b'"' in code or b"'" in code:
        return None  # a quote the pattern could not close: an unterminated string
    in_string: set[int] = set()  # physical lines that start inside a multi-line string
    multi = [i for i, t in enumerate(tokens) if b"\n" in t]
    if multi:
        line_at = list(accumulate(map(_count_newlines, parts), initial=0))  # line where each part starts
        for i in multi:
            first = line_at[2 * i + 1]
            in_string.update(range(first + 1, first + tokens[i].count(b"\n") + 1))
    return code.split(b"\n"), in_string


def _logical_ranges(data: bytes, lines_with_word: list[int]) -> tuple[list[bytes], list[tuple[int, int]]] | None:
    """For each 0-based physical line listed, the 0-based (first, last) physical lines of its logical line."""
    lexed = _code_lines(data)
    if lexed is None:
        return None
    code_lines, in_string = lexed
    code = b"\n".join(code_lines)
    last = len(code_lines) - 1
    ends = list(accumulate(map(len, code_lines)))  # offset of line h in code: ends[h - 1] + h
    out: list[tuple[int, int]] = []
    depth = 0
    counted_to = 0
    for h in lines_with_word:
        off = ends[h - 1] + h if h else 0  # lines_with_word is sorted and without repeats
        chunk = code[counted_to:off]
        depth += _bracket_delta(chunk)
        counted_to = off
        a, d = h, depth
        while a > 0 and (d > 0 or a in in_string or code_lines[a - 1].endswith(b"\\")):
            a -= 1
            d -= _bracket_delta(code_lines[a])
        if d != 0:
            return None
        b = a
        while True:
            d += _bracket_delta(code_lines[b])
            if d < 0:
                return None
            if d == 0 and not code_lines[b].endswith(b"\\") and (b + 1) not in in_string:
                break
            b += 1
            if b > last:
                return None
        out.append((a, b))
    return code_lines, out


def parse_statements(data: bytes, words: tuple[bytes, ...]) -> list[Fragment] | None:
    """The logical lines of ``data`` (a Python file's bytes) that contain one of ``words``, each parsed,
    in file order. None when the file cannot be split with certainty: parse it whole instead."""
    offsets = sorted(i for word in words for i in _find_all(data, word))
    if not offsets:
        return []
    hits, last_hit = _lines_at(data, offsets), offsets[-1]
    # Lex only up to a little past the last hit (many files of verl mention ``environ`` once, near the
    # top). A string or a statement that runs past the cut leaves the prefix unbalanced: lex it all then.
    cut = data.find(b"\n", last_hit + _LEX_MARGIN)
    split = _logical_ranges(data[: cut + 1], hits) if cut != -1 else None
    if split is None:
        split = _logical_ranges(data, hits)
    if split is None:
        return None
    code_lines, ranges = split
    raw_lines = data.split(b"\n")
    fragments: list[Fragment] = []
    seen: set[int] = set()
    for a, b in ranges:
        if a in seen:
            continue
        seen.add(a)
        if not any(code_lines[i].strip() for i in range(a, b + 1)):
            continue  # only a comment
        first = raw_lines[a]
        indent = first[: len(first) - len(first.lstrip(b" \t\f"))]
        m = _FIRST_WORD.match(code_lines[a])
        word = m.group(1) if m else b""
        head = b""
        if indent and word != b"case":
            head = b"if 1:\n"
        if word in (b"elif", b"else"):
            head += indent + b"if 1: pass\n"
        elif word in (b"except", b"finally"):
            head += indent + b"try: pass\n"
        elif word == b"case":
            head = b"match 0:\n"
        tail = b""
        if word == b"@":
            tail = b"\n" + indent + b"def _(): pass"
        elif code_lines[b].rstrip(b" \t\f\\").endswith(b":"):
            tail = b"\n" + indent + (b" case _: pass" if word == b"match" else b" pass")
        text = (head + b"\n".join(raw_lines[a : b + 1]) + tail).decode("utf-8", errors="replace")
        try:
            module = ast.parse(text)
        except (SyntaxError, ValueError):
            return None
        fragments.append(Fragment(module, a - head.count(b"\n"), text, a, b))
    return fragments


_CLAUSE_WORDS = (b"else", b"elif", b"except", b"finally")  # at column 0 they continue the statement above


def top_level_statements(data: bytes, pattern: re.Pattern[bytes]) -> list[ast.stmt] | None:
    """The statements of ``ast.parse(data).body`` whose lines hold a match of ``pattern`` (a statement's lines:
    from its first, its first decorator's, to the next top-level statement's), line numbers as in the file; the
    other top-level statements are not parsed. None when the file cannot be split with certainty: parse it whole
    instead."""
    hit_lines = _lines_at(data, [m.start() for m in pattern.finditer(data)])
    if not hit_lines:
        return []
    lexed = _code_lines(data)
    if lexed is None:
        return None
    code_lines, in_string = lexed
    starts: list[int] = []  # first lines of the top-level statements (a decorator's, for a decorated one)
    depth, joined, decorated = 0, False, False
    for i, code in enumerate(code_lines):
        if depth == 0 and not joined and i not in in_string and code[:1] not in (b"", b" ", b"\t", b"\f"):
            first = _FIRST_WORD.match(code)
            word = first.group(1) if first else b""
            if word not in _CLAUSE_WORDS and not decorated:
                starts.append(i)
            decorated = word == b"@"
        depth += _bracket_delta(code)
        if depth < 0:
            return None
        joined = code.endswith(b"\\")
    if depth != 0:
        return None
    raw_lines = data.split(b"\n")
    ends = [*starts[1:], len(raw_lines)] if starts else []
    out: list[ast.stmt] = []
    for a, b in zip(starts, ends, strict=True):
        i = bisect_left(hit_lines, a)
        if i == len(hit_lines) or hit_lines[i] >= b:
            continue  # no match in this statement (one before the first statement is in a comment)
        try:
            module = ast.parse(b"\n".join(raw_lines[a:b]).decode("utf-8", errors="replace"))
        except (SyntaxError, ValueError):
            return None
        ast.increment_lineno(module, a)
        out.extend(module.body)
    return out


# -- parsing a file without the function bodies a family does not read ------------------------------
#
# Most of a large file's tokens sit in function bodies, which several families never look into (the
# dataclasses family reads class fields, the engines family constructor signatures and module-level
# imports). ``skeleton`` blanks every function body that holds none of the words a family looks for:
# its first statement's line becomes ``pass`` at that indentation, its other lines become empty, so
# every remaining node keeps the line and columns it has in the whole file, and ``ast.walk`` meets
# the remaining nodes in the same order (a breadth-first walk's order does not depend on the
# subtrees left out). On verl's files, parsing a skeleton costs a fifth of parsing the whole file, and making it
# (lexing the file) as much again: about half in all.

_DEF_PREFIX = re.compile(rb" *(?:async[ \t]+)?")
_ODD_INDENT = re.compile(rb"^ *[\t\f]", re.M)  # a tab or form feed in an indentation: widths are not columns


@cache
def _dedent(indent: int) -> re.Pattern[bytes]:
    """A newline followed by code indented at most ``indent`` columns."""
    return re.compile(rb"\n {0,%d}(?=\S)" % indent)


def _line_of(starts: list[int], offset: int) -> int:
    return bisect_left(starts, offset + 1) - 1


def skeleton(data: bytes, words: tuple[bytes, ...] = ()) -> bytes | None:
    """``data`` (a Python file's bytes) with the bodies of the functions that hold none of ``words``
    blanked (see above); the bodies of those that hold one are kept, their own inner functions blanked
    alike. None when the file cannot be lexed with certainty (as ``parse_statements``) or indents with
    tabs: parse it whole instead."""
    if _ODD_INDENT.search(data):
        return None
    lexed = _code_lines(data)
    if lexed is None:
        return None
    code_lines, in_string = lexed
    code = b"\n".join(code_lines)
    starts = list(accumulate(map((1).__add__, map(len, code_lines)), initial=0))  # offset of each line in code
    hits = _lines_at(data, sorted(i for word in words for i in _find_all(data, word)))
    blanks: list[tuple[int, int]] = []  # 0-based (first, last) lines of each blanked body
    resume = 0  # defs before this offset lie in a blanked body
    for offset, indent in _defs(code):
        if offset < resume:
            continue
        depth, last = 0, _line_of(starts, offset)
        while True:  # the header's last line: where its brackets close on a line not continued
            depth += _bracket_delta(code_lines[last])
            if depth < 0:
                return None
            if depth == 0 and not code_lines[last].endswith(b"\\") and last + 1 not in in_string:
                break
            last += 1
            if last >= len(code_lines):
                return None
        if not code_lines[last].rstrip(b" \t\f").endswith(b":"):
            continue  # a body on the header's line (``def f(): return 1``): nothing to blank
        # The body ends before the next line of code indented at most as far as the ``def`` that starts a
        # logical line (not inside brackets, a continued line or a string).
        dedent = _dedent(indent)
        pos, end = starts[last + 1] - 1, len(code_lines)  # from the newline that ends the header
        while (found := dedent.search(code, pos)) is not None:
            nxt = _line_of(starts, found.end())
            span = code[starts[last + 1] : found.start()]
            if nxt not in in_string and not code_lines[nxt - 1].endswith(b"\\") and _bracket_delta(span) == 0:
                end = nxt
                break
            pos = found.end()
        # the body's statements: from its first line of code to its last (code, or a string's closing line),
        # without the comments and blank lines around them
        first, final = last + 1, end - 1
        while first <= final and not code_lines[first].strip():
            first += 1
        while final > first and not code_lines[final].strip() and final not in in_string:
            final -= 1
        if first > final:
            return None  # a header without a body: not valid Python, let the parser say so
        h = bisect_left(hits, first)
        if h < len(hits) and hits[h] <= final:
            resume = starts[last + 1]  # kept: look at the defs inside it
            continue
        blanks.append((first, final))
        resume = starts[end]
    if not blanks:
        return data
    raw = data.split(b"\n")
    for first, final in blanks:
        body = raw[first]
        raw[first] = body[: len(body) - len(body.lstrip(b" "))] + b"pass"
        raw[first + 1 : final + 1] = [b""] * (final - first)
    return b"\n".join(raw)


def _defs(code: bytes) -> Iterator[tuple[int, int]]:
    """(offset of its line, indentation) of each ``def`` statement of lexed code (strings blanked, comments
    dropped), found with ``bytes.find``, twice as fast as a multi-line regex. A ``def`` spelled unusually
    (``def\\`` continued) is not found: its body is then kept, which is always correct."""
    for keyword in _find_all(code, b"def"):
        after = code[keyword + 3 : keyword + 4]
        if after not in (b" ", b"\t"):
            continue
        line_start = code.rfind(b"\n", 0, keyword) + 1
        prefix = _DEF_PREFIX.match(code, line_start, keyword)
        if prefix is None or prefix.end() != keyword:
            continue
        head = code[line_start:keyword]
        yield line_start, len(head) - len(head.lstrip(b" "))


def _start(node: ast.AST) -> tuple[int, int] | None:
    if not hasattr(node, "lineno"):
        return None
    start = (node.lineno, node.col_offset)
    for dec in getattr(node, "decorator_list", ()):  # a def's position starts after its decorators
        start = min(start, (dec.lineno, dec.col_offset))
    return start


def walk_position(module: ast.AST, node: ast.AST, line_offset: int = 0) -> tuple[int, tuple[int, ...]] | None:
    """Where ``ast.walk(module)`` meets the node that has ``node``'s type and position (its lines shifted
    by ``line_offset``): a key that sorts nodes in ``ast.walk`` order (breadth first: depth, then the
    child indices from the root). None if ``module`` has no such node. Finds it by descending through
    the nodes whose span contains it, not by walking the whole tree."""
    lineno = node.lineno + line_offset  # type: ignore[attr-defined]
    end_lineno = node.end_lineno + line_offset  # type: ignore[attr-defined]
    first = (lineno, node.col_offset)  # type: ignore[attr-defined]
    last = (end_lineno, node.end_col_offset)  # type: ignore[attr-defined]
    cls = type(node)

    def find(parent: ast.AST) -> tuple[int, ...] | None:
        for i, child in enumerate(ast.iter_child_nodes(parent)):
            start = _start(child)
            if start is not None:
                if not (start <= first and last <= (child.end_lineno, child.end_col_offset)):  # type: ignore[attr-defined]
                    continue
                if type(child) is cls and (child.lineno, child.col_offset) == first:  # type: ignore[attr-defined]
                    if (child.end_lineno, child.end_col_offset) == last:  # type: ignore[attr-defined]
                        return (i,)
            sub = find(child)
            if sub is not None:
                return (i, *sub)
        return None

    path = find(module)
    return None if path is None else (len(path), path)


def word_lines(text: str, words: tuple[str, ...]) -> list[int]:
    """The 1-based lines of ``text`` holding one of ``words``, sorted."""
    found: set[int] = set()
    for word in words:
        i = text.find(word)
        while i != -1:
            found.add(text.count("\n", 0, i) + 1)
            i = text.find(word, i + len(word))
    return sorted(found)


def walk_lines(module: ast.AST, lines: list[int]) -> Iterator[ast.AST]:
    """``ast.walk(module)`` without the subtrees that span none of ``lines`` (1-based, sorted), in the
    same order: a node whose source holds a word is reached through ``word_lines`` of that word, at a
    fraction of the cost of walking a large file."""
    todo = deque([module])
    while todo:
        node = todo.popleft()
        for child in ast.iter_child_nodes(node):
            start = _start(child)
            if start is not None:
                i = bisect_left(lines, start[0])
                if i == len(lines) or lines[i] > child.end_lineno:  # type: ignore[attr-defined]
                    continue
            todo.append(child)
        yield node


_parsed: dict[tuple[str, tuple[bytes, ...] | None], tuple[tuple[int, int], str, ast.Module]] = {}


def parse_file(path: Path, words: tuple[bytes, ...] | None = None) -> tuple[str, ast.Module]:
    """(text, module) of a Python file, parsed once per process while its size and mtime are unchanged
    (several families read the same files of verl). With ``words``, the function bodies that hold none of
    them are left out (``skeleton``; the whole file when it cannot be split); ``text`` is always the whole
    file's, for source segments. Raises ``SyntaxError``/``ValueError`` like ``ast.parse``."""
    key = (str(path), words)
    st = path.stat()
    stamp = (st.st_size, st.st_mtime_ns)
    hit = _parsed.get(key)
    if hit is not None and hit[0] == stamp:
        return hit[1], hit[2]
    text = path.read_text(encoding="utf-8", errors="replace")
    shape = None if words is None else skeleton(text.encode(), words)
    module = ast.parse(text if shape is None else shape.decode())
    if len(_parsed) >= 256:
        _parsed.clear()
    _parsed[key] = (stamp, text, module)
    return text, module


_CLAUSES = (b"elif", b"else", b"except", b"finally")


def _clause_follows(
    later: list[int], j: int, indent: Callable[[int], int | None], word: Callable[[int], bytes]
) -> bool:
    """Whether a kept line after ``j`` is a clause of ``j``'s statement (same indentation, before any
    kept line indented less)."""
    level = indent(j) or 0
    for k in later:
        ik = indent(k) or 0
        if ik < level:
            return False
        if ik == level:
            return word(k) in _CLAUSES
    return False


def walk_order_keys(data: bytes, found: list[tuple[Fragment, ast.AST]]) -> list[tuple] | None:
    """Keys that sort nodes found in fragments of ``data`` (a file's bytes) in the order ``ast.walk``
    meets them in the whole file, without parsing the whole file.

    ``ast.walk`` is breadth first: nodes come by depth, and at one depth in the order of their
    ancestors — source order for nodes of different statements (a statement's fields come in source
    order, but for a ``def``/``class``'s decorators and return annotation: those fragments return None).
    A node's depth is taken from a *skeleton* of the file: the fragments and the block headers that
    enclose them (with the earlier ``if``/``elif``/``try`` clauses of each, which nest), every other
    statement left out and an empty body given ``pass``, all at their lines in the file. None when the
    file is not laid out plainly enough (tabs in indentation, a skeleton that does not parse).
    """
    fragments = {id(f): f for f, _ in found}
    last = max(f.last for f in fragments.values())
    raw = data.split(b"\n")
    cut = sum(len(line) + 1 for line in raw[: last + 1])
    lexed = _code_lines(data[:cut])
    if lexed is None:
        return None
    code, in_string = lexed
    starts = []  # whether each line up to ``last`` starts a logical line
    depth = 0
    for j in range(last + 1):
        starts.append(depth == 0 and j not in in_string and not (j and code[j - 1].endswith(b"\\")))
        depth += _bracket_delta(code[j])
        if depth < 0:
            return None

    def indent(j: int) -> int | None:
        width = len(raw[j]) - len(raw[j].lstrip(b" \t\f"))
        return None if b"\t" in raw[j][:width] else width

    def word(j: int) -> bytes:
        m = _FIRST_WORD.match(code[j])
        return m.group(1) if m else b""

    keep: set[int] = set()

    def clause_owner(j: int, ind: int) -> int | None:
        """Keep the clauses before clause ``j`` and their ``if``/``try``/``for``/``while``; its line."""
        for k in range(j - 1, -1, -1):
            if not (starts[k] and code[k].strip()):
                continue
            ik = indent(k)
            if ik is None or ik < ind:
                return None
            if ik == ind:
                keep.add(k)
                if word(k) not in _CLAUSES:
                    return k
        return None

    for f in fragments.values():
        a = f.first
        w = word(a)
        if w in (b"@", b"def", b"async", b"class"):
            return None
        keep.add(a)
        level = indent(a)
        if level is None:
            return None
        j: int | None = a
        if w in _CLAUSES:
            j = clause_owner(a, level)
        while j is not None and level > 0:
            j -= 1
            if j < 0:
                return None
            if not (starts[j] and code[j].strip()):
                continue
            ind = indent(j)
            if ind is None:
                return None
            if ind < level:
                keep.add(j)
                if word(j) in _CLAUSES:
                    j = clause_owner(j, ind)
                level = ind
        if j is None:
            return None

    lines = [b""] * (last + 2)
    kept = sorted(keep)
    for n, j in enumerate(kept):
        end = j
        while end + 1 <= last and not starts[end + 1]:
            end += 1
        lines[j : end + 1] = raw[j : end + 1]
        if word(j) == b"try" and not _clause_follows(kept[n + 1 :], j, indent, word):
            lines[j] = raw[j][: indent(j)] + b"if 1:"  # its body kept, not its handlers: same depth
        if code[end].rstrip(b" \t\f\\").endswith(b":"):  # a block header: does a kept line fill its body?
            nxt = kept[n + 1] if n + 1 < len(kept) else None
            if nxt is None or (indent(nxt) or 0) <= (indent(j) or 0):
                if nxt == end + 1:
                    return None
                body = b" case _: pass" if word(j) == b"match" else b" pass"
                lines[end + 1] = raw[j][: indent(j)] + body
    try:
        skeleton = ast.parse(b"\n".join(lines).decode("utf-8", errors="replace"))
    except (SyntaxError, ValueError):
        return None
    keys: list[tuple] = []
    order: dict[int, int] = {}
    for f, node in found:
        pos = walk_position(skeleton, node, f.offset)
        if pos is None:
            return None
        order[id(f)] = order.get(id(f), -1) + 1
        keys.append((pos[0], f.first, order[id(f)]))
    return keys
