"""Read a shell script statically: its commands and environment exports.

Nothing is executed. tree-sitter-bash (a maintained bash grammar, Python wheels) parses the script; a small
evaluator then walks it the way bash would run it, without running anything:

- variables and arrays (``DATA=( a=1 b=2 )``, ``DATA+=( … )``), ``${VAR:-default}`` and the other default
  operators, ``"${ARR[@]}"``, word splitting of unquoted expansions (``${ENTRYPOINT}`` = ``-m verl.x``),
  launcher arrays (``"${LAUNCH[@]}" -m verl.trainer.main_ppo``);
- ``if``/``case`` whose condition compares known strings take the branch bash would take; otherwise each
  branch is read and the first branch's assignments are kept (a note says so);
- functions run where they are called, with ``$@`` bound to the call's arguments; a function never
  called is read once with unknown arguments;
- every word of a command remembers where each of its characters was written, so an override built
  from an array element keeps the element's own line.

What cannot be known statically (``$(…)``, ``$HOME`` when the script never sets it, the script's own
``$@``) stays as written in the word and is listed in ``Word.var_spans``: callers say so in a note rather
than guessing. ``bash -n`` remains the judge of syntax; parts tree-sitter cannot read become
``Script.unread`` (never a silent skip).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import tree_sitter_bash
from tree_sitter import Language, Node, Parser

from verl_cookbook.shell.commands import classify
from verl_cookbook.shell.model import Command, Export, Script, Word, positions

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_IFS = " \t\n"
_MAX_DEPTH = 20  # function calls inside function calls
_MAX_LOOP = 1000  # words of a `for` loop run one by one
_MAX_NODES = 200_000  # statements evaluated per script (loops are read once, so this is generous)


# -- expansion values ---------------------------------------------------------------------------------


@dataclass
class _Seg:
    """A run of characters of an expanded word: where each was written, and whether it is known."""

    text: str
    pos: list[tuple[int, int]]
    known: bool = True
    quoted: bool = False
    split: bool = False  # the result of an unquoted expansion: bash splits it on whitespace


_Field = list[_Seg]


@dataclass
class _Var:
    value: list[_Field] | None  # a scalar is one field; None: set but unknown (e.g. `$(…)`)
    is_array: bool
    line: int
    exported: bool = False
    keys: list[str] | None = None  # an associative array (`declare -A`): its keys, one per value


_LANGUAGE: Language | None = None


def bash_parser() -> Parser:
    global _LANGUAGE
    if _LANGUAGE is None:
        _LANGUAGE = Language(tree_sitter_bash.language())
    return Parser(_LANGUAGE)


def _field_text(f: _Field) -> str:
    return "".join(s.text for s in f)


def _field_known(f: _Field) -> bool:
    return all(s.known for s in f)


def _copy_vars(vs: dict[str, _Var]) -> dict[str, _Var]:
    return {
        k: _Var(v.value, v.is_array, v.line, v.exported, list(v.keys) if v.keys is not None else None)
        for k, v in vs.items()
    }


class _Eval:
    def __init__(self, src: bytes, line_offset: int, script: Script) -> None:
        self.src = src
        self.off = line_offset
        self.script = script
        self.vars: dict[str, _Var] = {}
        self.funcs: dict[str, Node] = {}
        self.called: set[str] = set()
        self.positional: list[_Field] | None = None  # None: the script's own arguments (unknown)
        self.depth = 0
        self.budget = _MAX_NODES
        self.inserted: dict[int, list[int]] = {}  # row -> byte columns of spaces added before parsing
        self.assoc: set[str] = set()  # names declared with `declare -A`
        self.tilde_words: dict[int, list[int]] = {}  # start byte of a word node -> offsets where bash expands `~`
        self._line_starts = [0]
        for i, b in enumerate(src):
            if b == 10:
                self._line_starts.append(i + 1)

    # -- positions
    def pos(self, node: _Piece) -> tuple[int, int]:
        if isinstance(node, _Gap):
            row = bisect.bisect_right(self._line_starts, node.start_byte) - 1
            return self.at(row, node.start_byte - self._line_starts[row])
        row, col = node.start_point
        return self.at(row, col)

    def at(self, row: int, byte_col: int) -> tuple[int, int]:
        start = self._line_starts[row] if row < len(self._line_starts) else 0
        col = len(self.src[start : start + byte_col].decode("utf-8", "replace"))
        col -= sum(1 for c in self.inserted.get(row, ()) if c < byte_col)
        return row + 1 + self.off, col + 1

    def text(self, node: _Piece) -> str:
        return self.src[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def lit(self, text: str, node: _Piece, quoted: bool = False, known: bool = True, split: bool = False) -> _Seg:
        """A segment whose characters were written consecutively from ``node``'s start (newlines advance)."""
        pos = positions(text, *self.pos(node))
        return _Seg(text, pos, known, quoted, split)

    def unknown(self, node: Node, quoted: bool = False, written: str | None = None) -> _Seg:
        t = self.text(node) if written is None else written
        return _Seg(t, [self.pos(node)] * len(t), False, quoted)

    def note(self, node: Node, message: str) -> None:
        self.script.notes.append((self.pos(node)[0], message))

    # -- words ------------------------------------------------------------------------------------
    def fields(self, node: Node) -> list[_Field]:
        """The fields (argv words) one argument node expands to, after word splitting."""
        return _split(self.parts(node, quoted=False))

    def word_fields(self, nodes: Sequence[_Piece]) -> list[_Field]:
        """The fields one shell word expands to, the word being nodes with no gap between them (see
        :func:`_words`)."""
        return _split(self.join(nodes, quoted=False))

    def join(self, nodes: Sequence[_Piece], quoted: bool) -> list[_Field]:
        """Fields before splitting of nodes written with no gap between them: one shell word for bash.

        tree-sitter-bash ends some words early: ``k=$d/$r/x`` reads as ``k=$d/$`` (a concatenation ending
        in a bare ``$``) followed by the word ``r/x``. A bare ``$`` followed at once by a word that starts
        with a name (or a digit, or one of ``@*#?$!-``) is bash's ``$name`` followed by the rest of that word."""
        if len(nodes) == 1 and isinstance(nodes[0], Node) and nodes[0].type != "concatenation":
            return self.parts(nodes[0], quoted)
        pieces: list[_Piece] = []
        stack = list(reversed(nodes))
        while stack:
            n = stack.pop()
            if isinstance(n, Node) and n.type == "concatenation":
                stack.extend(reversed(n.children))
            else:
                pieces.append(n)
        out: list[_Field] = [[]]
        i = 0
        while i < len(pieces):
            p = pieces[i]
            if i and pieces[i - 1].end_byte < p.start_byte and _touch(self.src, pieces[i - 1].end_byte, p.start_byte):
                out = _concat(out, [[self._escaped(pieces[i - 1].end_byte, p.start_byte)]])
            nxt = pieces[i + 1] if i + 1 < len(pieces) else None
            if isinstance(p, _Gap):
                out = _concat(out, [[self._escaped(p.start_byte, p.end_byte)]])
                i += 1
                continue
            if (
                p.type == "$"
                and isinstance(nxt, Node)
                and nxt.type in ("word", "number")
                and nxt.start_byte == p.end_byte
            ):
                got = self._dollar_word(p, nxt, quoted)
                if got is not None:
                    out = _concat(out, got)
                    i += 2
                    continue
            out = _concat(out, self.parts(p, quoted))
            i += 1
        return out

    def _escaped(self, a: int, b: int) -> _Seg:
        """Escaped characters between two nodes of one word (see :func:`_words`): each stands for itself,
        quoted; a ``\\``-newline is removed."""
        raw = self.src[a:b].decode("utf-8", "replace")
        row = bisect.bisect_right(self._line_starts, a) - 1
        pos = positions(raw, *self.at(row, a - self._line_starts[row]))
        text = [raw[i + 1] for i in range(0, len(raw) - 1, 2) if raw[i + 1] != "\n"]
        keep = [pos[i + 1] for i in range(0, len(raw) - 1, 2) if raw[i + 1] != "\n"]
        return _Seg("".join(text), keep, True, True)

    def _dollar_word(self, dollar: Node, word: Node, quoted: bool) -> list[_Field] | None:
        """A bare ``$`` node and the word right after it: ``$name`` expanded, then the word's remaining text."""
        m = re.match(r"[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-]", self.text(word))
        if m is None:
            return None
        name = m.group(0)
        value = self._lookup(name, dollar, quoted, None, written="$" + name)
        seg = self._unescape_word(word, quoted)
        k = len(name)  # name characters are never escaped: the first k characters are the name
        if k >= len(seg.text):
            return value
        return _concat(value, [[_Seg(seg.text[k:], seg.pos[k:], True, seg.quoted)]])

    def parts(self, node: Node, quoted: bool) -> list[_Field]:
        """Fields before splitting: usually one; ``"${A[@]}"`` gives one per element."""
        t = node.type
        if t in ("word", "number", "extglob_pattern"):
            if node.start_byte in self.tilde_words:
                return [self._tilde(node, quoted)]
            return [[self._unescape_word(node, quoted)]]
        if t == "raw_string":
            body = self.text(node)[1:-1]
            seg = self.lit(body, node, quoted=True)
            seg.pos = seg.pos[1:] + seg.pos[-1:] if len(seg.pos) > 0 else seg.pos
            return [[seg]]
        if t == "ansi_c_string":
            body = self.text(node)[2:-1]
            body = re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)
            return [[self.lit(body, node, quoted=True)]]
        if t in ("string", "translated_string"):
            # The text between the quotes, taken from the source: tree-sitter leaves whitespace next to a
            # `\`-newline out of its string_content nodes.
            out: list[_Field] = [[]]
            a = node.start_byte + (2 if t == "translated_string" else 1)
            end = max(a, node.end_byte - 1)
            vanished = False  # "${EMPTY[@]}" alone is no word at all
            for c in node.named_children:
                if c.type == "string_content":
                    continue
                if c.start_byte > a:
                    out[-1].append(self._dq_literal(a, c.start_byte))
                sub = self.parts(c, quoted=True)
                vanished = vanished or not sub
                out = _concat(out, sub)
                a = c.end_byte
            if end > a:
                out[-1].append(self._dq_literal(a, end))
            if len(out) == 1 and not out[0]:
                if vanished:
                    return []
                out[0].append(_Seg("", [], True, True))
            return out
        if t == "concatenation":
            return self.join([node], quoted)
        if t == "simple_expansion":
            name_node = node.named_children[0] if node.named_children else None
            name = self.text(name_node) if name_node else ""
            if len(name) > 1 and not (name[0].isalpha() or name[0] == "_"):
                # tree-sitter reads `$1_` or `$@k` as one name; bash's positional and special names are one
                # character
                line, col = self.pos(node)
                rest = _Seg(name[1:], positions(name[1:], line, col + 2), True, quoted)
                return _concat(self._lookup(name[0], node, quoted, None, written="$" + name[0]), [[rest]])
            return self._lookup(name, node, quoted, None)
        if t == "expansion":
            return self._expansion(node, quoted)
        if t == "arithmetic_expansion":
            value = self.arithmetic(node)
            if value is not None:
                return [[self.lit(str(value), node, quoted)]]
            return [[self.unknown(node, quoted)]]
        if t == "command_substitution" and self.text(node).startswith("$(("):
            # `${N:-$((2*4))}`: tree-sitter reads the arithmetic as a subshell; bash computes it
            value = self.arithmetic(node)
            return [[self.lit(str(value), node, quoted) if value is not None else self.unknown(node, quoted)]]
        if t in ("command_substitution", "process_substitution"):
            return [[self.unknown(node, quoted)]]
        if t == "array":  # not an argument; handled by assignments
            return [[self.unknown(node, quoted)]]
        # anything else (brace expressions, globs, tokens) is taken as written
        return [[self.lit(self.text(node), node, quoted)]]

    def arithmetic(self, node: Node) -> int | None:
        """``$(( … ))`` over integers and variables the script sets: + - * / % and parentheses. Expansions
        inside (``${K:-3}``, ``$N``) are replaced by their values first, as bash does."""
        body = self._arith_body(node)
        if body is None:
            return None
        out = []
        for tok in re.findall(r"\$?\{?[A-Za-z_][A-Za-z0-9_]*\}?|\d+|\*\*|[-+*/%()]|\s+|.", body):
            if tok.isspace():
                continue
            name = tok.lstrip("$").strip("{}")
            if _NAME.fullmatch(name):
                var = self.vars.get(name)
                if var is None or var.value is None or var.is_array or not var.value:
                    return None
                text = _field_text(var.value[0]).strip()
                if not _field_known(var.value[0]) or not _is_int(text):
                    return None
                out.append(f"({int(text)})")
            elif re.fullmatch(r"\d+|[-+*%()]", tok):
                out.append(tok)
            elif tok == "/":
                out.append("//")
            else:
                return None
        expr = " ".join(out)
        if not expr or len(expr) > 500:
            return None
        try:
            import ast

            tree = ast.parse(expr, mode="eval")
            allowed: tuple[type[ast.AST], ...] = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Add)
            allowed += (ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.USub, ast.UAdd)
            if not all(isinstance(n, allowed) for n in ast.walk(tree)):
                return None
            value = eval(compile(tree, "<arith>", "eval"), {"__builtins__": {}})  # noqa: S307 - integers only
        except (SyntaxError, ZeroDivisionError, ValueError, OverflowError, MemoryError):
            return None
        return int(value) if isinstance(value, int) and abs(value) < 10**18 else None

    def _arith_body(self, node: Node) -> str | None:
        """The text between ``$((`` and ``))`` with each expansion in it replaced by its known value."""
        text = self.text(node)
        if not (text.startswith("$((") and text.endswith("))")):
            return None
        pieces, a = [], node.start_byte + 3
        stack = list(reversed(node.named_children))
        subs: list[Node] = []
        while stack:
            n = stack.pop()
            if n.type in ("expansion", "simple_expansion", "command_substitution", "arithmetic_expansion"):
                subs.append(n)
            else:
                stack.extend(reversed(n.named_children))
        for n in sorted(subs, key=lambda n: n.start_byte):
            if n.start_byte < a:
                continue
            value = self._known_text(n)
            if value is None:
                return None
            pieces.append(self.src[a : n.start_byte].decode("utf-8", "replace"))
            pieces.append(value)
            a = n.end_byte
        pieces.append(self.src[a : node.end_byte - 2].decode("utf-8", "replace"))
        return "".join(pieces)

    def _tilde(self, node: Node, quoted: bool) -> _Field:
        """A word where bash expands ``~`` (see :func:`_tilde_words`): each ``~`` prefix (``~``, ``~/…``,
        after ``NAME=`` or ``:`` in an assignment) becomes ``$HOME``: its value when the script sets it,
        otherwise kept as unknown, since the home folder is the machine's."""
        seg = self._unescape_word(node, quoted)
        out: _Field = []
        starts = self.tilde_words[node.start_byte]
        a = 0
        for k in starts:
            if k >= len(seg.text) or seg.text[k] != "~" or (k + 1 < len(seg.text) and seg.text[k + 1] not in "/:"):
                continue
            if k > a:
                out.append(_Seg(seg.text[a:k], seg.pos[a:k], True, seg.quoted))
            home = self.vars.get("HOME")
            if home is not None and home.value and not home.is_array and _field_known(home.value[0]):
                value = _field_text(home.value[0])
                out.append(_Seg(value, [seg.pos[k]] * len(value), True, True))
            else:
                out.append(_Seg("~", [seg.pos[k]], False, seg.quoted))
            a = k + 1
        if a < len(seg.text) or not out:
            out.append(_Seg(seg.text[a:], seg.pos[a:], True, seg.quoted))
        return out

    def _unescape_word(self, node: Node, quoted: bool) -> _Seg:
        raw = self.text(node)
        if "\\" not in raw:
            return self.lit(raw, node, quoted)
        seg = self.lit(raw, node, quoted)
        text, pos, i, had = [], [], 0, False
        while i < len(raw):
            if raw[i] == "\\" and i + 1 < len(raw):
                had = True
                if raw[i + 1] == "\n":
                    i += 2
                    continue
                text.append(raw[i + 1])
                pos.append(seg.pos[i + 1])
                i += 2
                continue
            text.append(raw[i])
            pos.append(seg.pos[i])
            i += 1
        return _Seg("".join(text), pos, True, quoted or had)

    def _dq_literal(self, a: int, b: int) -> _Seg:
        """Source bytes ``a:b`` inside double quotes, with bash's escapes (``\\$ \\` \\" \\\\ \\newline``) removed."""
        raw = self.src[a:b].decode("utf-8", "replace")
        row = bisect.bisect_right(self._line_starts, a) - 1
        pos = positions(raw, *self.at(row, a - self._line_starts[row]))
        text, keep, i = [], [], 0
        while i < len(raw):
            if raw[i] == "\\" and i + 1 < len(raw) and raw[i + 1] in '$`"\\\n':
                if raw[i + 1] != "\n":
                    text.append(raw[i + 1])
                    keep.append(pos[i + 1])
                i += 2
                continue
            text.append(raw[i])
            keep.append(pos[i])
            i += 1
        return _Seg("".join(text), keep, True, True)

    def _lookup(
        self, name: str, node: Node, quoted: bool, index: str | None, written: str | None = None
    ) -> list[_Field]:
        """``$name`` / ``${name[index]}``: the variable's fields, or the expansion kept as unknown (as
        ``written`` when given, otherwise as ``node``'s text)."""
        if name in ("@", "*") or (index is None and name.isdigit()) or name == "#":
            if self.positional is None:
                return [[self.unknown(node, quoted, written)]]
            if name == "#":
                return [[self.lit(str(len(self.positional)), node, quoted)]]
            if name.isdigit():
                k = int(name)
                if k == 0:
                    return [[self.unknown(node, quoted, written)]]
                return [self._retag(self.positional[k - 1], quoted)] if k <= len(self.positional) else [[]]
            return self._elements(self.positional, quoted, joined=name == "*" and quoted)
        var = self.vars.get(name)
        if var is None:
            return [[self.unknown(node, quoted, written)]]
        if var.value is None:
            return [[self.unknown(node, quoted, written)]]
        if index in ("@", "*"):
            return self._elements(var.value, quoted, joined=index == "*" and quoted)
        if index is not None and index not in ("0",):
            if var.is_array and index.isdigit():
                k = int(index)
                return [self._retag(var.value[k], quoted)] if k < len(var.value) else [[]]
            return [[self.unknown(node, quoted, written)]]
        first = var.value[0] if var.value else []
        return [self._retag(first, quoted)]

    def _elements(self, values: list[_Field], quoted: bool, joined: bool) -> list[_Field]:
        if joined:
            out: _Field = []
            for i, f in enumerate(values):
                if i:
                    out.append(_Seg(" ", [f[0].pos[0] if f and f[0].pos else (0, 0)], True, True))
                out.extend(self._retag(f, True))
            return [out]
        if not values:
            return [] if quoted else [[]]
        return [self._retag(f, quoted) for f in values]

    @staticmethod
    def _retag(f: _Field, quoted: bool) -> _Field:
        """A stored value expanded in a word: quoted keeps it whole, unquoted lets bash split it."""
        return [_Seg(s.text, s.pos, s.known, quoted or s.quoted, split=not quoted) for s in f]

    def _expansion(self, node: Node, quoted: bool) -> list[_Field]:
        kids = [c for c in node.children if c.type not in ("${", "}")]
        if not kids:
            return [[self.unknown(node, quoted)]]
        if kids[0].type == "!" and len(kids) == 2 and kids[1].type == "subscript":  # ${!M[@]}: the keys
            n = kids[1].child_by_field_name("name")
            idx = kids[1].child_by_field_name("index")
            var = self.vars.get(self.text(n)) if n is not None else None
            if var is not None and var.keys is not None and idx is not None and self.text(idx) in ("@", "*"):
                fields = [[self.lit(k, node, quoted)] for k in var.keys]
                if self.text(idx) == "*" and quoted:
                    return [[self.lit(" ".join(var.keys), node, quoted)]]
                return fields if fields or quoted else [[]]
            return [[self.unknown(node, quoted)]]
        if kids[0].type in ("#", "!"):  # ${#x} length, ${!x} indirection
            return [[self.unknown(node, quoted)]]
        head = kids[0]
        index = None
        if head.type == "subscript":
            name_n = head.child_by_field_name("name")
            idx_n = head.child_by_field_name("index")
            name = self.text(name_n) if name_n else ""
            index = self.text(idx_n) if idx_n else None
            var = self.vars.get(name)
            if var is not None and var.keys is not None and var.value is not None and index not in ("@", "*"):
                key = self._known_text(idx_n)  # ${M[$k]}: the index is expanded first
                if key is None or len(kids) > 1:
                    return [[self.unknown(node, quoted)]]
                if key not in var.keys:
                    return [[]] if not quoted else [[self.lit("", node, True)]]
                return [self._retag(var.value[var.keys.index(key)], quoted)]
        elif head.type in ("variable_name", "special_variable_name"):
            name = self.text(head)
        else:
            return [[self.unknown(node, quoted)]]
        rest = kids[1:]
        if not rest:
            return self._lookup(name, node, quoted, index)
        op = self.text(rest[0])
        operand = rest[1:]
        if op not in (":-", "-", ":=", "=", ":+", "+"):
            return [[self.unknown(node, quoted)]]  # substring/pattern operators: not evaluated
        var = self.vars.get(name) if index in (None, "0", "@", "*") else None
        is_set = var is not None or (name in ("@", "*") and bool(self.positional))
        value = self._lookup(name, node, quoted, index) if is_set else None
        known_value = value is not None and all(_field_known(f) for f in value)
        empty = value is not None and known_value and all(_field_text(f) == "" for f in value)
        if var is None and name not in ("@", "*") and name.isidentifier() and op in (":-", "-", ":=", "="):
            # never set in the script: the default is what the script says (the environment may differ)
            return self._operand(operand, node, quoted, assign=name if "=" in op else None)
        if value is None:
            return [[self.unknown(node, quoted)]]
        if not known_value:
            return [[self.unknown(node, quoted)]]
        use_operand = {":-": empty, "-": False, ":=": empty, "=": False, ":+": not empty, "+": True}[op]
        if use_operand:
            return self._operand(operand, node, quoted, assign=name if "=" in op else None)
        if op in (":+", "+"):
            return [[]] if not quoted else [[self.lit("", node, True)]]
        return value

    def _operand(self, operand: list[Node], node: Node, quoted: bool, assign: str | None) -> list[_Field]:
        out: list[_Field] = _concat([[]], self.join(operand, quoted)) if operand else [[]]
        if assign:
            self.vars[assign] = _Var([_strip_split(f) for f in out[:1]], False, self.pos(node)[0])
        return out

    # -- statements -------------------------------------------------------------------------------
    def run(self, node: Node) -> None:
        self.budget -= 1
        if self.budget < 0:
            return
        t = node.type
        if t in ("program", "compound_statement", "do_group", "subshell", "list"):
            for c in node.named_children:
                self.run(c)
        elif t == "comment":
            return
        elif t == "ERROR":
            first, last = self.pos(node)[0], node.end_point[0] + 1 + self.off
            self.script.unread.append((first, last))
            self.note(node, f"lines {first}-{last} could not be read statically; commands there were not checked")
        elif t == "variable_assignment":
            self.assign(node, exported=False, kind="assign")
        elif t == "variable_assignments":
            for c in node.named_children:
                self.run(c)
        elif t == "declaration_command":
            self.declaration(node)
        elif t == "unset_command":
            for c in node.named_children[1:] if node.named_children else []:
                self.vars.pop(self.text(c), None)
        elif t == "command":
            self.command(node, None)
        elif t == "pipeline":
            prev = None
            for c in node.named_children:
                before = len(self.script.commands)
                if c.type == "command":
                    self.command(c, prev)
                else:
                    self.run(c)
                prev = before if len(self.script.commands) > before else None
        elif t == "redirected_statement":
            body = node.child_by_field_name("body")
            if body is not None:
                self.run(body)
        elif t == "negated_command":
            for c in node.named_children:
                self.run(c)
        elif t == "function_definition":
            name = node.child_by_field_name("name")
            body = node.child_by_field_name("body")
            if name is not None and body is not None:
                self.funcs[self.text(name)] = body
        elif t == "if_statement":
            self.if_statement(node)
        elif t == "case_statement":
            self.case_statement(node)
        elif t in ("for_statement", "c_style_for_statement", "while_statement"):
            self.loop(node)
        elif t == "test_command":
            return
        else:
            for c in node.named_children:
                if c.type in ("command", "pipeline", "list", "redirected_statement", "variable_assignment"):
                    self.run(c)

    def assign(
        self, node: Node, exported: bool, kind: str, cmd_prefix: bool = False, more: list[_Piece] | None = None
    ) -> tuple[str, _Var] | None:
        """``NAME=value``; ``more`` are nodes written right after it with no gap: the rest of the value (see
        :meth:`join`)."""
        name_n = node.child_by_field_name("name")
        value_n = node.child_by_field_name("value")
        if name_n is None:
            return None
        value_nodes: list[_Piece] = [*([value_n] if value_n is not None else []), *(more or [])]
        if name_n.type == "subscript":  # M[key]=x on an associative array is followed; A[3]=x is not
            n = name_n.child_by_field_name("name")
            var0 = self.vars.get(self.text(n)) if n is not None else None
            idx = self._known_text(name_n.child_by_field_name("index"))
            if var0 is not None and var0.keys is not None and var0.value is not None and idx is not None:
                value0: _Field = []
                if value_nodes:
                    for f in self.join(value_nodes, quoted=True):
                        value0.extend(_strip_split(f))
                if idx in var0.keys:
                    var0.value[var0.keys.index(idx)] = value0
                else:
                    var0.keys.append(idx)
                    var0.value.append(value0)
            elif var0 is not None:
                var0.value = None
            return None
        name = self.text(name_n)
        append = any(c.type == "+=" for c in node.children)
        line = self.pos(node)[0]
        if value_n is not None and value_n.type == "array" and (name in self.assoc or _keyed(self, value_n)):
            keys: list[str] | None = []
            elems: list[_Field] = []
            for g in _words(self.src, [c for c in value_n.named_children if c.type != "comment"]):
                m = re.fullmatch(r"\[(.*?)\]=(.*)", self._known_text_of(g) or "", re.S)
                if m is None or keys is None:
                    keys = None
                    continue
                keys.append(m.group(1))
                elems.append([self.lit(m.group(2), g[0], quoted=True)])
            old = self.vars.get(name)
            if append and old is not None and old.keys is not None and keys is not None and old.value is not None:
                keys, elems = old.keys + keys, list(old.value) + elems
            var = _Var(elems if keys is not None else None, True, line, exported, keys)
        elif value_n is not None and value_n.type == "array":
            elems = []
            for g in _words(self.src, [c for c in value_n.named_children if c.type != "comment"]):
                elems.extend(self.word_fields(g))
            old = self.vars.get(name)
            if append and old is not None and old.value is not None:
                elems = list(old.value) + elems
            var = _Var(elems, True, line, exported or bool(old and old.exported))
        else:
            value: _Field = []
            if value_nodes:
                for i, f in enumerate(self.join(value_nodes, quoted=True)):  # no word splitting in an assignment
                    if i:  # X="${ARR[@]}": the elements joined by spaces
                        value.append(
                            _Seg(" ", [f[0].pos[0] if f and f[0].pos else self.pos(value_nodes[0])], True, True)
                        )
                    value.extend(_strip_split(f))
            old = self.vars.get(name)
            if append and old is not None and old.value is not None:
                if old.is_array:
                    var = _Var([*old.value, value], True, line, old.exported)
                else:
                    var = _Var([[*(old.value[0] if old.value else []), *value]], False, line, old.exported)
            else:
                var = _Var([value], False, line, exported or bool(old and old.exported))
        if not cmd_prefix:
            self.vars[name] = var
        if not var.is_array:
            f = var.value[0] if var.value else []
            self.script.exports.append(
                Export(
                    name,
                    _field_text(f),
                    *self.pos(node),
                    exported=exported or kind == "prefix" or var.exported,
                    kind=kind,
                    has_var=not _field_known(f),
                )
            )
        return name, var

    def declaration(self, node: Node) -> None:
        kw = self.text(node.children[0]) if node.children else ""
        opts = [self.text(c) for c in node.named_children if c.type == "word" and self.text(c).startswith("-")]
        exported = kw == "export" or any("x" in o for o in opts)
        if any("A" in o for o in opts):
            for c in node.named_children:
                n = c.child_by_field_name("name") if c.type == "variable_assignment" else c
                if n is not None and n.type == "variable_name":
                    self.assoc.add(self.text(n))
                    if c.type == "variable_name":
                        self.vars[self.text(n)] = _Var([], True, self.pos(c)[0], keys=[])
        if any("n" in o for o in opts) and kw == "export":
            exported = False
        for group in _words(self.src, list(node.named_children)):
            item = group[0]
            if not isinstance(item, Node):
                continue
            if item.type == "variable_assignment":
                self.assign(item, exported=exported, kind="export" if exported else "assign", more=group[1:])
            elif item.type == "variable_name" and exported:
                name = self.text(item)
                var = self.vars.get(name)
                if var is not None:
                    var.exported = True
                value = None
                has_var = False
                if var is not None and not var.is_array and var.value is not None:
                    value = _field_text(var.value[0]) if var.value else ""
                    has_var = not _field_known(var.value[0]) if var.value else False
                self.script.exports.append(Export(name, value, *self.pos(item), True, "export", has_var))

    def command(self, node: Node, piped_from: int | None) -> None:
        env: dict[str, str] = {}
        words: list[Word] = []
        nodes: list[Node] = []
        for c in node.children:
            if c.type == "command_name":
                nodes.extend(c.named_children)
            elif c.type == "variable_assignment" or (c.is_named and c.type not in _NOT_ARGUMENTS):
                nodes.append(c)
            elif c.type in ("==", "=~"):  # tree-sitter's test operators; in a command, text of an argument
                nodes.append(c)
        groups = _words(self.src, nodes)
        # `X=$d/$r/v` alone is read by tree-sitter as an assignment prefixing the command `r/v`; joined
        # back into one word, no command is left, and bash assigns X in the shell itself.
        prefix = any(g[0].type != "variable_assignment" for g in groups)
        for g in groups:
            head = g[0]
            if isinstance(head, Node) and head.type == "variable_assignment":
                if not prefix:
                    self.assign(head, exported=False, kind="assign", more=g[1:])
                    continue
                got = self.assign(head, exported=True, kind="prefix", cmd_prefix=True, more=g[1:])
                if got:
                    env[got[0]] = _field_text(got[1].value[0]) if got[1].value else ""
            else:
                words.extend(_word(f) for f in self.word_fields(g))
        if not words:
            return
        line = self.pos(node)[0]
        name = words[0].text
        if name in self.funcs and not words[0].has_var:
            self.call(name, words[1:], node)
        argv = [w.text for w in words]
        cmd = Command(
            argv,
            line,
            [w.line for w in words],
            arg_cols=[w.col for w in words],
            words=words,
            env=env,
            piped_from=piped_from,
        )
        cmd.module, cmd.args_start = classify(argv)
        if (
            cmd.module
            and not cmd.module.startswith("verl.")
            and cmd.args_start < len(argv)
            and re.fullmatch(r"verl(\.[A-Za-z_][A-Za-z0-9_]*)+", argv[cmd.args_start])
        ):
            # a launcher module that runs a verl module (`-m some_launcher verl.trainer.sft_trainer …`)
            cmd.via = cmd.module
            cmd.module, cmd.args_start = argv[cmd.args_start], cmd.args_start + 1
        if words[0].has_var and words[0].var_spans[0][0] == 0:
            self.note(node, f"the command name `{words[0].text}` is not known statically: this command was not checked")
        self.script.commands.append(cmd)

    def call(self, name: str, args: list[Word], node: Node) -> None:
        if self.depth >= _MAX_DEPTH:
            return
        self.called.add(name)
        saved = self.positional
        self.positional = [_word_field(w) for w in args]
        self.depth += 1
        try:
            self.run(self.funcs[name])
        finally:
            self.depth -= 1
            self.positional = saved

    def finish(self) -> None:
        """Functions defined but never called (or called in a way not followed): read once, ``$@`` unknown."""
        for name, body in list(self.funcs.items()):
            if name not in self.called:
                self.called.add(name)
                self.positional = None
                self.run(body)

    # -- control flow -----------------------------------------------------------------------------
    def condition(self, node: Node | None) -> bool | None:
        """True/False when a condition compares strings the script fixes; None when it cannot be known."""
        if node is None:
            return None
        t = node.type
        if t == "list":
            kids = node.children
            result = self.condition(kids[0]) if kids else None
            i = 1
            while i + 1 < len(kids):
                op, right = kids[i].type, self.condition(kids[i + 1])
                if op == "&&":
                    result = False if result is False or right is False else (True if result and right else None)
                elif op == "||":
                    result = (
                        True
                        if result is True or right is True
                        else (False if result is False and right is False else None)
                    )
                i += 2
            return result
        if t == "negated_command":
            inner = self.condition(node.named_children[0]) if node.named_children else None
            return None if inner is None else not inner
        if t == "test_command":
            exprs = node.named_children
            return self.condition(exprs[0]) if len(exprs) == 1 else None
        if t == "parenthesized_expression":
            return self.condition(node.named_children[0]) if node.named_children else None
        if t == "unary_expression":
            op = self.text(node.children[0]) if node.children else ""
            arg = node.named_children[-1] if node.named_children else None
            if op == "!" and arg is not None:
                negated = self.condition(arg)
                return None if negated is None else not negated
            s = self._known_text(arg)
            if s is None or op not in ("-z", "-n"):
                return None
            return (s == "") if op == "-z" else (s != "")
        if t == "binary_expression":
            op_n = node.child_by_field_name("operator")
            op = self.text(op_n) if op_n is not None else ""
            lhs = self._known_text(node.child_by_field_name("left"))
            rhs = self._known_text(node.child_by_field_name("right"))
            if lhs is None or rhs is None:
                return None
            if op in ("=", "=="):
                return lhs == rhs
            if op == "!=":
                return lhs != rhs
            if op in ("-eq", "-ne", "-lt", "-le", "-gt", "-ge") and _is_int(lhs) and _is_int(rhs):
                a, b = int(lhs), int(rhs)
                return {"-eq": a == b, "-ne": a != b, "-lt": a < b, "-le": a <= b, "-gt": a > b, "-ge": a >= b}[op]
            return None
        if t == "command":
            name = node.child_by_field_name("name")
            word = self.text(name) if name is not None else ""
            return {"true": True, "false": False, ":": True}.get(word)
        if t in ("string", "word", "simple_expansion", "expansion", "concatenation", "raw_string", "number"):
            s = self._known_text(node)
            return None if s is None else s != ""
        return None

    def _known_text(self, node: Node | None) -> str | None:
        return None if node is None else self._known_text_of([node])

    def _known_text_of(self, nodes: Sequence[_Piece]) -> str | None:
        fs = self.join(nodes, quoted=True)
        if not all(_field_known(f) for f in fs):
            return None
        return " ".join(_field_text(f) for f in fs)

    def if_statement(self, node: Node) -> None:
        branches: list[tuple[Node | None, list[Node]]] = []  # (condition, body statements)
        cond: Node | None = node.child_by_field_name("condition")
        body: list[Node] = []
        seen_then = False
        for c in node.children:
            if c.type == "then":
                seen_then = True
            elif c.type in ("elif_clause", "else_clause"):
                if seen_then:
                    branches.append((cond, body))
                    seen_then = False
                if c.type == "elif_clause":
                    sub = [x for x in c.named_children]
                    ccond = c.child_by_field_name("condition") or (sub[0] if sub else None)
                    after = False
                    stmts = []
                    for x in c.children:
                        if x.type == "then":
                            after = True
                        elif after and x.is_named:
                            stmts.append(x)
                    branches.append((ccond, stmts))
                else:
                    branches.append((None, [x for x in c.named_children]))
                body = []
            elif seen_then and c.is_named and c.type != "comment":
                body.append(c)
        if seen_then:
            branches.append((cond, body))
        has_else = any(x.type == "else_clause" for x in node.children)
        self._choose(branches, has_else, node, "if")

    def _choose(
        self,
        branches: list[tuple[Node | None, list[Node]]],
        has_else: bool,
        node: Node,
        what: str,
        decided: bool = True,
    ) -> None:
        undecided: list[list[Node]] = []
        for i, (cond, stmts) in enumerate(branches):
            is_else = has_else and i == len(branches) - 1 and cond is None
            verdict = (True if is_else else self.condition(cond)) if decided else None
            if verdict is True and not undecided:
                for s in stmts:
                    self.run(s)
                return
            if verdict is False:
                continue
            undecided.append(stmts)
            if verdict is True:
                break
        if not undecided:
            return
        before = _copy_vars(self.vars)
        results = []
        for stmts in undecided:
            self.vars = _copy_vars(before)
            for s in stmts:
                self.run(s)
            results.append(self.vars)
        self.vars = results[0]
        differ = sorted(
            k
            for k in set().union(*[set(r) for r in results])
            if any(_var_text(r.get(k)) != _var_text(results[0].get(k)) for r in results[1:])
        )
        if differ and (len(results) > 1 or not has_else):
            self.note(
                node,
                f"`{what}` at this line depends on something not known statically; its first branch was "
                f"followed for {', '.join(differ[:5])}{'…' if len(differ) > 5 else ''}",
            )

    def case_statement(self, node: Node) -> None:
        value = self._known_text(node.child_by_field_name("value"))
        undecided: list[list[Node]] = []
        for item in node.named_children:
            if item.type != "case_item":
                continue
            values = item.children_by_field_name("value")
            body = [c for c in item.named_children if c.type != "comment" and c not in values]
            texts = [self._known_text(v) for v in values]
            if value is not None and not undecided:
                if value in texts or "*" in texts:
                    for s in body:
                        self.run(s)
                    return
                if all(t is not None and not any(ch in t for ch in "*?[|") for t in texts):
                    continue
            undecided.append(body)
        self._choose([(None, b) for b in undecided], False, node, "case", decided=False)

    def loop(self, node: Node) -> None:
        """A ``for NAME in WORDS`` whose words are known runs its body once per word, as bash does (so
        ``ARGS+=("++x.${k}=1")`` over a literal list gives every override); any other loop (unknown words,
        ``while``, C-style ``for``) is read once, and a note says what it may add that was not followed."""
        body = node.child_by_field_name("body")
        var = node.child_by_field_name("variable")
        if node.type == "for_statement" and var is not None:
            values = node.children_by_field_name("value")
            fields = [f for g in _words(self.src, values) for f in self.word_fields(g)] if values else None
            name = self.text(var)
            if fields is not None and all(_field_known(f) for f in fields) and len(fields) <= _MAX_LOOP:
                sc = self.script
                for i, f in enumerate(fields):
                    self.vars[name] = _Var([_strip_split(f)], False, self.pos(node)[0])
                    kept = (len(sc.commands), len(sc.exports), len(sc.notes))
                    if body is not None:
                        self.run(body)
                    if i:  # the commands are those of the first pass: a command is judged once, not per word
                        del sc.commands[kept[0] :], sc.exports[kept[1] :], sc.notes[kept[2] :]
                return
            self.vars[name] = _Var(None, False, self.pos(node)[0])
            why = (
                f"more than {_MAX_LOOP} words"
                if fields is not None and all(_field_known(f) for f in fields)
                else "words not known statically"
            )
        else:
            why = "a condition not known statically"
        before = {k: _var_text(v) for k, v in self.vars.items()}
        if body is not None:
            self.run(body)
        grown = sorted(k for k, v in self.vars.items() if _var_text(v) != before.get(k) and k != self.text(var or node))
        if grown:
            self.note(
                node,
                f"the loop at this line repeats over {why}: it was read once, so what it adds to "
                f"{', '.join(f'`{k}`' for k in grown[:5])}{'…' if len(grown) > 5 else ''} may be incomplete",
            )


_NOT_ARGUMENTS = ("file_redirect", "herestring_redirect", "heredoc_redirect", "comment", "subshell", "ERROR")


_ESCAPES_ONLY = re.compile(rb"(?:\\.)*", re.S)


@dataclass
class _Gap:
    """Escaped characters tree-sitter-bash leaves out of every node (``"$A"\\ $B``): part of a word."""

    start_byte: int
    end_byte: int
    type: str = "escaped"


_Piece = Node | _Gap


def _words(src: bytes, nodes: list[Node]) -> list[list[_Piece]]:
    """Nodes grouped into the shell words bash sees. Bash separates words only by unquoted whitespace (and
    operators, which are not among these nodes); tree-sitter-bash sometimes splits one word into several
    nodes (``k=$d/$r/x`` into ``k=$d/$`` and ``r/x``), which then touch, or leaves escaped characters out
    of every node (``"$A"\\ $B``, ``a \\ b``): those belong to the word they are written in."""
    out: list[list[_Piece]] = []
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
            out[-1].extend([_Gap(a, b), n] if a < b else [n])
            continue
        head: list[_Piece] = []
        for s, e in runs:
            if s == a:
                out[-1].append(_Gap(s, e))
            elif e == b:
                head = [_Gap(s, e)]
            else:
                out.append([_Gap(s, e)])
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


def _touch(src: bytes, a: int, b: int) -> bool:
    """Whether source bytes ``a:b`` between two nodes leave them in one word: only escaped characters."""
    return a <= b and _ESCAPES_ONLY.fullmatch(src, a, b) is not None


def _is_int(s: str) -> bool:
    return bool(re.fullmatch(r"-?\d+", s.strip()))


def _var_text(v: _Var | None) -> Any:
    if v is None or v.value is None:
        return None
    return [(_field_text(f), _field_known(f)) for f in v.value]


def _strip_split(f: _Field) -> _Field:
    return [_Seg(s.text, s.pos, s.known, s.quoted, False) for s in f]


def _concat(left: list[_Field], right: list[_Field]) -> list[_Field]:
    """Juxtaposed parts of one word: the last field of the left joins the first field of the right."""
    if not right:
        return left
    if not left:
        return right
    return [*left[:-1], left[-1] + right[0], *right[1:]]


def _split(fields: list[_Field]) -> list[_Field]:
    """Bash's word splitting: whitespace inside unquoted expansion results separates fields."""
    out: list[_Field] = []
    for f in fields:
        cur: _Field = []
        started = False  # a field exists even if empty (a quoted "" or a literal)
        for s in f:
            if not (s.split and s.known):
                cur.append(s)
                started = started or s.quoted or bool(s.text) or not s.known
                continue
            buf: list[str] = []
            bpos: list[tuple[int, int]] = []
            for ch, p in zip(s.text, s.pos, strict=False):
                if ch in _IFS:
                    if buf:
                        cur.append(_Seg("".join(buf), bpos, True, s.quoted))
                        started = True
                        buf, bpos = [], []
                    if started:
                        out.append(cur)
                    cur, started = [], False
                else:
                    buf.append(ch)
                    bpos.append(p)
            if buf:
                cur.append(_Seg("".join(buf), bpos, True, s.quoted))
                started = True
        if started:
            out.append(cur)
    return out


def _word(f: _Field) -> Word:
    text = _field_text(f)
    pos = [p for s in f for p in s.pos]
    spans = []
    a = 0
    for s in f:
        if not s.known:
            spans.append((a, a + len(s.text)))
        a += len(s.text)
    first = next((s.pos[0] for s in f if s.pos), (0, 0))
    return Word(text, first[0], first[1], any(s.quoted for s in f), spans, text, pos)


def _word_field(w: Word) -> _Field:
    if not w.var_spans:
        return [_Seg(w.text, w.lines or [(w.line, w.col)] * len(w.text), True, w.quoted)]
    out: _Field = []
    a = 0
    for s, e in w.var_spans:
        if s > a:
            out.append(_Seg(w.text[a:s], [w.where(k) for k in range(a, s)], True, w.quoted))
        out.append(_Seg(w.text[s:e], [w.where(k) for k in range(s, e)], False, w.quoted))
        a = e
    if a < len(w.text):
        out.append(_Seg(w.text[a:], [w.where(k) for k in range(a, len(w.text))], True, w.quoted))
    return out


def _keyed(ev: _Eval, array: Node) -> bool:
    """Whether an array literal is written ``([key]=value …)`` (an associative array's form)."""
    kids = [g[0] for g in _words(ev.src, [c for c in array.named_children if c.type != "comment"])]
    return bool(kids) and all(ev.text(c).startswith("[") and "]=" in ev.text(c) for c in kids)


_TILDE_ARG = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=~")


def _tilde_words(ev: _Eval, root: Node) -> dict[int, list[int]]:
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
                if head is not None and _touch(ev.src, end, arg.start_byte):
                    # the rest of the word `head` starts (see `_words`): only an assignment's `:~` expands here
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


def _cut_continuations(ev: _Eval, root: Node, script: Script) -> None:
    """A comment line right after a line ending in ``\\``: bash joins them, the comment swallows the rest,
    and the command ends there; the argument lines after the comment are not part of it."""
    lines = ev.src.decode("utf-8", "replace").split("\n")
    comments: set[int] = set()
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type == "comment":
            comments.add(n.start_point[0])
        elif n.type not in ("heredoc_body", "string", "raw_string"):
            stack.extend(n.children)
    for row in sorted(comments):
        if row == 0 or not _ends_with_continuation(lines[row - 1]):
            continue
        if lines[row - 1].lstrip().startswith("#"):
            continue  # a commented-out continuation line: inert
        nxt = row + 1
        while nxt < len(lines) and lines[nxt].lstrip().startswith("#"):
            nxt += 1
        if nxt >= len(lines) or not lines[nxt].strip():
            continue
        start = row - 1
        while start > 0 and _ends_with_continuation(lines[start - 1]) and not lines[start - 1].lstrip().startswith("#"):
            start -= 1
        after = lines[nxt].strip().split()[0]
        script.cut_continuations.append((row + 1 + ev.off, start + 1 + ev.off, nxt + 1 + ev.off, after))


def _ends_with_continuation(line: str) -> bool:
    stripped = line.rstrip("\r")
    n = len(stripped) - len(stripped.rstrip("\\"))
    return n % 2 == 1


def parse_script(text: str, file: str = "<script>", line_offset: int = 0) -> Script:
    """Commands and environment assignments of a shell script, with 1-based lines (+ ``line_offset``).

    Never raises: what cannot be read becomes ``Script.unread`` / ``Script.notes``."""
    script = Script(file)
    src = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else bytes(text)
    try:
        tree = bash_parser().parse(src)
    except Exception as e:  # noqa: BLE001 - a parser failure is reported, never raised
        script.errors.append((1 + line_offset, 1, f"the shell reader failed: {type(e).__name__}"))
        return script
    inserted: dict[int, list[int]] = {}
    if tree.root_node.has_error and b"$(((" in src:
        # tree-sitter-bash misreads `$(((a + b) * 2))`; bash reads it as arithmetic, and so does
        # `$(( (a + b) * 2))`, which tree-sitter parses: add that space (columns are mapped back).
        src, inserted = _space_arithmetic(src)
        tree = bash_parser().parse(src)
    ev = _Eval(src, line_offset, script)
    ev.inserted = inserted
    try:
        ev.tilde_words = _tilde_words(ev, tree.root_node)
        ev.run(tree.root_node)
        ev.finish()
        _cut_continuations(ev, tree.root_node, script)
    except RecursionError:
        script.notes.append((1 + line_offset, "the script nests too deeply to be read statically"))
    _syntax_problems(ev, tree.root_node, script)
    return script


def _space_arithmetic(src: bytes) -> tuple[bytes, dict[int, list[int]]]:
    out = bytearray()
    inserted: dict[int, list[int]] = {}
    row, line_start, i = 0, 0, 0
    while i < len(src):
        if src.startswith(b"$(((", i):
            out += b"$(( "
            inserted.setdefault(row, []).append(len(out) - 1 - line_start)
            i += 3
            continue
        if src[i] == 10:
            row += 1
            line_start = len(out) + 1
        out.append(src[i])
        i += 1
    return bytes(out), inserted


def _syntax_problems(ev: _Eval, root: Node, script: Script) -> None:
    """tree-sitter's MISSING nodes (an unterminated quote, here-document or block) as errors."""
    stack = [root]
    while stack:
        n = stack.pop()
        if n.is_missing:
            line, col = ev.pos(n)
            script.errors.append((line, col, f"`{n.type}` expected here (unterminated construct)"))
        elif n.has_error:
            stack.extend(n.children)
