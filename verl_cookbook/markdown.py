"""Pull code blocks, ``--8<--`` includes, tables and check directives out of Markdown, with line numbers.

Material's containers (``!!! note``, ``??? tip``, ``=== "Tab"``) indent their content by four spaces,
which plain Markdown would read as an indented code block; they are flattened first, line for line,
so every line number stays the page's own.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from verl_cookbook.rules import Rule
from verl_cookbook.rules.pages import FILE_BINARY, FILE_ENCODING, FILE_TOO_LARGE, FILE_UNREADABLE

MAX_BYTES = 5 * 1024 * 1024
_CONTAINER = re.compile(r"^( *)(?:!!!|\?\?\?\+?|===\+?)\s")
_FENCE = re.compile(r"^( *)(`{3,}|~{3,})(.*)$")
_INCLUDE = re.compile(r"""^\s*-{1,}8<-{1,}\s+(["'])([^"']+)\1\s*$""")
DIRECTIVE = re.compile(r"<!--\s*check:\s*(.*?)\s*-->", re.S)
_ATTR = re.compile(r"""([A-Za-z_][\w-]*)=("[^"]*"|'[^']*'|[^\s}]+)""")


class MarkdownError(Exception):
    """The file cannot be read as Markdown (binary, not UTF-8, too large): the rule that says so, the line, and the
    data its message reads. The runner (or doctor) makes it a finding on the file."""

    def __init__(self, rule: Rule, line: int = 1, **data: Any) -> None:
        super().__init__(rule.render(data))
        self.rule, self.line, self.data = rule, line, data


@dataclass
class CodeBlock:
    """A fenced code block. ``code`` has includes resolved; ``line_map[i]`` is where code line i+1 came from."""

    page: str
    line: int
    col: int
    lang: str
    attrs: dict[str, str]
    info: str
    code: str
    line_map: list[tuple[str, int]]
    includes: list[str] = field(default_factory=list)
    missing_includes: list[tuple[str, int]] = field(default_factory=list)
    unterminated: bool = False

    def where(self, code_line: int) -> tuple[str, int]:
        """(file, line) of 1-based line ``code_line`` of ``code``; the fence itself when out of range."""
        if 1 <= code_line <= len(self.line_map):
            return self.line_map[code_line - 1]
        return (self.page, self.line)


@dataclass
class Table:
    page: str
    line: int
    header: list[str]
    rows: list[tuple[int, list[str]]]
    directive: Directive | None = None


@dataclass
class Directive:
    """``<!-- check: KIND key="value" ... -->``: a declared claim or a declaration for the next table."""

    page: str
    line: int
    kind: str
    attrs: dict[str, str]
    end_line: int = 0


class Problem(NamedTuple):
    """What reading a page found wrong (a declaration above no block), as data: the runner makes it a finding."""

    path: str
    line: int
    col: int
    rule: Rule
    data: dict[str, Any]


@dataclass
class Page:
    path: str
    blocks: list[CodeBlock]
    tables: list[Table]
    directives: list[Directive]
    text: str = ""
    problems: list[Problem] = field(default_factory=list)  # what reading the page found (a misplaced declaration)
    # markdown-it's block tokens of the flattened page, kept for the statement reader (``statements.py``)
    tokens: list = field(default_factory=list, repr=False, compare=False)
    # what readers above derived from this page, by reader (the statement reader's statements): two checks that read
    # the same page's statements read them once
    derived: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


def parse_attrs(text: str) -> dict[str, str]:
    out = {}
    for key, raw in _ATTR.findall(text):
        out[key] = raw[1:-1] if raw[:1] in "\"'" else raw
    return out


def parse_info(info: str) -> tuple[str, dict[str, str]]:
    """Language and attributes of a fence info string: ``yaml`` or ``{ .yaml .annotate check="config" }``."""
    info = info.strip()
    if info.startswith("{") and info.endswith("}"):
        inner = info[1:-1]
        classes = re.findall(r"(?:^|\s)\.([\w+-]+)", inner)
        lang = next((c for c in classes if c not in ("annotate", "no-copy", "copy")), "")
        return lang, parse_attrs(inner)
    lang, _, rest = info.partition(" ")
    if rest.strip().startswith("{") and rest.strip().endswith("}"):
        rest = rest.strip()[1:-1]
    return lang.strip(), parse_attrs(rest)


def flatten_containers(lines: list[str]) -> list[str]:
    """Remove Material container markers and their four-space content indent, keeping line numbers.

    Each open container takes away its own four spaces and no more: a box inside a list item keeps its text at the
    item's indent, so what follows the box (a paragraph, a fence) still belongs to the item, as mkdocs renders it."""
    out: list[str] = []
    stack: list[int] = []
    fence: tuple[str, int, int] | None = None  # (char, length, stripped indent)
    for raw in lines:
        if fence is not None:
            strip = fence[2]
            line = raw[strip:] if raw[:strip].strip() == "" else raw.lstrip(" ")
            m = _FENCE.match(line)
            if m and m.group(2)[0] == fence[0] and len(m.group(2)) >= fence[1] and not m.group(3).strip():
                fence = None
            out.append(line)
            continue
        if not raw.strip():
            out.append("")
            continue
        indent = len(raw) - len(raw.lstrip(" "))
        while stack and indent < stack[-1]:
            stack.pop()
        strip = 4 * len(stack)
        m = _CONTAINER.match(raw)
        if m:
            stack.append(len(m.group(1)) + 4)
            out.append("")
            continue
        line = raw[strip:]
        fm = _FENCE.match(line)
        if fm:
            fence = (fm.group(2)[0], len(fm.group(2)), strip)
        out.append(line)
    return out


def read_text(path: Path) -> str:
    """The file's text, or a MarkdownError saying why it cannot be read as text (too large, no permission,
    binary, not UTF-8). The one reader of input files: ``doctor`` reads launch scripts and configs with it too."""
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise MarkdownError(FILE_TOO_LARGE, size=size, limit=MAX_BYTES)
        data = path.read_bytes()
    except OSError as e:
        raise MarkdownError(FILE_UNREADABLE, error=str(e.strerror or e)) from None
    if b"\0" in data:
        raise MarkdownError(FILE_BINARY)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise MarkdownError(FILE_ENCODING, line, byte=f"{data[e.start]:02x}", offset=e.start) from None


def resolve_include(target: str, page: Path, bases: list[Path]) -> Path | None:
    for base in [*bases, page.parent]:
        cand = (base / target).resolve()
        if cand.is_file():
            return cand
    return None


def display(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


_INDENT = re.compile(r"[ \t]*")


def line_marks(src: str) -> tuple[list[int], list[int], list[int], list[int]]:
    """markdown-it's line marks of ``src``: each line's start and end offsets, its indent in characters and in
    columns (a tab to the next multiple of 4). The same lists markdown-it's ``StateBlock`` builds by visiting every
    character of the page in Python (the largest single cost of parsing a page); here one ``find`` and one
    indent match per line. As there, a last line of only spaces and tabs with no newline after it has no entry.
    Without the fake entry ``StateBlock`` appends at the end."""
    begins: list[int] = []
    ends: list[int] = []
    shifts: list[int] = []
    counts: list[int] = []
    n = len(src)
    start = 0
    while start < n:
        nl = src.find("\n", start)
        end = n if nl < 0 else nl
        indent_end = _INDENT.match(src, start, end).end()  # type: ignore[union-attr]  # [ \t]* always matches
        if nl < 0 and indent_end == n:
            break
        offset = 0
        if "\t" in src[start:indent_end]:
            for ch in src[start:indent_end]:
                offset += 4 - offset % 4 if ch == "\t" else 1
        else:
            offset = indent_end - start
        begins.append(start)
        ends.append(end)
        shifts.append(indent_end - start)
        counts.append(offset)
        start = end + 1
    return begins, ends, shifts, counts


class _LinesAtOnce(StateBlock):
    """markdown-it's block state with its line marks from :func:`line_marks`: the state is set up by markdown-it for
    an empty text (every other field as markdown-it sets it), then given the text and its marks."""

    def __init__(self, src: str, md: MarkdownIt, env: Any, tokens: list) -> None:
        super().__init__("", md, env, tokens)
        self.src = src
        self.bMarks, self.eMarks, self.tShift, self.sCount = line_marks(src)
        self.bsCount = [0] * len(self.bMarks)
        for marks in (self.bMarks, self.eMarks):
            marks.append(len(src))  # the fake last line markdown-it's bounds checks rely on
        for marks in (self.tShift, self.sCount, self.bsCount):
            marks.append(0)
        self.lineMax = len(self.bMarks) - 1


def _parse_blocks(block: Any, src: str, md: MarkdownIt, env: Any, out_tokens: list) -> list | None:
    """``ParserBlock.parse`` with :class:`_LinesAtOnce` for its state."""
    if not src:
        return None
    state = _LinesAtOnce(src, md, env, out_tokens)
    block.tokenize(state, state.line, state.lineMax)
    return state.tokens


@cache
def block_parser() -> MarkdownIt:
    """CommonMark with tables, block level only: the checks read an inline token's ``content`` (its raw text),
    never its children, so the inline rules (half of the parse time) are not run. Its block parser sets up its
    state with :class:`_LinesAtOnce` (this parser only: other users of markdown-it are left alone)."""
    md = MarkdownIt("commonmark").enable("table")
    md.core.ruler.disable("inline")
    md.block.parse = functools.partial(_parse_blocks, md.block)  # type: ignore[method-assign]
    return md


@lru_cache(maxsize=128)
def block_tokens(src: str) -> tuple:
    """markdown-it's block tokens of ``src`` (a flattened page), parsed once per text in a process: a page is read
    by the checks, by the parity check beside its twin and by the statement reader, and the parse is most of what
    reading costs. The tokens are shared: readers never change them."""
    return tuple(block_parser().parse(src))


@lru_cache(maxsize=128)
def text_tokens(text: str) -> tuple[tuple[str, ...], tuple]:
    """A page's lines with its Material containers flattened (``flatten_containers``), and their block tokens: both
    once per text in a process, as ``block_tokens`` (the parity check reads a page's headings, and its twin's
    structure, from the same text the check read)."""
    flat = tuple(flatten_containers(text.splitlines()))
    return flat, block_tokens("\n".join(flat) + "\n")


def parse_page(path: Path, root: Path, bases: list[Path] | None = None, text: str | None = None) -> Page:
    """Parse one Markdown file. ``root`` is what paths are shown relative to; ``bases`` where includes resolve."""
    bases = bases if bases is not None else [root]
    shown = display(path, root)
    if text is None:
        text = read_text(path)
    lines = text.splitlines()
    flat, tokens = text_tokens(text)
    blocks: list[CodeBlock] = []
    tables: list[Table] = []
    directives: list[Directive] = []

    # a directive shown inside a code block (a syntax example) declares nothing
    in_fence = {n for t in tokens if t.type == "fence" and t.map for n in range(t.map[0] + 1, t.map[1] + 1)}
    start, at = 1, 0  # the line of offset ``at``: counted on from the previous match, not from the page's start
    for m in DIRECTIVE.finditer(text):
        start += text.count("\n", at, m.start())
        at = m.start()
        end = start + text.count("\n", at, m.end())
        if start in in_fence:
            continue
        body = m.group(1).strip()
        kind, _, rest = body.partition(" ")
        directives.append(Directive(shown, start, kind, parse_attrs(rest), end))

    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.type == "fence" and tok.map:
            start, end = tok.map
            fence_line = lines[start] if start < len(lines) else ""
            col = len(fence_line) - len(fence_line.lstrip(" ")) + 1
            lang, attrs = parse_info(tok.info)
            closing = flat[end - 1].strip() if end - 1 < len(flat) else ""
            unterminated = end >= len(flat) and not (closing.startswith(tok.markup) and end - 1 > start)
            code_lines: list[str] = []
            line_map: list[tuple[str, int]] = []
            includes: list[str] = []
            missing: list[tuple[str, int]] = []
            for k, content_line in enumerate(tok.content.splitlines()):
                page_line = start + 2 + k
                inc = _INCLUDE.match(content_line)
                if not inc:
                    code_lines.append(content_line)
                    line_map.append((shown, page_line))
                    continue
                target = inc.group(2)
                if target.startswith(";"):
                    continue  # pymdownx.snippets' escaped include
                resolved = resolve_include(target, path, bases)
                if resolved is None:
                    missing.append((target, page_line))
                    continue
                inc_shown = display(resolved, root)
                includes.append(inc_shown)
                inc_text = read_text(resolved)
                for n, inc_line in enumerate(inc_text.splitlines(), 1):
                    code_lines.append(inc_line)
                    line_map.append((inc_shown, n))
            blocks.append(
                CodeBlock(
                    page=shown,
                    line=start + 1,
                    col=col,
                    lang=lang,
                    attrs=attrs,
                    info=tok.info.strip(),
                    code="\n".join(code_lines) + ("\n" if code_lines else ""),
                    line_map=line_map,
                    includes=includes,
                    missing_includes=missing,
                    unterminated=unterminated,
                )
            )
        elif tok.type == "table_open" and tok.map:
            table, i = _read_table(tokens, i, shown)
            # a directive ending right above the table (blank lines allowed) declares it
            for d in directives:
                if d.end_line < table.line and all(not lines[n - 1].strip() for n in range(d.end_line + 1, table.line)):
                    table.directive = d
            tables.append(table)
            continue
        i += 1
    return Page(shown, blocks, tables, directives, text, tokens=list(tokens))


def _read_table(tokens: Sequence, i: int, shown: str) -> tuple[Table, int]:
    start = tokens[i].map[0] + 1
    header: list[str] = []
    rows: list[tuple[int, list[str]]] = []
    current: list[str] | None = None
    row_line = start
    in_head = False
    while i < len(tokens) and tokens[i].type != "table_close":
        t = tokens[i]
        if t.type == "thead_open":
            in_head = True
        elif t.type == "thead_close":
            in_head = False
        elif t.type == "tr_open":
            current = []
            row_line = (t.map[0] + 1) if t.map else row_line
        elif t.type == "inline" and current is not None:
            current.append(t.content.strip())
        elif t.type == "tr_close" and current is not None:
            if in_head:
                header = current
            else:
                rows.append((row_line, current))
            current = None
        i += 1
    return Table(shown, start, header, rows), i + 1


def code_spans(cell: str) -> list[str]:
    """The `code` spans of a table cell, in order."""
    return [m.group(2) for m in re.finditer(r"(`+)(.+?)\1", cell)]
