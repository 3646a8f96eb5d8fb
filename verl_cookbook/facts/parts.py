"""Reading only the parts of a verl file that a fact needs: the definitions that name a word, and the nodes on the
lines that name it.

A fact about ``os.environ.get(...)`` calls needs the nodes on the lines that say ``environ``, not the other 95% of
a file. :func:`parse_near` parses the file with every top-level definition, and every method of a class, that
names none of the words left out (its lines kept blank, a method replaced by ``pass``), so each node that remains
has its line and column in the file, and ``ast.walk`` meets the nodes that remain in the order it meets them in the
whole file. :func:`walk_lines` then visits only the nodes that span a line holding a word. Where the definitions
start is read from the text (a ``def``, ``class`` or decorator at the start of a line, outside a triple-quoted
string); a file whose text misleads that reading does not parse with parts left out, and is parsed whole instead.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left

from verl_cookbook.facts.pyast import parse

# A triple-quoted string (skipped whole: a string a triple quote opens ends at the next such quote), or the start of
# a definition: a decorator, ``def``, ``class`` or ``async def`` first on its line (after a newline: the regex
# engine finds a character far faster than a ``^`` in multiline mode).
_DEF = re.compile(
    r'"""[^"]*(?:"(?!"")[^"]*)*"""|\'\'\'[^\']*(?:\'(?!\'\')[^\']*)*\'\'\'|\n([ \t]*)(@|def\s|class\s|async\s+def\s)'
)


def _starts(text: str) -> list[tuple[int, str, bool]]:
    """(offset, indent, is a class) of each definition in ``text`` in order, a decorated one from its first
    decorator, outside triple-quoted strings."""
    out: list[tuple[int, str, bool]] = []
    decorated: dict[str, int] = {}  # indent -> offset of a decorator stack not yet closed by its def or class
    for m in _DEF.finditer("\n" + text):  # offsets one past the text's
        word = m.group(2)
        if word is None:  # a string
            continue
        indent, start = m.group(1), m.start(1) - 1
        if word == "@":
            decorated.setdefault(indent, start)
            continue
        out.append((decorated.pop(indent, start), indent, word.startswith("class")))
    return out


def _names(text: str, words: tuple[str, ...], begin: int, end: int) -> bool:
    return any(text.find(w, begin, end) >= 0 for w in words)


def _kept(text: str, words: tuple[str, ...]) -> str:
    """``text`` with each top-level definition that names none of ``words`` blanked (what comes before the first is
    a part too), and in a class that names one, each method that names none replaced by ``pass``."""
    starts = _starts(text)
    tops = [k for k, (_, indent, _) in enumerate(starts) if not indent]
    bounds = [0, *(starts[k][0] for k in tops), len(text)]
    inner_end = [*tops, len(starts)]
    out: list[str] = []
    for j, (begin, end) in enumerate(zip(bounds, bounds[1:], strict=False)):
        if not _names(text, words, begin, end):
            out.append("\n" * text.count("\n", begin, end))
        elif j and starts[tops[j - 1]][2] and tops[j - 1] + 1 < inner_end[j]:  # a class with methods
            inner = starts[tops[j - 1] + 1 : inner_end[j]]
            _class(text, words, begin, end, [(s, indent) for s, indent, _ in inner], out)
        else:
            out.append(text[begin:end])
    return "".join(out)


def _class(text: str, words: tuple[str, ...], begin: int, end: int, inner: list[tuple[int, str]], out: list) -> None:
    """The class from ``begin`` to ``end``: its head, then each method (a definition at the indent of the class's first,
    up to the next one) kept, or replaced by ``pass`` when it names none of ``words`` and holds no line back at its
    indent or less (a statement of the class, or of the module, after the method)."""
    level = inner[0][1]
    cuts = [s for s, indent in inner if indent == level]
    back = re.compile(rf"\n[ \t]{{0,{len(level)}}}[^\s)\]}}#]")
    out.append(text[begin : cuts[0]])
    for cut, stop in zip(cuts, [*cuts[1:], end], strict=True):
        if _names(text, words, cut, stop) or back.search(text, cut, stop):
            out.append(text[cut:stop])
        else:
            out.append(level + "pass" + "\n" * text.count("\n", cut, stop))


def parse_near(text: str, rel: str, words: tuple[str, ...]) -> ast.Module:
    """Verl's file ``rel`` parsed without the definitions that name none of ``words`` (see the module's docstring);
    the whole file, by :func:`~verl_cookbook.facts.pyast.parse`, when the rest does not parse on its own."""
    try:
        return ast.parse(_kept(text, words), filename=rel)
    except (SyntaxError, ValueError):
        return parse(text, rel)


def walk_lines(node: ast.AST, lines: list[int]) -> tuple[list[ast.AST], dict[ast.AST, ast.AST]]:
    """The nodes ``ast.walk(node)`` yields, less those whose lines (a definition's from its first decorator) hold none
    of ``lines`` (and what is inside them), and each yielded node's parent. A node without lines (an operator, a
    comprehension) is followed as usual."""
    lines = sorted(lines)
    out: list[ast.AST] = []
    parents: dict[ast.AST, ast.AST] = {}
    todo = [node]
    for cur in todo:  # breadth first, as ast.walk: the list grows while it is read
        first = getattr(cur, "lineno", None)
        decorators = getattr(cur, "decorator_list", None)
        if decorators:  # a definition's line is its def's or class's, below the decorators it holds
            first = min(first, *(d.lineno for d in decorators))
        if first is not None:
            i = bisect_left(lines, first)
            if i == len(lines) or lines[i] > (getattr(cur, "end_lineno", None) or first):
                continue
        out.append(cur)
        for child in ast.iter_child_nodes(cur):
            parents[child] = cur
            todo.append(child)
    return out, parents


def nodes_near(text: str, rel: str, words: tuple[str, ...]) -> tuple[list[ast.AST], dict[ast.AST, ast.AST]]:
    """The nodes of verl's file ``rel`` that span a line holding one of ``words``, in ``ast.walk`` order, and each
    one's parent: what a fact about nodes that name one of ``words`` reads, and no more."""
    lines: list[int] = []
    line, at = 1, 0
    for start in sorted(_occurrences(text, words)):
        line += text.count("\n", at, start)
        at = start
        if not lines or lines[-1] != line:
            lines.append(line)
    return walk_lines(parse_near(text, rel, words), lines)


def _occurrences(text: str, words: tuple[str, ...]) -> set[int]:
    """Where each of ``words`` starts in ``text`` (``str.find``: several times faster than a regex alternation)."""
    out: set[int] = set()
    for word in words:
        at = text.find(word)
        while at >= 0:
            out.add(at)
            at = text.find(word, at + 1)
    return out
