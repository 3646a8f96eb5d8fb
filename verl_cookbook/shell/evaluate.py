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

This module runs the statements (assignments, ``declare``/``export``, commands, function calls) and collects
the ``Script``: commands, exports, notes, unread parts and syntax errors (``parse_script``). Word expansion is in
``expansion`` (over the values of ``values`` and the source words of ``words``); ``if``/``case`` and loops are in
``control_flow``.
"""

from __future__ import annotations

import functools
import re

import tree_sitter_bash
from tree_sitter import Language, Node, Parser

from verl_cookbook.shell.commands import classify
from verl_cookbook.shell.control_flow import ControlFlow, LoopJump
from verl_cookbook.shell.model import Command, Export, Script, Word
from verl_cookbook.shell.values import Field, Seg, Var, field_known, field_text, strip_split, to_word, word_field
from verl_cookbook.shell.words import Piece, keyed, shell_words, tilde_words

_MAX_DEPTH = 20  # function calls inside function calls
_MAX_NODES = 200_000  # statements evaluated per script (loops are read once, so this is generous)


@functools.cache
def _bash_language() -> Language:
    """tree-sitter's bash grammar, loaded once per process (it is the same grammar every time)."""
    return Language(tree_sitter_bash.language())


def bash_parser() -> Parser:
    return Parser(_bash_language())


class _Eval(ControlFlow):
    """The script run statically: assignments, declarations, commands and function calls, collected into the
    ``Script``."""

    def __init__(self, src: bytes, line_offset: int, script: Script) -> None:
        super().__init__(src, line_offset, script)
        self.funcs: dict[str, Node] = {}
        self.called: set[str] = set()
        self.depth = 0
        self.budget = _MAX_NODES
        self.assoc: set[str] = set()  # names declared with `declare -A`
        self.root: Node | None = None
        self.assigned: set[str] | None = None  # every name the script sets anywhere, read when first needed

    # -- statements -------------------------------------------------------------------------------
    def run(self, node: Node) -> None:
        self.budget -= 1
        if self.budget < 0:
            return
        t = node.type
        if t == "list" and self._guarded(node):
            return
        if t in ("program", "compound_statement", "do_group", "subshell", "list"):
            for c in node.named_children:
                self.run(c)
        elif t == "comment":
            return
        elif t == "ERROR":
            if not self.text(node).strip():
                # an empty error node: tree-sitter's reading of a last line ending in `\` (bash runs the command,
                # the continuation just meets the end of the file), so nothing was skipped
                return
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

    def _guarded(self, node: Node) -> bool:
        """``[[ test ]] && stmt`` or ``[[ test ]] || stmt``: ``stmt`` runs only when bash would run it, as in the
        ``if`` it abbreviates (``[[ $k == *b* ]] && continue`` in a loop skips only the passes the test selects).
        False when the left side is not a test (``cd d && python …`` runs both), for :meth:`run` to read it."""
        kids = node.children
        if len(kids) != 3 or kids[0].type != "test_command" or kids[1].type not in ("&&", "||"):
            return False
        verdict = self.condition(kids[0])
        if verdict is not None and kids[1].type == "||":
            verdict = not verdict
        if verdict is True:
            self.run(kids[2])
        elif verdict is None:
            self._choose([(None, [kids[2]])], False, node, self.text(kids[1]), decided=False)
        return True

    def assign(
        self, node: Node, exported: bool, kind: str, cmd_prefix: bool = False, more: list[Piece] | None = None
    ) -> tuple[str, Var] | None:
        """``NAME=value``; ``more`` are nodes written right after it with no gap: the rest of the value (see
        :meth:`join`)."""
        name_n = node.child_by_field_name("name")
        value_n = node.child_by_field_name("value")
        if name_n is None:
            return None
        value_nodes: list[Piece] = [*([value_n] if value_n is not None else []), *(more or [])]
        if name_n.type == "subscript":  # M[key]=x on an associative array is followed; A[3]=x is not
            n = name_n.child_by_field_name("name")
            var0 = self.vars.get(self.text(n)) if n is not None else None
            idx = self._known_text(name_n.child_by_field_name("index"))
            if var0 is not None and var0.keys is not None and var0.value is not None and idx is not None:
                value0: Field = []
                if value_nodes:
                    for f in self.join(value_nodes, quoted=True):
                        value0.extend(strip_split(f))
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
        if value_n is not None and value_n.type == "array" and (name in self.assoc or keyed(self, value_n)):
            keys: list[str] | None = []
            elems: list[Field] = []
            for g in shell_words(self.src, [c for c in value_n.named_children if c.type != "comment"]):
                m = re.fullmatch(r"\[(.*?)\]=(.*)", self._known_text_of(g) or "", re.S)
                if m is None or keys is None:
                    keys = None
                    continue
                keys.append(m.group(1))
                elems.append([self.lit(m.group(2), g[0], quoted=True)])
            old = self.vars.get(name)
            if append and old is not None and old.keys is not None and keys is not None and old.value is not None:
                keys, elems = old.keys + keys, list(old.value) + elems
            var = Var(elems if keys is not None else None, True, line, exported, keys)
        elif value_n is not None and value_n.type == "array":
            elems = []
            for g in shell_words(self.src, [c for c in value_n.named_children if c.type != "comment"]):
                elems.extend(self.word_fields(g))
            old = self.vars.get(name)
            if append and old is not None and old.value is not None:
                elems = list(old.value) + elems
            var = Var(elems, True, line, exported or bool(old and old.exported))
        else:
            value: Field = []
            if value_nodes:
                for i, f in enumerate(self.join(value_nodes, quoted=True)):  # no word splitting in an assignment
                    if i:  # X="${ARR[@]}": the elements joined by spaces
                        value.append(
                            Seg(" ", [f[0].pos[0] if f and f[0].pos else self.pos(value_nodes[0])], True, True)
                        )
                    value.extend(strip_split(f))
            old = self.vars.get(name)
            if append and old is not None and old.value is not None:
                if old.is_array:
                    var = Var([*old.value, value], True, line, old.exported)
                else:
                    var = Var([[*(old.value[0] if old.value else []), *value]], False, line, old.exported)
            else:
                var = Var([value], False, line, exported or bool(old and old.exported))
        if not cmd_prefix:
            self.vars[name] = var
        if value_n is not None and kind in ("assign", "export"):
            self.unset_value(name, value_n)
        if not var.is_array:
            f = var.value[0] if var.value else []
            self.script.exports.append(
                Export(
                    name,
                    field_text(f),
                    *self.pos(node),
                    exported=exported or kind == "prefix" or var.exported,
                    kind=kind,
                    has_var=not field_known(f),
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
                        self.vars[self.text(n)] = Var([], True, self.pos(c)[0], keys=[])
        if any("n" in o for o in opts) and kw == "export":
            exported = False
        for group in shell_words(self.src, list(node.named_children)):
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
                    value = field_text(var.value[0]) if var.value else ""
                    has_var = not field_known(var.value[0]) if var.value else False
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
        groups = shell_words(self.src, nodes)
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
                    env[got[0]] = field_text(got[1].value[0]) if got[1].value else ""
            else:
                words.extend(to_word(f) for f in self.word_fields(g))
        if not words:
            return
        line = self.pos(node)[0]
        name = words[0].text
        if name in ("continue", "break") and self.loops and not words[0].has_var:
            raise LoopJump(name)
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
            self.unset_command(words)
        self.script.commands.append(cmd)

    def unset_value(self, name: str, value_n: Node) -> None:
        """Record ``NAME=$lowercase…`` where no statement of the script sets ``lowercase`` (``$pwd`` for ``$PWD`` or
        ``$(pwd)``). Uppercase names are left alone: the environment sets those (``$HOME``, ``$MASTER_ADDR``)."""
        m = _LOWER_VAR_START.match(self.text(value_n))
        if m is None or m.group(1) in _LOWERCASE_ENVIRONMENT or m.group(1) == "_":
            return
        if self.assigned is None:
            self.assigned = _assigned_names(self)
        if m.group(1) not in self.assigned:
            line, col = self.pos(value_n)
            self.script.unset_values.append((line, col + m.group(0).index("$"), m.group(1), name))

    def unset_command(self, words: list[Word]) -> None:
        """Record a command named by a variable (unquoted, nothing else in the word) that no statement of the script
        ever sets: bash expands it to nothing and runs the next word."""
        m = _BARE_VAR.fullmatch(words[0].text)
        if m is None or words[0].quoted:
            return
        if self.assigned is None:
            self.assigned = _assigned_names(self)
        if m.group(1) not in self.assigned:
            nxt = (words[1].raw or words[1].text) if len(words) > 1 else ""
            self.script.unset_commands.append((words[0].line, words[0].col, m.group(1), nxt))

    def call(self, name: str, args: list[Word], node: Node) -> None:
        if self.depth >= _MAX_DEPTH:
            return
        self.called.add(name)
        saved = self.positional
        self.positional = [word_field(w) for w in args]
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


_BARE_VAR = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")
_LOWER_VAR_START = re.compile(r"\"?\$\{?([a-z_][a-z0-9_]*)(?![A-Za-z0-9_])")  # `$pwd/x`, `"${home}"`, not `$PWD`
# lowercase names the environment does set, by convention: proxies (curl, pip, git read them)
_LOWERCASE_ENVIRONMENT = frozenset({"http_proxy", "https_proxy", "no_proxy", "ftp_proxy", "all_proxy"})
# Commands whose arguments name variables they set (`read -r NAME`, `getopts opts NAME`, `mapfile NAME`)
_SETTERS = {"read", "getopts", "mapfile", "readarray", "printf"}


def _assigned_names(ev: _Eval) -> set[str]:
    """Every variable name a statement of the script sets, in any branch: assignments (with ``declare``, ``export``,
    ``local`` … too), ``for`` variables, and the names ``read``/``getopts``/``mapfile``/``printf -v`` write."""
    out: set[str] = set()
    stack = [ev.root] if ev.root is not None else []
    while stack:
        n = stack.pop()
        stack.extend(n.children)
        if n.type == "variable_assignment" and n.children:
            out.add(ev.text(n.children[0]).split("[", 1)[0])
        elif n.type in ("for_statement", "select_statement"):
            var = n.child_by_field_name("variable")
            if var is not None:
                out.add(ev.text(var))
        elif n.type == "command":
            name = n.child_by_field_name("name")
            if name is not None and ev.text(name) in _SETTERS:
                out.update(w for c in n.children[1:] if _IDENT.fullmatch(w := ev.text(c)))
    return out


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NOT_ARGUMENTS = ("file_redirect", "herestring_redirect", "heredoc_redirect", "comment", "subshell", "ERROR")


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
    if b"`" in src:
        src = _blank_comment_substitutions(src)
    try:
        tree = bash_parser().parse(src)
    except Exception as e:  # noqa: BLE001 - a parser failure is reported, never raised
        script.errors.append((1 + line_offset, 1, "reader-failed", type(e).__name__))
        return script
    inserted: dict[int, list[int]] = {}
    if tree.root_node.has_error and b"$(((" in src:
        # tree-sitter-bash misreads `$(((a + b) * 2))`; bash reads it as arithmetic, and so does
        # `$(( (a + b) * 2))`, which tree-sitter parses: add that space (columns are mapped back).
        src, inserted = _space_arithmetic(src)
        tree = bash_parser().parse(src)
    ev = _Eval(src, line_offset, script)
    ev.inserted = inserted
    ev.root = tree.root_node
    try:
        ev.tilde_words = tilde_words(ev, tree.root_node)
        ev.run(tree.root_node)
        ev.finish()
        _cut_continuations(ev, tree.root_node, script)
    except RecursionError:
        script.notes.append((1 + line_offset, "the script nests too deeply to be read statically"))
    _syntax_problems(ev, tree.root_node, script)
    return script


# A backtick substitution holding only a comment, as a word of its own: `` `# data` \`` between a command's arguments.
# bash finds the closing backtick first, so the comment ends there and the substitution expands to nothing (no word);
# tree-sitter-bash runs the comment on to the end of the line and takes the next line into the substitution.
_COMMENT_SUBSTITUTION = re.compile(rb"(?<![^ \t\n])`[ \t]*#[^`\n]*`(?=[ \t\n]|$)")


def _blank_comment_substitutions(src: bytes) -> bytes:
    """``src`` with each comment-only backtick substitution written as a word replaced by as many spaces (bash
    expands it to no word at all; every other byte keeps its line and column)."""
    return _COMMENT_SUBSTITUTION.sub(lambda m: b" " * len(m.group(0)), src)


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
            script.errors.append((line, col, "unterminated", n.type))
        elif n.has_error:
            stack.extend(n.children)
