"""How a reader takes a code block of another project's docs (``--lenient``): the fence names a language, but what the
block shows may be the output of a program, or an excerpt of one, rather than a script or a module to run.

Docs tag a training log, a pip error, a ``--help`` text or a ``ray status`` banner ``bash`` because that is where
they came from, and tag a function's prototype, an elided body (``...``, ``<<<continue>>>``) or a JSON sample
``python``. A reader sees output and excerpts for what they are; parsing them as a script or a module only produces
syntax noise. The functions here say what a block shows, from its text alone (no verl, no judgement); ``lenient``
decides what to check and what to report.
"""

from __future__ import annotations

import builtins
import io
import keyword
import re
import tokenize
from dataclasses import dataclass


@dataclass(frozen=True)
class Reading:
    """What a block shows: ``kind`` is ``output`` (the output of a program), ``excerpt`` (part of a program, or
    pseudo-code) or ``shell`` (a shell command under a Python tag); ``what`` says which sign showed it (``log``,
    ``traceback``, ``error``, ``help``, ``banner``, ``pip``; ``marker``, ``ellipsis``, ``signature``, ``data``,
    ``names``, ``fragment``; ``command``) and ``line`` the block's line (1-based) that shows it."""

    kind: str
    what: str
    line: int


# -- output in a shell block ------------------------------------------------------------------------------------
# One pattern per kind of output line; a line that matches one is output, whatever bash would make of it.
_OUTPUT_LINES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("traceback", re.compile(r"^\s*(Traceback \(most recent call last\):|File \"[^\"]+\", line \d+)")),
    # `ValueError: …`, `torch.OutOfMemoryError: …`, `ERROR: Could not find …` (pip), `WARNING: …`, `[ERROR] …`
    ("error", re.compile(r"^\s*(\w+\.)*[A-Z]\w*(Error|Exception|Warning)(: |:$)")),
    ("error", re.compile(r"^\s*\[?(ERROR|WARNING|WARN|INFO|DEBUG|CRITICAL|FATAL)\]?(: | - |\s+\S)")),
    # a training log: `step:0 - timing/gen:21.470 - …`, or a time stamp at the start of the line
    ("log", re.compile(r"^\s*\(?\w[\w/@-]*:\s*-?\d[\d.e+-]*\s+-\s+\w[\w/@()-]*:\s*-?\d")),
    ("log", re.compile(r"^\s*\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d)?")),
    ("log", re.compile(r"^\s*\((\w+ )?pid=\d+(, ip=[\d.]+)?\)\s")),
    # argparse's `--help`: its usage line and section headings
    ("help", re.compile(r"^\s*usage: \S")),
    ("help", re.compile(r"^\s*(options|optional arguments|positional arguments):\s*$")),
    # a banner or rule: `======== Autoscaler status: … ========`, `--------------------`
    ("banner", re.compile(r"^\s*(={3,}|-{6,}|\*{6,})(\s.*)?$")),
    # what pip prints while it installs
    ("pip", re.compile(r"^\s*(Successfully installed|Requirement already satisfied|Collecting|Downloading) \S")),
)


def output_line(line: str) -> str | None:
    """The kind of output ``line`` is (``log``, ``traceback``, ``error``, ``help``, ``banner``, ``pip``), or None."""
    for what, pattern in _OUTPUT_LINES:
        if pattern.match(line):
            return what
    return None


def _meaningful(code: str) -> list[tuple[int, str]]:
    """(line number, text) of the lines that say something: not blank, not a shell comment."""
    return [(i, ln) for i, ln in enumerate(code.split("\n"), 1) if ln.strip() and not ln.lstrip().startswith("#")]


# A sentence where bash would look for a command: a capitalised word and more words (`Local node IP: 10.0.0.1`,
# `Ray runtime started.`). No command is named `Usage` or `Next`, but a heredoc's text reads the same, so a sentence
# counts only towards a block made mostly of output.
_SENTENCE = re.compile(r"^\s*[A-Z][a-z]+(\s+[A-Za-z(][\w'(),.:/-]*)+\s*$")


def shell_output(code: str) -> Reading | None:
    """The output a block tagged ``bash``/``shell`` shows instead of commands, or None for a script.

    A block is output when its first line that says something is an output line (a log, a traceback, an error or a
    warning, a ``usage:`` line, a banner, pip's progress), or when most of its lines are output lines or sentences
    (``what`` is then the first output line's kind, or ``text``). A console transcript (``$ cmd`` and what it
    printed) is not output here: its commands are read by ``transcript_commands``."""
    lines = _meaningful(code)
    if not lines:
        return None
    kinds = [(i, output_line(ln)) for i, ln in lines]
    first_line, first = kinds[0]
    if first is not None:
        return Reading("output", first, first_line)
    shown = [(i, k) for i, k in kinds if k is not None]
    sentences = [i for i, ln in lines if _SENTENCE.match(ln)]
    if (len(shown) + len(sentences)) * 2 > len(lines):
        return Reading("output", shown[0][1], shown[0][0]) if shown else Reading("output", "text", sentences[0])
    return None


# -- excerpts in a Python block -----------------------------------------------------------------------------------
_MARKER = re.compile(r"<<<[^<>\n]*>>>")  # `<<<continue 1>>>`: where an excerpt goes on
_ELLIPSIS = re.compile(r"(?<![\w.'\"])(\.\.\.|…)(?![\w.'\"])")  # `...` standing for what is left out
_LABEL = re.compile(r"^\s*[A-Z][a-z]+( [A-Za-z]+){0,5}:\s*$")  # `Input format:`, prose before a sample
_SHELL_WORDS = (
    "python",
    "python3",
    "pip",
    "pip3",
    "bash",
    "sh",
    "cd",
    "export",
    "git",
    "wget",
    "curl",
    "torchrun",
    "ray",
    "huggingface-cli",
    "hf",
    "conda",
    "apt",
    "apt-get",
    "mkdir",
    "docker",
    "accelerate",
)
_SHELL_LINE = re.compile(r"^\s*(" + "|".join(re.escape(w) for w in _SHELL_WORDS) + r")\s+[^\s(=:.,]")
_BUILTINS = frozenset(dir(builtins))


# What Python says of a piece cut out of a larger program (a loop body, a method without its class, a signature
# without its body): an excerpt, not a mistake.
_FRAGMENT_ERRORS = (
    "not properly in loop",
    "outside loop",
    "outside function",
    "outside async function",
    "expected an indented block",
    "unexpected indent",
    "unindent does not match",
)


def python_excerpt(code: str) -> Reading | None:
    """What a Python block that does not compile shows instead of a program, or None (a program with a mistake).

    In this order: a shell command under a Python tag (every line a command: ``python examples/x.py``); a marker where
    an excerpt goes on (``<<<continue 1>>>``); a piece cut out of a larger program (Python's error says so: a
    ``return`` outside a function, a body indented for a class that is not shown, a ``def`` line without its body);
    a data sample (the block starts with ``{`` or ``[``, or with a label such as ``Input format:``); an ellipsis
    standing for what is left out (``def create(self, ...)``, ``{"k": v, ...}``); a prototype (the block compiles as
    the signature of a ``def``); pseudo-code that calls names it neither imports nor defines (``RayWorkerGroup(...)``
    with no import): an illustration, not a program."""
    error = _compile_error(code)
    if error is None:
        return None
    lines = _meaningful(code)
    if not lines:
        return None
    first_line, first = lines[0]
    if all(_SHELL_LINE.match(ln) for _, ln in lines):
        return Reading("shell", "command", first_line)
    marker = _first(_MARKER, code)
    if marker:
        return Reading("excerpt", "marker", marker)
    if any(m in error[0] for m in _FRAGMENT_ERRORS):
        return Reading("excerpt", "fragment", error[1])
    if first.lstrip()[:1] in "{[" or _LABEL.match(first):
        return Reading("excerpt", "data", first_line)
    ellipsis = _first(_ELLIPSIS, code)
    if ellipsis:
        return Reading("excerpt", "ellipsis", ellipsis)
    if _signature(code):
        return Reading("excerpt", "signature", first_line)
    called = _undefined_calls(code)
    if called:
        return Reading("excerpt", "names", called)
    return None


def _compile_error(code: str) -> tuple[str, int] | None:
    """Python's message and line for ``code`` when it does not compile, or None."""
    try:
        compile(code, "<block>", "exec", dont_inherit=True)  # compiled to read it, never run
    except SyntaxError as e:
        return e.msg or "", e.lineno or 1
    except ValueError as e:  # a null byte
        return str(e), 1
    return None


def _compiles(code: str) -> bool:
    return _compile_error(code) is None


def _first(pattern: re.Pattern[str], code: str) -> int:
    """The line (1-based) of the first match of ``pattern`` outside a ``#`` comment, or 0."""
    for i, ln in enumerate(code.split("\n"), 1):
        text = ln.split("#", 1)[0] if "#" in ln and "'" not in ln and '"' not in ln else ln
        if pattern.search(text):
            return i
    return 0


def _signature(code: str) -> bool:
    """Whether the block is a function's prototype: ``f(x, *, y=None) -> T`` compiles as the head of a ``def``."""
    head = code.strip()
    if not re.match(r"^[A-Za-z_][\w.]*\s*\(", head) or "\n\n" in head:
        return False
    name, rest = head.split("(", 1)
    return _compiles(f"def {name.strip().replace('.', '_')}({rest}:\n    pass\n")


def _undefined_calls(code: str) -> int:
    """The line of the first call of a name the block neither imports, defines, assigns nor has as a builtin, when
    the block imports nothing; else 0."""
    names: list[tuple[str, int, str]] = []  # (name, line, the token after it)
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        toks = []
    if not toks:  # what tokenize cannot read (an unterminated string): the words before `(`, `=`, `:`
        for i, ln in enumerate(code.split("\n"), 1):
            for m in re.finditer(r"\b([A-Za-z_]\w*)\s*([(=:])?", ln):
                names.append((m.group(1), i, m.group(2) or ""))
    else:
        for k, t in enumerate(toks):
            if t.type == tokenize.NAME:
                after = toks[k + 1].string if k + 1 < len(toks) else ""
                before = toks[k - 1].string if k else ""
                names.append((t.string, t.start[0], "." if before == "." else after))
    words = {n for n, _, _ in names}
    if words & {"import"}:
        return 0
    defined = {n for k, (n, _, after) in enumerate(names) if after in ("=", ",") or _after_def(names, k)}
    for name, line, after in names:
        if after == "(" and not keyword.iskeyword(name) and name not in _BUILTINS and name not in defined:
            return line
    return 0


def _after_def(names: list[tuple[str, int, str]], k: int) -> bool:
    return k > 0 and names[k - 1][0] in ("def", "class", "as", "for")
