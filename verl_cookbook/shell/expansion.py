"""Bash's expansion of one word, statically: ``Expander`` turns the nodes of a word into fields, with
quoting and escapes removed, ``$name`` / ``${name[index]}`` / ``"${ARR[@]}"`` looked up in the variables the
script has set (or the call's ``$@``), the default operators (``${X:-d}``, ``${X:=d}``, ``${X:+a}``), ``~`` and
``$(( … ))`` over known integers. What cannot be known (``$(…)``, unset variables, the script's own ``$@``)
stays as written, marked unknown."""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from tree_sitter import Node

from verl_cookbook.shell.model import Script, positions
from verl_cookbook.shell.patterns import strip_affix, substitute
from verl_cookbook.shell.values import (
    Field,
    Seg,
    Var,
    concat,
    field_known,
    field_text,
    is_int,
    split_fields,
    strip_split,
)
from verl_cookbook.shell.words import Gap, Piece, Source, touch

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PATTERN_OPS = ("/", "//", "/#", "/%", "#", "##", "%", "%%")


class Expander(Source):
    """Bash's expansions of words: the variables, the positional arguments, ``~``, ``$(( … ))``."""

    def __init__(self, src: bytes, line_offset: int, script: Script) -> None:
        super().__init__(src, line_offset, script)
        self.vars: dict[str, Var] = {}
        self.positional: list[Field] | None = None  # None: the script's own arguments (unknown)
        self.tilde_words: dict[int, list[int]] = {}  # start byte of a word node -> offsets where bash expands `~`

    # -- words ------------------------------------------------------------------------------------
    def fields(self, node: Node) -> list[Field]:
        """The fields (argv words) one argument node expands to, after word splitting."""
        return split_fields(self.parts(node, quoted=False))

    def word_fields(self, nodes: Sequence[Piece]) -> list[Field]:
        """The fields one shell word expands to, the word being nodes with no gap between them (see
        :func:`shell_words`)."""
        return split_fields(self.join(nodes, quoted=False))

    def join(self, nodes: Sequence[Piece], quoted: bool) -> list[Field]:
        """Fields before splitting of nodes written with no gap between them: one shell word for bash.

        tree-sitter-bash ends some words early: ``k=$d/$r/x`` reads as ``k=$d/$`` (a concatenation ending
        in a bare ``$``) followed by the word ``r/x``. A bare ``$`` followed at once by a word that starts
        with a name (or a digit, or one of ``@*#?$!-``) is bash's ``$name`` followed by the rest of that word."""
        if len(nodes) == 1 and isinstance(nodes[0], Node) and nodes[0].type != "concatenation":
            return self.parts(nodes[0], quoted)
        pieces: list[Piece] = []
        stack = list(reversed(nodes))
        while stack:
            n = stack.pop()
            if isinstance(n, Node) and n.type == "concatenation":
                stack.extend(reversed(n.children))
            else:
                pieces.append(n)
        out: list[Field] = [[]]
        i = 0
        while i < len(pieces):
            p = pieces[i]
            if i and pieces[i - 1].end_byte < p.start_byte and touch(self.src, pieces[i - 1].end_byte, p.start_byte):
                out = concat(out, [[self._escaped(pieces[i - 1].end_byte, p.start_byte)]])
            nxt = pieces[i + 1] if i + 1 < len(pieces) else None
            if isinstance(p, Gap):
                out = concat(out, [[self._escaped(p.start_byte, p.end_byte)]])
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
                    out = concat(out, got)
                    i += 2
                    continue
            out = concat(out, self.parts(p, quoted))
            i += 1
        return out

    def _escaped(self, a: int, b: int) -> Seg:
        """Escaped characters between two nodes of one word (see :func:`shell_words`): each stands for itself,
        quoted; a ``\\``-newline is removed."""
        raw = self.src[a:b].decode("utf-8", "replace")
        row = bisect.bisect_right(self._line_starts, a) - 1
        pos = positions(raw, *self.at(row, a - self._line_starts[row]))
        text = [raw[i + 1] for i in range(0, len(raw) - 1, 2) if raw[i + 1] != "\n"]
        keep = [pos[i + 1] for i in range(0, len(raw) - 1, 2) if raw[i + 1] != "\n"]
        return Seg("".join(text), keep, True, True)

    def _dollar_word(self, dollar: Node, word: Node, quoted: bool) -> list[Field] | None:
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
        return concat(value, [[Seg(seg.text[k:], seg.pos[k:], True, seg.quoted)]])

    def parts(self, node: Node, quoted: bool) -> list[Field]:
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
            out: list[Field] = [[]]
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
                out = concat(out, sub)
                a = c.end_byte
            if end > a:
                out[-1].append(self._dq_literal(a, end))
            if len(out) == 1 and not out[0]:
                if vanished:
                    return []
                out[0].append(Seg("", [], True, True))
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
                rest = Seg(name[1:], positions(name[1:], line, col + 2), True, quoted)
                return concat(self._lookup(name[0], node, quoted, None, written="$" + name[0]), [[rest]])
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
                text = field_text(var.value[0]).strip()
                if not field_known(var.value[0]) or not is_int(text):
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

    def _tilde(self, node: Node, quoted: bool) -> Field:
        """A word where bash expands ``~`` (see :func:`tilde_words`): each ``~`` prefix (``~``, ``~/…``,
        after ``NAME=`` or ``:`` in an assignment) becomes ``$HOME``: its value when the script sets it,
        otherwise kept as unknown, since the home folder is the machine's."""
        seg = self._unescape_word(node, quoted)
        out: Field = []
        starts = self.tilde_words[node.start_byte]
        a = 0
        for k in starts:
            if k >= len(seg.text) or seg.text[k] != "~" or (k + 1 < len(seg.text) and seg.text[k + 1] not in "/:"):
                continue
            if k > a:
                out.append(Seg(seg.text[a:k], seg.pos[a:k], True, seg.quoted))
            home = self.vars.get("HOME")
            if home is not None and home.value and not home.is_array and field_known(home.value[0]):
                value = field_text(home.value[0])
                out.append(Seg(value, [seg.pos[k]] * len(value), True, True))
            else:
                out.append(Seg("~", [seg.pos[k]], False, seg.quoted))
            a = k + 1
        if a < len(seg.text) or not out:
            out.append(Seg(seg.text[a:], seg.pos[a:], True, seg.quoted))
        return out

    def _unescape_word(self, node: Node, quoted: bool) -> Seg:
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
        return Seg("".join(text), pos, True, quoted or had)

    def _dq_literal(self, a: int, b: int) -> Seg:
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
        return Seg("".join(text), keep, True, True)

    def _lookup(
        self, name: str, node: Node, quoted: bool, index: str | None, written: str | None = None
    ) -> list[Field]:
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

    def _elements(self, values: list[Field], quoted: bool, joined: bool) -> list[Field]:
        if joined:
            out: Field = []
            for i, f in enumerate(values):
                if i:
                    out.append(Seg(" ", [f[0].pos[0] if f and f[0].pos else (0, 0)], True, True))
                out.extend(self._retag(f, True))
            return [out]
        if not values:
            return [] if quoted else [[]]
        return [self._retag(f, quoted) for f in values]

    @staticmethod
    def _retag(f: Field, quoted: bool) -> Field:
        """A stored value expanded in a word: quoted keeps it whole, unquoted lets bash split it."""
        return [Seg(s.text, s.pos, s.known, quoted or s.quoted, split=not quoted) for s in f]

    def _expansion(self, node: Node, quoted: bool) -> list[Field]:
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
        if op in _PATTERN_OPS:
            return self._pattern_op(name, node, quoted, index, op, operand)
        if op not in (":-", "-", ":=", "=", ":+", "+"):
            return [[self.unknown(node, quoted)]]  # substring operators: not evaluated
        var = self.vars.get(name) if index in (None, "0", "@", "*") else None
        is_set = var is not None or (name in ("@", "*") and bool(self.positional))
        value = self._lookup(name, node, quoted, index) if is_set else None
        known_value = value is not None and all(field_known(f) for f in value)
        empty = value is not None and known_value and all(field_text(f) == "" for f in value)
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

    def _pattern_op(
        self, name: str, node: Node, quoted: bool, index: str | None, op: str, operand: list[Node]
    ) -> list[Field]:
        """``${x/pat/rep}`` (and ``//``, ``/#``, ``/%``), ``${x#pat}`` (and ``##``, ``%``, ``%%``) on each field of
        the variable's value, as bash applies them to each element of ``${A[@]}``; what cannot be known stays
        unknown."""
        if name not in self.vars or not (index is None or index in ("@", "*") or index.isdigit()):
            return [[self.unknown(node, quoted)]]
        values = self._lookup(name, node, quoted, index)
        slash = [k for k, c in enumerate(operand) if c.type == "/"]
        pat_nodes = operand[: slash[0]] if slash else operand
        rep_nodes = operand[slash[0] + 1 :] if slash else []
        pattern = self._pattern_field(pat_nodes)
        replacement = self._pattern_field(rep_nodes) if rep_nodes else []
        out: list[Field] = []
        for value in values:
            if op.startswith("/"):
                got = substitute(value, pattern, replacement, op)
            else:
                got = strip_affix(value, pattern, op)
            if got is None:
                return [[self.unknown(node, quoted)]]
            out.append([Seg(g.text, g.pos, g.known, quoted or g.quoted, split=g.split) for g in got])
        return out

    def _pattern_field(self, nodes: list[Node]) -> Field:
        """A pattern or replacement operand as one field: its quoted parts literal, the rest a glob. tree-sitter
        reads an operand as a ``regex`` (or ``word``) node: its text is taken as written."""
        out: Field = []
        for n in nodes:
            if n.type in ("regex", "word"):
                out.append(self.lit(self.text(n), n, quoted=False))
            else:
                for f in self.parts(n, quoted=True):
                    out.extend(f)
        return out

    def _operand(self, operand: list[Node], node: Node, quoted: bool, assign: str | None) -> list[Field]:
        out: list[Field] = concat([[]], self.join(operand, quoted)) if operand else [[]]
        if assign:
            self.vars[assign] = Var([strip_split(f) for f in out[:1]], False, self.pos(node)[0])
        return out

    def _known_text(self, node: Node | None) -> str | None:
        return None if node is None else self._known_text_of([node])

    def _known_text_of(self, nodes: Sequence[Piece]) -> str | None:
        fs = self.join(nodes, quoted=True)
        if not all(field_known(f) for f in fs):
            return None
        return " ".join(field_text(f) for f in fs)
