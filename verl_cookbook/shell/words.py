"""The script's source as tree-sitter-bash reads it: ``Source`` maps a node to its line, column and text
(columns as written, spaces added before parsing taken back out); ``shell_words`` groups the nodes into the
words bash sees (tree-sitter sometimes splits one word into several nodes, or leaves escaped characters out of
every node: ``Gap``); ``tilde_words`` finds, by syntax, where bash expands ``~``. Syntax only: nothing here
looks at a variable's value."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from tree_sitter import Node

from verl_cookbook.shell.model import Script, positions
from verl_cookbook.shell.values import Seg

_ESCAPES_ONLY = re.compile(rb"(?:\\.)*", re.S)


@dataclass
class Gap:
    """Escaped characters tree-sitter-bash leaves out of every node (``"$A"\\ $B``): part of a word."""

    start_byte: int
    end_byte: int
    type: str = "escaped"


Piece = Node | Gap


def shell_words(src: bytes, nodes: list[Node]) -> list[list[Piece]]:
    """Nodes grouped into the shell words bash sees. Bash separates words only by unquoted whitespace (and
    operators, which are not among these nodes); tree-sitter-bash sometimes splits one word into several
    nodes (``k=$d/$r/x`` into ``k=$d/$`` and ``r/x``), which then touch, or leaves escaped characters out
    of every node (``"$A"\\ $B``, ``a \\ b``): those belong to the word they are written in."""
    out: list[list[Piece]] = []
    for n in nodes:
        if not out:
            out.append([n])
            continue
        runs = _escape_runs(src, out[-1][-1].end_byte, n.start_byte)
        if runs is None:  # something else between them (a redirection, a comment): separate words
            out.append([n])
            continue
        a, b = out[-1][-1].end_byte, n.start_byte
        if runs == [(a, b)]:  # nothing but escapes: one word
            out[-1].extend([Gap(a, b), n] if a < b else [n])
            continue
        head: list[Piece] = []
        for s, e in runs:
            if s == a:
                out[-1].append(Gap(s, e))
            elif e == b:
                head = [Gap(s, e)]
            else:
                out.append([Gap(s, e)])
        out.append([*head, n])
    return out


def _escape_runs(src: bytes, a: int, b: int) -> list[tuple[int, int]] | None:
    """Source bytes ``a:b`` between two nodes: the runs of escaped characters in them, whitespace between
    runs (``\\``-newline is no character: it neither ends nor starts a run); None when anything else is there.
    ``[(a, b)]`` when there is no whitespace at all (an empty gap included)."""
    runs: list[tuple[int, int]] = []
    start: int | None = a  # the run being read; a run at `a` continues the word before
    has_char = False
    i = a
    while i < b:
        c = src[i]
        if c == 0x5C and i + 1 < b:  # backslash
            if src[i + 1] != 0x0A:
                if start is None:
                    start = i
                has_char = True
            i += 2
            continue
        if c in b" \t\n":
            if start is not None and (has_char or start == a) and i > start:
                runs.append((start, i))
            start, has_char = None, False
            i += 1
            continue
        return None
    if start is not None and (has_char or start == a):
        runs.append((start, b))
    return runs


def touch(src: bytes, a: int, b: int) -> bool:
    """Whether source bytes ``a:b`` between two nodes leave them in one word: only escaped characters."""
    return a <= b and _ESCAPES_ONLY.fullmatch(src, a, b) is not None


class Source:
    """The script's bytes and where each was written: positions, text and segments of tree-sitter nodes."""

    def __init__(self, src: bytes, line_offset: int, script: Script) -> None:
        self.src = src
        self.off = line_offset
        self.script = script
        self.inserted: dict[int, list[int]] = {}  # row -> byte columns of spaces added before parsing
        self._line_starts = [0]
        for i, b in enumerate(src):
            if b == 10:
                self._line_starts.append(i + 1)

    def pos(self, node: Piece) -> tuple[int, int]:
        if isinstance(node, Gap):
            row = bisect.bisect_right(self._line_starts, node.start_byte) - 1
            return self.at(row, node.start_byte - self._line_starts[row])
        row, col = node.start_point
        return self.at(row, col)

    def at(self, row: int, byte_col: int) -> tuple[int, int]:
        start = self._line_starts[row] if row < len(self._line_starts) else 0
        col = len(self.src[start : start + byte_col].decode("utf-8", "replace"))
        col -= sum(1 for c in self.inserted.get(row, ()) if c < byte_col)
        return row + 1 + self.off, col + 1

    def text(self, node: Piece) -> str:
        return self.src[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def lit(self, text: str, node: Piece, quoted: bool = False, known: bool = True, split: bool = False) -> Seg:
        """A segment whose characters were written consecutively from ``node``'s start (newlines advance)."""
        pos = positions(text, *self.pos(node))
        return Seg(text, pos, known, quoted, split)

    def unknown(self, node: Node, quoted: bool = False, written: str | None = None) -> Seg:
        t = self.text(node) if written is None else written
        return Seg(t, [self.pos(node)] * len(t), False, quoted)

    def note(self, node: Node, message: str) -> None:
        self.script.notes.append((self.pos(node)[0], message))


def keyed(ev: Source, array: Node) -> bool:
    """Whether an array literal is written ``([key]=value …)`` (an associative array's form)."""
    kids = [g[0] for g in shell_words(ev.src, [c for c in array.named_children if c.type != "comment"])]
    return bool(kids) and all(ev.text(c).startswith("[") and "]=" in ev.text(c) for c in kids)


_TILDE_ARG = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=~")


def tilde_words(ev: Source, root: Node) -> dict[int, list[int]]:
    """Where bash performs tilde expansion, by syntax (bash manual, "Tilde Expansion"): a word that starts
    with an unquoted ``~``, an argument ``NAME=~…``, an assignment's value after its ``=`` and after each
    ``:``, and the word of ``${VAR:-~/…}`` (and the other default operators) outside double quotes.
    Returns start byte of the word node -> offsets of those ``~`` in its text."""
    out: dict[int, list[int]] = {}

    def add(n: Node | None, offsets: list[int]) -> None:
        if n is None or n.type != "word":
            return
        text = ev.text(n)
        if "\\" in text:
            return
        keep = [k for k in offsets if k < len(text) and text[k] == "~"]
        if keep:
            out[n.start_byte] = sorted(set(out.get(n.start_byte, []) + keep))

    def first_word(n: Node) -> Node | None:
        if n.type == "concatenation":
            return n.children[0] if n.children else None
        return n

    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        n, in_string = stack.pop()
        t = n.type
        if t == "command":
            head: Node | None = None  # the first node of the current word, and where that word ends so far
            end = -1
            for c in n.named_children:
                arg = c.named_children[0] if c.type == "command_name" and c.named_children else c
                w = first_word(arg)
                if head is not None and touch(ev.src, end, arg.start_byte):
                    # the rest of the word `head` starts (see `shell_words`): only an assignment's `:~` expands here
                    if head.type == "variable_assignment" and w is not None and w.type == "word":
                        add(w, [i + 1 for i, ch in enumerate(ev.text(w)) if ch == ":"])
                    end = arg.end_byte
                    continue
                head, end = arg, arg.end_byte
                if w is not None and w.type == "word":
                    m = _TILDE_ARG.match(ev.text(w))
                    add(w, [0] + ([m.end() - 1] if m else []))
        elif t == "variable_assignment":
            value = n.child_by_field_name("value")
            if value is not None and value.type == "array":
                for c in value.named_children:
                    add(first_word(c), [0])
            elif value is not None:
                words = [value] if value.type == "word" else [c for c in value.children if c.type == "word"]
                for w in words:
                    text = ev.text(w)
                    offs = [i + 1 for i, ch in enumerate(text) if ch == ":"]
                    add(w, ([0] if w.start_byte == value.start_byte else []) + offs)
        elif t == "expansion" and not in_string:
            kids = [c for c in n.children if c.type not in ("${", "}")]
            if len(kids) >= 3 and ev.text(kids[1]) in (":-", "-", ":=", "=", ":+", "+"):
                add(first_word(kids[2]), [0])
        inner = in_string or t in ("string", "translated_string", "heredoc_body")
        stack.extend((c, inner) for c in n.children)
    return out
