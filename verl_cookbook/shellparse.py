"""Read a shell script statically: its commands, environment exports, and the Hydra overrides it passes.

Nothing is executed. The tokenizer follows bash's quoting rules closely enough for launch scripts:
line continuations (``\\`` + newline), single/double quotes, ``$VAR``/``${VAR}``/``$(…)``/backticks
(kept as written and flagged, never expanded), comments, ``&&``/``||``/``;``/``|``/``&``, redirections
(dropped from argv) and here-documents (their bodies skipped). ``bash -n`` remains the judge of syntax;
this module only has to find the words.

Hydra overrides follow Hydra 1.3's override grammar (https://hydra.cc/docs/advanced/override_grammar/basic/,
``hydra/grammar/OverrideParser.g4``): ``key=value``, ``+key=value`` (add), ``++key=value`` (force),
``~key`` / ``~key=value`` (delete); values are ``null``, booleans, ints, floats, quoted strings,
``[a,b]`` lists, ``{a:1}`` dicts, ``${…}`` interpolations, unquoted strings, sweeps and functions.
hydra-core is not a dependency (it pins omegaconf below what this package uses), so the grammar is
implemented here, with tests against the documented examples.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

from verl_cookbook.checks.config_rules import Assignment
from verl_cookbook.findings import Finding

# --------------------------------------------------------------------------------------------------
# Shell
# --------------------------------------------------------------------------------------------------

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGN = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(\+?)=")
# Longest first: the lexer takes the first that matches.
_OPS = tuple("&& || ;; |& &>> &> >> >& <& >| <> <<< <<- << ; & | ( ) < >".split())
_SEPARATORS = {"&&", "||", ";;", "|&", ";", "&", "|", "(", ")", "\n"}
_REDIRECTS = {"&>>", "&>", ">>", ">&", "<&", ">|", "<>", "<<<", "<", ">"}
_HEREDOC = {"<<", "<<-"}
# Reserved words that may open a command position and carry no argv of their own.
_LEADING = {"!", "{", "}", "then", "else", "elif", "do", "if", "while", "until", "time", "fi", "done", "esac"}
# Compound commands whose header is not a command to check.
_SKIP_HEADERS = {"for", "select", "case", "function", "[[", "]]"}


@dataclass
class Word:
    """One shell word after quote removal. Expansions (``$X``, ``${X}``, ``$(…)``, backticks) are kept
    as written; ``var_spans`` says where they sit in ``text``."""

    text: str
    line: int
    col: int
    quoted: bool = False
    var_spans: list[tuple[int, int]] = field(default_factory=list)
    raw: str = ""

    @property
    def has_var(self) -> bool:
        return bool(self.var_spans)

    def var_in(self, start: int, end: int | None = None) -> bool:
        end = len(self.text) if end is None else end
        return any(s < end and e > start for s, e in self.var_spans)


@dataclass
class Export:
    """``export NAME=value`` (``exported``), ``NAME=value cmd`` (kind "prefix", exported to that command
    only) or a plain ``NAME=value`` (kind "assign", not exported). ``value`` is None for ``export NAME``
    with no earlier assignment in the script."""

    name: str
    value: str | None
    line: int
    col: int
    exported: bool = True
    kind: str = "export"  # export | prefix | assign
    has_var: bool = False


@dataclass
class Command:
    """A simple command. ``module`` says what it runs: the Python module for ``python -m X`` (also behind
    ``torchrun``, ``ray job submit --``, ``env``, ``nohup``…), the dotted module of a ``verl/…py`` script,
    otherwise the program's basename (``cmake``, ``export``…). ``argv[args_start:]`` are that program's
    own arguments."""

    argv: list[str]
    line: int
    arg_lines: list[int]
    module: str | None = None
    arg_cols: list[int] = field(default_factory=list)
    words: list[Word] = field(default_factory=list)
    args_start: int = 1
    env: dict[str, str] = field(default_factory=dict)

    @property
    def arg_vars(self) -> list[bool]:
        return [w.has_var for w in self.words]

    @property
    def module_words(self) -> list[Word]:
        return self.words[self.args_start :]


@dataclass
class Script:
    file: str
    exports: list[Export] = field(default_factory=list)
    commands: list[Command] = field(default_factory=list)
    errors: list[tuple[int, int, str]] = field(default_factory=list)  # (line, col, message)


class _Lexer:
    def __init__(self, text: str, line_offset: int) -> None:
        self.s = text
        self.i = 0
        self.line = 1 + line_offset
        self.line_start = 0
        self.tokens: list[tuple[str, Any]] = []  # ("word", Word) | ("op", (op, line))
        self.errors: list[tuple[int, int, str]] = []
        self.pending_heredocs: list[tuple[str, bool]] = []
        self.expect_delim: bool | None = None  # strip-tabs flag of a `<<` waiting for its delimiter

    def col(self) -> int:
        return self.i - self.line_start + 1

    def newline(self) -> None:
        self.line += 1
        self.line_start = self.i + 1

    def run(self) -> None:
        s = self.s
        n = len(s)
        while self.i < n:
            c = s[self.i]
            if c in " \t\r":
                self.i += 1
            elif c == "\\" and s.startswith("\\\n", self.i):
                self.i += 1
                self.newline()
                self.i += 1
            elif c == "\n":
                self.tokens.append(("op", ("\n", self.line)))
                self.newline()
                self.i += 1
                self.skip_heredocs()
            elif c == "#":
                while self.i < n and s[self.i] != "\n":
                    self.i += 1
            elif s.startswith("((", self.i):
                self.skip_balanced("(", ")")
            elif c in ";&|()<>":
                op = next(o for o in _OPS if s.startswith(o, self.i))
                self.tokens.append(("op", (op, self.line)))
                self.i += len(op)
                if op in _HEREDOC:
                    self.expect_delim = op == "<<-"
            else:
                self.word()
        if self.pending_heredocs:
            self.errors.append(
                (self.line, 1, f"here-document delimited by end of file (wanted `{self.pending_heredocs[0][0]}`)")
            )

    def skip_heredocs(self) -> None:
        s = self.s
        while self.pending_heredocs and self.i < len(s):
            delim, strip = self.pending_heredocs[0]
            end = s.find("\n", self.i)
            end = len(s) if end < 0 else end
            body_line = s[self.i : end]
            if (body_line.lstrip("\t") if strip else body_line) == delim:
                self.pending_heredocs.pop(0)
            self.i = end
            if end < len(s):
                self.newline()
                self.i += 1

    def skip_balanced(self, open_: str, close: str) -> str:
        """Skip from an opening bracket to its match, honouring quotes; return the text skipped."""
        s = self.s
        start = self.i
        depth = 0
        while self.i < len(s):
            c = s[self.i]
            if c == "\\":
                if s.startswith("\\\n", self.i):
                    self.i += 1
                    self.newline()
                    self.i += 1
                else:
                    self.i += 2
                continue
            if c == "\n":
                self.newline()
            elif c == "'":
                end = s.find("'", self.i + 1)
                end = len(s) - 1 if end < 0 else end
                self.count_lines(self.i, end)
                self.i = end
            elif c == '"':
                self.i += 1
                while self.i < len(s) and s[self.i] != '"':
                    if s[self.i] == "\\":
                        self.i += 1
                    elif s[self.i] == "\n":
                        self.newline()
                    self.i += 1
            elif c == open_:
                depth += 1
            elif c == close:
                depth -= 1
                if depth == 0:
                    self.i += 1
                    return s[start : self.i]
            self.i += 1
        self.errors.append((self.line, 1, f"unterminated `{open_}`"))
        return s[start:]

    def count_lines(self, a: int, b: int) -> None:
        for k in range(a, b):
            if self.s[k] == "\n":
                self.line += 1
                self.line_start = k + 1

    def word(self) -> None:
        s = self.s
        n = len(s)
        line, col, start = self.line, self.col(), self.i
        out: list[str] = []
        spans: list[tuple[int, int]] = []
        quoted = False

        def add_var(text: str) -> None:
            a = sum(len(p) for p in out)
            out.append(text)
            spans.append((a, a + len(text)))

        while self.i < n:
            c = s[self.i]
            if c in " \t\r\n;&|()<>":
                if c in "<>" and not quoted and out and "".join(out).isdigit():
                    return  # an fd number before a redirection: `2>&1`
                break
            if c == "\\":
                if s.startswith("\\\n", self.i):
                    self.i += 1
                    self.newline()
                    self.i += 1
                    continue
                out.append(s[self.i + 1 : self.i + 2])
                quoted = True
                self.i += 2
            elif c == "'":
                quoted = True
                end = s.find("'", self.i + 1)
                if end < 0:
                    self.errors.append((self.line, self.col(), "unterminated single quote"))
                    end = n
                out.append(s[self.i + 1 : end])
                self.count_lines(self.i, min(end, n))
                self.i = end + 1
            elif c == '"':
                quoted = True
                self.i += 1
                closed = False
                while self.i < n:
                    d = s[self.i]
                    if d == '"':
                        self.i += 1
                        closed = True
                        break
                    if d == "\\" and self.i + 1 < n and s[self.i + 1] in '$`"\\\n':
                        if s[self.i + 1] == "\n":
                            self.i += 1
                            self.newline()
                        else:
                            out.append(s[self.i + 1])
                        self.i += 2
                    elif d == "$" or d == "`":
                        add_var(self.expansion())
                    else:
                        if d == "\n":
                            self.newline()
                        out.append(d)
                        self.i += 1
                if not closed:
                    self.errors.append((line, col, "unterminated double quote"))
            elif c == "$" and s.startswith("$'", self.i):
                quoted = True
                self.i += 2
                buf = []
                while self.i < n and s[self.i] != "'":
                    if s[self.i] == "\\" and self.i + 1 < n:
                        buf.append({"n": "\n", "t": "\t"}.get(s[self.i + 1], s[self.i + 1]))
                        self.i += 2
                        continue
                    buf.append(s[self.i])
                    self.i += 1
                self.i += 1
                out.append("".join(buf))
            elif c == "$" or c == "`":
                add_var(self.expansion())
            else:
                out.append(c)
                self.i += 1
        w = Word("".join(out), line, col, quoted, spans, s[start : self.i])
        if self.expect_delim is not None:
            self.pending_heredocs.append((w.text, self.expect_delim))
            self.expect_delim = None
            return
        self.tokens.append(("word", w))

    def expansion(self) -> str:
        """Read ``$NAME``, ``${…}``, ``$(…)``, ``$((…))`` or a backtick substitution; return it as written."""
        s = self.s
        start = self.i
        if s[self.i] == "`":
            end = self.i + 1
            while end < len(s) and s[end] != "`":
                end += 2 if s[end] == "\\" else 1
            self.count_lines(self.i, min(end, len(s)))
            self.i = min(end + 1, len(s))
            return s[start : self.i]
        nxt = s[self.i + 1 : self.i + 2]
        if nxt == "{":
            self.i += 1
            self.skip_balanced("{", "}")
            return s[start : self.i]
        if nxt == "(":
            self.i += 1
            self.skip_balanced("(", ")")
            return s[start : self.i]
        m = _NAME.match(s, self.i + 1)
        if m:
            self.i = m.end()
        elif nxt and (nxt.isdigit() or nxt in "@*#?$!-"):
            self.i += 2
        else:
            self.i += 1  # a lone `$`
            return "$"
        return s[start : self.i]


def parse_script(text: str, file: str = "<script>", line_offset: int = 0) -> Script:
    """Commands and environment assignments of a shell script, with 1-based lines (+ ``line_offset``)."""
    lx = _Lexer(text, line_offset)
    lx.run()
    script = Script(file, errors=lx.errors)
    segment: list[Word] = []
    case_depth = 0
    toks = lx.tokens
    k = 0
    while k <= len(toks):
        tok = toks[k] if k < len(toks) else ("op", ("\n", 0))
        k += 1
        if tok[0] == "word":
            segment.append(tok[1])
            continue
        op = tok[1][0]
        if op in _REDIRECTS:
            if k < len(toks) and toks[k][0] == "word":
                k += 1  # the redirection's target is not an argument
            continue
        if op in _HEREDOC:
            continue
        if op not in _SEPARATORS:
            continue
        words, segment = segment, []
        if op == "(" and len(words) == 1 and k < len(toks) and toks[k][0] == "op" and toks[k][1][0] == ")":
            k += 1  # `name() {`: a function definition
            continue
        if case_depth and op == ")":
            continue  # a `case` pattern
        if words and not words[0].quoted and words[0].text == "case":
            case_depth += 1
        if words and not words[0].quoted and words[0].text == "esac":
            case_depth = max(0, case_depth - 1)
        _add_command(script, words)
    return script


def _add_command(script: Script, words: list[Word]) -> None:
    while words and not words[0].quoted and words[0].text in _LEADING:
        words = words[1:]
    if not words or (not words[0].quoted and words[0].text in _SKIP_HEADERS):
        return
    prefix: list[tuple[Word, re.Match]] = []
    while words:
        m = _ASSIGN.match(words[0].raw)
        if not m:
            break
        prefix.append((words[0], m))
        words = words[1:]
    last_values = {e.name: e.value for e in script.exports}
    for w, m in prefix:
        name = m.group(1)
        value = w.text[w.text.index("=") + 1 :]
        script.exports.append(
            Export(
                name,
                value,
                w.line,
                w.col,
                exported=bool(words),
                kind="prefix" if words else "assign",
                has_var=w.var_in(len(name) + 1),
            )
        )
    if not words:
        return
    argv = [w.text for w in words]
    cmd = Command(
        argv,
        words[0].line,
        [w.line for w in words],
        arg_cols=[w.col for w in words],
        words=words,
        env={m.group(1): w.text.split("=", 1)[1] for w, m in prefix},
    )
    cmd.module, cmd.args_start = _classify(argv)
    script.commands.append(cmd)
    if cmd.module in ("export", "declare", "typeset"):
        opts = [a for a in argv[1:] if a.startswith("-")]
        if cmd.module != "export" and not any("x" in o for o in opts):
            return
        if any("n" in o for o in opts):
            return
        for w in words[1:]:
            if w.text.startswith("-"):
                continue
            m = _ASSIGN.match(w.raw)
            if m:
                name = m.group(1)
                value: str | None = w.text[w.text.index("=") + 1 :]
                has_var = w.var_in(len(name) + 1)
            elif _NAME.fullmatch(w.text):
                name, value, has_var = w.text, last_values.get(w.text), False
            else:
                continue
            script.exports.append(Export(name, value, w.line, w.col, True, "export", has_var))


# -- what a command runs ----------------------------------------------------------------------------

_PYTHON = re.compile(r"^python(\d+(\.\d+)?)?$")
_PY_FLAGS_WITH_VALUE = {"-X", "-W", "--check-hash-based-pycs"}
_LAUNCHER_BOOL_FLAGS = {
    "torchrun": {"--standalone", "-m", "--module", "--no-python", "--no_python", "--run-path", "--run_path"},
    "deepspeed": {
        "--module",
        "--no_python",
        "--no_local_rank",
        "--autotuning",
        "--force_multi",
        "--bind_cores_to_rank",
    },
    "accelerate": {
        "-m",
        "--module",
        "--no_python",
        "--multi_gpu",
        "--cpu",
        "--use_deepspeed",
        "--use_fsdp",
        "-q",
        "--quiet",
    },
}
_WRAPPERS = {
    "nohup",
    "exec",
    "time",
    "command",
    "builtin",
    "stdbuf",
    "nice",
    "sudo",
    "env",
    "timeout",
    "taskset",
    "numactl",
}


def _basename(word: str) -> str:
    return os.path.basename(word.rstrip("/")) or word


def _script_module(path: str) -> str | None:
    """``verl/trainer/main_ppo.py`` (or ``…/verl/trainer/main_ppo.py``) -> ``verl.trainer.main_ppo``."""
    if not path.endswith(".py"):
        return None
    parts = path[:-3].replace("\\", "/").split("/")
    if "verl" in parts:
        parts = parts[len(parts) - 1 - parts[::-1].index("verl") :]
        return ".".join(p for p in parts if p)
    return None


def _classify(argv: list[str], i: int = 0) -> tuple[str | None, int]:
    """(module, index of its first argument) for a command line."""
    n = len(argv)
    while i < n:
        prog = _basename(argv[i])
        if prog not in _WRAPPERS:
            break
        i += 1
        if prog == "env":
            while i < n and (argv[i].startswith("-") or _ASSIGN.match(argv[i])):
                i += 2 if argv[i] in ("-u", "--unset", "-C", "--chdir") else 1
        elif prog in ("sudo", "nice", "stdbuf", "numactl", "taskset", "timeout"):
            while i < n and argv[i].startswith("-"):
                takes_value = argv[i] in ("-u", "-g", "-n", "-c", "-s", "-k", "--signal", "--kill-after", "-C")
                i += 2 if takes_value and "=" not in argv[i] else 1
            if prog in ("timeout", "taskset") and i < n and not (prog == "taskset" and "-c" in argv):
                i += 1  # the duration / CPU mask
    if i >= n:
        return None, n
    prog = _basename(argv[i])
    if _PYTHON.match(prog):
        j = i + 1
        while j < n and argv[j].startswith("-") and argv[j] != "-":
            a = argv[j]
            if a == "-m":
                return (argv[j + 1] if j + 1 < n else None), j + 2
            if a.startswith("-m") and len(a) > 2:
                return a[2:], j + 1
            if a == "-c":
                return None, n
            j += 2 if a in _PY_FLAGS_WITH_VALUE else 1
        if j < n:
            mod = _script_module(argv[j])
            if mod in ("torch.distributed.run", "torch.distributed.launch"):
                return _launcher(argv, j + 1, "torchrun")
            return mod, j + 1
        return None, n
    if prog in ("torchrun", "deepspeed"):
        return _launcher(argv, i + 1, prog)
    if prog == "accelerate" and i + 1 < n and argv[i + 1] == "launch":
        return _launcher(argv, i + 2, "accelerate")
    if prog == "ray" and "--" in argv[i + 1 :]:
        return _classify(argv, argv.index("--", i + 1) + 1)
    return prog, i + 1


def _launcher(argv: list[str], j: int, kind: str) -> tuple[str | None, int]:
    bool_flags = _LAUNCHER_BOOL_FLAGS[kind]
    as_module = False
    n = len(argv)
    while j < n and argv[j].startswith("-"):
        a = argv[j]
        if a in ("-m", "--module"):
            as_module = True
        if a in bool_flags or "=" in a:
            j += 1
        else:
            j += 2
    if j >= n:
        return None, n
    if as_module:
        return argv[j], j + 1
    if _PYTHON.match(_basename(argv[j])):
        return _classify(argv, j)
    return _script_module(argv[j]), j + 1


# --------------------------------------------------------------------------------------------------
# Hydra overrides
# --------------------------------------------------------------------------------------------------


class OverrideError(ValueError):
    def __init__(self, message: str, pos: int = 0) -> None:
        super().__init__(message)
        self.pos = pos


@dataclass
class HydraFunction:
    """A Hydra function call in an override value (``choice(a,b)``, ``range(1,5)``, ``int(3.0)``…)."""

    name: str
    args: list[Any]


@dataclass
class Sweep:
    """``key=a,b,c``: a choice sweep (only meaningful with ``--multirun``)."""

    values: list[Any]


_INT_U = r"(?:0|[1-9](?:_?[0-9])*)"
# Regex alternation is first-match, not longest-match: the longer form comes first.
_POINT_FLOAT = rf"(?:{_INT_U}?\.[0-9](?:_?[0-9])*|{_INT_U}\.)"
_VALUE_TOKENS: list[tuple[str, re.Pattern]] = [
    ("POPEN", re.compile(r"[ \t]*\([ \t]*")),
    ("COMMA", re.compile(r"[ \t]*,[ \t]*")),
    ("PCLOSE", re.compile(r"[ \t]*\)")),
    ("BRACKET_OPEN", re.compile(r"\[[ \t]*")),
    ("BRACKET_CLOSE", re.compile(r"[ \t]*\]")),
    ("BRACE_OPEN", re.compile(r"\{[ \t]*")),
    ("BRACE_CLOSE", re.compile(r"[ \t]*\}")),
    ("COLON", re.compile(r"[ \t]*:[ \t]*")),
    ("EQUAL", re.compile(r"[ \t]*=[ \t]*")),
    (
        "FLOAT",
        re.compile(rf"[+-]?(?:(?:{_INT_U}|{_POINT_FLOAT})[eE][+-]?{_INT_U}|{_POINT_FLOAT}|[Ii][Nn][Ff]|[Nn][Aa][Nn])"),
    ),
    ("INT", re.compile(rf"[+-]?{_INT_U}")),
    ("BOOL", re.compile(r"[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]")),
    ("NULL", re.compile(r"[Nn][Uu][Ll][Ll]")),
    ("UNQUOTED_CHAR", re.compile(r"[/\-\\+.$%*@?|]")),
    ("ID", re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*")),
    ("ESC", re.compile(r"(?:\\\\|\\\(|\\\)|\\\[|\\\]|\\\{|\\\}|\\:|\\=|\\ |\\\t|\\,)+")),
    ("WS", re.compile(r"[ \t]+")),
    ("QUOTED_VALUE", re.compile(r"'(?:\\'|[^'])*?'|\"(?:\\\"|[^\"])*?\"")),
]
_PRIMITIVE_TOKENS = {"ID", "NULL", "INT", "FLOAT", "BOOL", "INTERPOLATION", "UNQUOTED_CHAR", "COLON", "ESC", "WS"}
_DICT_KEY_TOKENS = {"ID", "NULL", "INT", "FLOAT", "BOOL", "UNQUOTED_CHAR", "ESC", "WS"}
_CASTS = {"int", "float", "str", "bool"}
_SWEEP_FUNCTIONS = {"choice", "range", "interval", "glob", "tag", "sort", "shuffle"}


def _tokenize_value(text: str) -> list[tuple[str, str, int]]:
    toks: list[tuple[str, str, int]] = []
    i = 0
    while i < len(text):
        if text.startswith("${", i):
            depth, j = 0, i
            while j < len(text):
                if text.startswith("${", j):
                    depth += 1
                    j += 2
                    continue
                if text[j] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            if j >= len(text):
                raise OverrideError("unterminated interpolation `${…`", i)
            toks.append(("INTERPOLATION", text[i : j + 1], i))
            i = j + 1
            continue
        best: tuple[str, str] | None = None
        for kind, rx in _VALUE_TOKENS:
            m = rx.match(text, i)
            if m and m.end() > i and (best is None or len(m.group()) > len(best[1])):
                best = (kind, m.group())
        if best is None:
            if text[i] in "'\"":
                raise OverrideError(f"unterminated quoted string starting with {text[i]}", i)
            raise OverrideError(f"character {text[i]!r} is not allowed in an unquoted value (quote the value)", i)
        toks.append((best[0], best[1], i))
        i += len(best[1])
    return toks


def _unquote(tok: str) -> str:
    q = tok[0]
    body = tok[1:-1]
    return body.replace("\\" + q, q)


def _unescape(tok: str) -> str:
    return re.sub(r"\\(.)", r"\1", tok.replace("\\\t", "\t"))


class _ValueParser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokenize_value(text)
        self.k = 0

    def peek(self, offset: int = 0) -> str | None:
        j = self.k + offset
        return self.toks[j][0] if j < len(self.toks) else None

    def pos(self) -> int:
        return self.toks[self.k][2] if self.k < len(self.toks) else len(self.text)

    def expect(self, kind: str, what: str) -> None:
        if self.peek() != kind:
            found = f"`{self.toks[self.k][1]}`" if self.k < len(self.toks) else "the end of the value"
            raise OverrideError(f"expected {what}, found {found}", self.pos())
        self.k += 1

    def parse(self) -> Any:
        if not self.toks:
            return ""
        if self.peek() == "WS":
            self.k += 1
        first = self.element()
        if self.peek() == "COMMA":
            values = [first]
            while self.peek() == "COMMA":
                self.k += 1
                values.append(self.element())
            result: Any = Sweep(values)
        else:
            result = first
        if self.k < len(self.toks):
            raise OverrideError(f"unexpected `{self.toks[self.k][1].strip()}`", self.pos())
        return result

    def element(self) -> Any:
        kind = self.peek()
        if kind == "ID" and self.peek(1) == "POPEN":
            return self.function()
        if kind == "BRACKET_OPEN":
            self.k += 1
            items = []
            if self.peek() != "BRACKET_CLOSE":
                items.append(self.element())
                while self.peek() == "COMMA":
                    self.k += 1
                    items.append(self.element())
            self.expect("BRACKET_CLOSE", "`,` or `]`")
            return items
        if kind == "BRACE_OPEN":
            self.k += 1
            out: dict[str, Any] = {}
            if self.peek() != "BRACE_CLOSE":
                while True:
                    key = self.dict_key()
                    self.expect("COLON", f"`:` after dict key `{key}`")
                    out[key] = self.element()
                    if self.peek() != "COMMA":
                        break
                    self.k += 1
            self.expect("BRACE_CLOSE", "`,` or `}`")
            return out
        if kind == "QUOTED_VALUE":
            tok = self.toks[self.k][1]
            self.k += 1
            if self.peek() == "WS":
                self.k += 1
            return _unquote(tok)
        return self.primitive()

    def dict_key(self) -> str:
        start = self.k
        while self.peek() in _DICT_KEY_TOKENS:
            self.k += 1
        if self.k == start:
            found = self.toks[self.k][1] if self.k < len(self.toks) else "the end of the value"
            hint = ' (Hydra dict keys are unquoted: {a:1}, not {"a":1})' if self.peek() == "QUOTED_VALUE" else ""
            raise OverrideError(f"expected a dict key, found `{found}`{hint}", self.pos())
        return "".join(_unescape(t[1]) if t[0] == "ESC" else t[1] for t in self.toks[start : self.k]).strip()

    def primitive(self) -> Any:
        start = self.k
        while self.peek() in _PRIMITIVE_TOKENS:
            self.k += 1
        toks = self.toks[start : self.k]
        while toks and toks[-1][0] == "WS":
            toks = toks[:-1]
        if not toks:
            found = f"`{self.toks[self.k][1].strip()}`" if self.k < len(self.toks) else "nothing"
            raise OverrideError(f"expected a value, found {found}", self.pos())
        if len(toks) == 1:
            kind, text, _ = toks[0]
            if kind == "INT":
                return int(text.replace("_", ""))
            if kind == "FLOAT":
                return float(text.replace("_", ""))
            if kind == "BOOL":
                return text.lower() == "true"
            if kind == "NULL":
                return None
        return "".join(_unescape(t[1]) if t[0] == "ESC" else t[1] for t in toks).strip()

    def function(self) -> Any:
        name = self.toks[self.k][1]
        self.k += 2
        args: list[Any] = []
        if self.peek() != "PCLOSE":
            while True:
                if self.peek() == "ID" and self.peek(1) == "EQUAL":
                    self.k += 2
                args.append(self.element())
                if self.peek() != "COMMA":
                    break
                self.k += 1
        self.expect("PCLOSE", f"`)` closing `{name}(`")
        if name in _CASTS and len(args) == 1 and not isinstance(args[0], list | dict | HydraFunction):
            try:
                return {"int": lambda v: int(float(v)), "float": float, "str": str, "bool": _to_bool}[name](args[0])
            except (TypeError, ValueError) as e:
                raise OverrideError(f"`{name}({args[0]!r})` fails: {e}", 0) from e
        return HydraFunction(name, args)


def _to_bool(v: Any) -> bool:
    if isinstance(v, str):
        if v.lower() in ("true", "false"):
            return v.lower() == "true"
        raise ValueError(f"cannot cast {v!r} to bool")
    return bool(v)


def parse_override_value(text: str) -> Any:
    """A Hydra override value as Hydra reads it: ``null`` -> None, ``1_000`` -> 1000, ``[a,b]`` -> list,
    ``{a:1}`` -> dict, ``a,b`` -> :class:`Sweep`, ``choice(a,b)`` -> :class:`HydraFunction`. Raises
    :class:`OverrideError` with the offset of the problem."""
    return _ValueParser(text).parse()


_KEY_ID = r"[A-Za-z_][A-Za-z0-9_\-]*"
_KEY_SEG = rf"(?:{_KEY_ID}|{_INT_U})"
_PACKAGE = rf"(?:\$?{_KEY_ID}|{_KEY_SEG}(?:\.{_KEY_SEG})+)"
_KEY = re.compile(rf"^(?P<group>{_KEY_ID}(?:/{_KEY_ID})+|{_PACKAGE})(?:@(?P<pkg>{_PACKAGE})?)?$")

# Hydra's own command-line flags (hydra/_internal/utils.py get_args_parser): flag -> takes a value.
_HYDRA_FLAGS = {
    "--help": False,
    "-h": False,
    "--hydra-help": False,
    "--version": False,
    "--cfg": True,
    "-c": True,
    "--resolve": False,
    "--package": True,
    "-p": True,
    "--run": False,
    "-r": False,
    "--multirun": False,
    "-m": False,
    "--shell-completion": False,
    "-sc": False,
    "--config-path": True,
    "-cp": True,
    "--config-name": True,
    "-cn": True,
    "--config-dir": True,
    "-cd": True,
    "--experimental-rerun": True,
    "--info": None,  # optional value
    "-i": None,
}
_INFO_CHOICES = {"all", "config", "defaults", "defaults-tree", "plugins", "searchpath"}


@dataclass
class ParsedOverride:
    op: str  # set | add | force | delete
    key: str
    value: Any
    has_value: bool
    group: bool  # a config-group override (`a/b=x`, `key@pkg=x`), not a config value


def parse_override(arg: str) -> ParsedOverride:
    """One override argument (after the shell's quote removal). Raises :class:`OverrideError`."""
    op, rest, off = "set", arg, 0
    if arg.startswith("~"):
        op, rest, off = "delete", arg[1:], 1
    elif arg.startswith("++"):
        op, rest, off = "force", arg[2:], 2
    elif arg.startswith("+"):
        op, rest, off = "add", arg[1:], 1
    key, eq, value_text = rest.partition("=")
    if not eq and op != "delete":
        raise OverrideError(
            f"`{arg}` is not an override: Hydra expects key=value"
            + (" (`+key` needs `=value`)" if op in ("add", "force") else ""),
            len(arg),
        )
    m = _KEY.match(key)
    if not m:
        bad = next((i for i, ch in enumerate(key) if not re.match(r"[A-Za-z0-9_\-./@$]", ch)), 0)
        why = f"character {key[bad]!r}" if key and not re.match(r"[A-Za-z0-9_\-./@$]", key[bad]) else "the key"
        raise OverrideError(f"malformed key `{key}` in `{arg}`: {why} does not fit Hydra's key grammar", off + bad)
    try:
        value = parse_override_value(value_text) if eq else None
    except OverrideError as e:
        raise OverrideError(f"cannot parse the value of `{key}`: {e}", off + len(key) + 1 + e.pos) from e
    group = bool(m.group("pkg")) or "@" in key or "/" in m.group("group")
    return ParsedOverride(op, key, value, bool(eq), group)


def overrides_to_assignments(cmd: Command, file: str) -> tuple[list[Assignment], list[Finding], dict]:
    """Hydra overrides of ``cmd`` (its arguments after the module) as config assignments.

    Returns (assignments, findings for malformed arguments, info) where info has ``config_name`` (e.g.
    ``ppo_megatron_trainer``, or None for the entry point's own), ``config_path``, ``multirun``,
    ``groups`` (config-group overrides), ``hydra`` (overrides of Hydra's own ``hydra.*`` config),
    ``symbolic`` (dotted keys whose value comes from a shell variable; their value is None) and
    ``opaque`` (arguments that are wholly a shell expansion such as ``$EXTRA_ARGS``)."""
    info: dict[str, Any] = {
        "config_name": None,
        "config_path": None,
        "config_dir": None,
        "multirun": False,
        "groups": [],
        "hydra": [],
        "symbolic": [],
        "opaque": [],
    }
    assigns: list[Assignment] = []
    findings: list[Finding] = []
    words = cmd.module_words or [
        Word(a, ln, c)
        for a, ln, c in zip(cmd.argv[cmd.args_start :], cmd.arg_lines[cmd.args_start :], _cols(cmd), strict=False)
    ]
    pending: list[tuple[ParsedOverride, Word]] = []
    i = 0
    while i < len(words):
        w = words[i]
        arg = w.text
        i += 1
        if w.has_var and w.var_spans[0] == (0, len(arg)):
            info["opaque"].append(arg)
            continue
        if (
            arg.startswith("-")
            and not arg.startswith("--")
            and len(arg) > 1
            and arg[1].isalpha()
            or arg.startswith("--")
        ):
            flag, eq, val = arg.partition("=")
            if flag not in _HYDRA_FLAGS:
                findings.append(
                    Finding(
                        file,
                        w.line,
                        w.col,
                        "override/unknown-flag",
                        f"`{flag}` is not a Hydra command-line flag, so the script exits with "
                        f"'unrecognized arguments'" + _flag_hint(flag),
                    )
                )
                if not eq and i < len(words) and "=" not in words[i].text and not words[i].text.startswith("-"):
                    i += 1  # its apparent value: one finding is enough
                continue
            takes = _HYDRA_FLAGS[flag]
            if takes and not eq:
                if i >= len(words):
                    findings.append(
                        Finding(file, w.line, w.col, "override/flag-needs-value", f"`{flag}` needs a value")
                    )
                    continue
                val = words[i].text
                i += 1
            elif takes is None and not eq and i < len(words) and words[i].text in _INFO_CHOICES:
                i += 1
            if flag in ("--config-name", "-cn"):
                info["config_name"] = val[:-5] if val.endswith(".yaml") else val
            elif flag in ("--config-path", "-cp"):
                info["config_path"] = val
            elif flag in ("--config-dir", "-cd"):
                info["config_dir"] = val
            elif flag in ("--multirun", "-m"):
                info["multirun"] = True
            continue
        try:
            ov = parse_override(arg)
        except OverrideError as e:
            findings.append(Finding(file, w.line, w.col, "override/malformed", f"Hydra cannot parse `{arg}`: {e}"))
            continue
        pending.append((ov, w))
    for ov, w in pending:
        if ov.group:
            info["groups"].append(w.text)
            continue
        if ov.key == "hydra" or ov.key.startswith("hydra."):
            info["hydra"].append(w.text)
            continue
        if w.var_in(0, _key_end(w.text)):
            info["opaque"].append(w.text)
            continue
        value = ov.value
        if w.has_var and ov.has_value:
            value = None
            info["symbolic"].append(ov.key)
        elif isinstance(value, Sweep | HydraFunction):
            is_sweep = isinstance(value, Sweep) or value.name in _SWEEP_FUNCTIONS
            if is_sweep and not info["multirun"]:
                findings.append(
                    Finding(
                        file,
                        w.line,
                        w.col,
                        "override/sweep-without-multirun",
                        f"`{w.text}` is a sweep; without --multirun (-m) Hydra refuses to run it",
                    )
                )
            value = value.values[0] if isinstance(value, Sweep) else None
            if value is None:
                info["symbolic"].append(ov.key)
        assigns.append(Assignment(tuple(ov.key.split(".")), value, file, w.line, w.col, op=ov.op))
    return assigns, findings, info


def _key_end(text: str) -> int:
    eq = text.find("=")
    return len(text) if eq < 0 else eq


def _cols(cmd: Command) -> list[int]:
    return cmd.arg_cols[cmd.args_start :] if cmd.arg_cols else [1] * (len(cmd.argv) - cmd.args_start)


def _flag_hint(flag: str) -> str:
    import difflib

    close = difflib.get_close_matches(flag, [f for f in _HYDRA_FLAGS if f.startswith("--")], n=1, cutoff=0.6)
    if close:
        return f"; did you mean `{close[0]}`?"
    if flag.startswith("--") and "." in flag:
        return f"; Hydra overrides have no dashes: `{flag.lstrip('-')}=…`"
    return ""
