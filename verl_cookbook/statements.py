"""The statements of a Markdown page: each sentence of its prose and each row of its undeclared tables, with what is
written in it or right after it. Claim coverage (``verl_cookbook.checks.coverage``) reads them.

A statement is a sentence of a paragraph, a list item, an admonition or tab body (Material's containers are
flattened first, line for line) or a blockquote, or a row of a table that no ``<!-- check: params … -->`` declares
(of a glossary table, ``<!-- check: terms … -->``, only the note: its last column).
Headings, fenced code, a mkdocstrings ``::: name`` block and the header row of a table are not statements.

Sentences end at 。！？； and at ``.``/``!``/``?``/``;`` followed by a space, a line break, the end of the text, a
comment or a ``<sup>`` (a ``.`` ends nothing after an abbreviation such as ``e.g.`` or ``etc.``, nor in an
ellipsis). Nothing inside a code span, an HTML comment or tag, a link's address or a bare URL ends a sentence, so
`` `a.py:12` ``, ``0.9.1`` and ``https://x.org/a.b`` stay whole. A line break is no boundary (pages wrap lines
mid-sentence).

What is written in a sentence, or right after its end before the next sentence starts (on the same line or on the
lines below, blank lines allowed, in an HTML block of its own), belongs to it: ``<!-- check: KIND … -->`` claims,
``<!-- run: FILE::TEST -->`` markers and the ``<sup class="unchecked" title="…">※</sup>`` mark. A heading, a code
block, a table or a horizontal rule in between ends that reach. The last sentence before a code block that ends in a
colon (``:``/``：``), with only blank lines between, introduces that block; one right before a list introduces the list.

Pure over the page's text and its parsed code blocks; it returns data and judges nothing.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from verl_cookbook.glossary import KIND, note_column
from verl_cookbook.markdown import DIRECTIVE, CodeBlock, Page, parse_attrs, text_tokens

RUN = re.compile(r"<!--\s*run:\s*(\S+?)\s*-->")
MARK = re.compile(r'<sup\s+class="unchecked"([^>]*)>\s*※\s*</sup>')
_TITLE = re.compile(r"""title=(?:"([^"]*)"|'([^']*)')""")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_TAG = re.compile(r"</?[A-Za-z][^<>\n]*>")
_AUTOLINK = re.compile(r"<[a-z][a-z0-9+.-]*:[^\s<>]*>", re.I)
_URL = re.compile(r"https?://[^\s<>()（）\]]+")
_LINK_DEST = re.compile(r"\]\([^)\s]*(?:\s+\"[^\"]*\")?\)")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_BACKTICKS = re.compile(r"`+")
_NOT_NEWLINE = re.compile(r"[^\n]")
_CJK_END = "。！？；"
_STOP = re.compile("[。！？；.!?;]")
_ASCII_END = ".!?;"
_CLOSERS = "\"'”’」』)）]*_"
# words after which a "." ends no sentence (lowercase compared)
ABBREVIATIONS = frozenset({"e.g", "i.e", "etc", "vs", "cf", "approx", "fig", "eq", "resp", "incl", "esp", "al"})
_WORD_BEFORE = re.compile(r"([A-Za-z][A-Za-z.]*)$")
_MARKUP_ONLY = re.compile(r"^[\s*_>|#~\-—–:：,，.。;；!！?？()（）\[\]]*$")


@dataclass(frozen=True)
class Marker:
    """Something written in or right after a statement that binds it: a ``check`` claim (``name`` is its kind), a
    ``run`` marker (``name`` is ``file::test``) or the ※ ``mark`` (``name`` is its title, empty when it has none)."""

    kind: str
    line: int
    name: str
    attrs: tuple[tuple[str, str], ...] = ()

    def attr(self, key: str) -> str | None:
        return dict(self.attrs).get(key)


@dataclass
class Statement:
    line: int
    col: int
    start: int  # offset in the page's text of its first character
    end: int  # offset just past its last character (markers after it included)
    text: str  # as written, whitespace collapsed, markers left out
    plain: str  # what the words say: links as their text, tags and comments dropped, code spans kept
    kind: str  # "sentence" | "row"
    markers: list[Marker] = field(default_factory=list)
    introduces: CodeBlock | None = None  # the code block this sentence introduces (it ends in a colon)
    introduces_list: bool = False  # it ends in a colon right before a list (its items say what it announces)
    block: int = 0  # the paragraph, list item or row it is in: statements of one block share the number
    section: int = 0  # how many headings come before it: statements under one heading share the number


@functools.cache
def _closing(n: int) -> re.Pattern[str]:
    """The run of exactly ``n`` backticks that closes a code span opened by one."""
    return re.compile(r"(?<!`)" + "`" * n + r"(?!`)")


@functools.lru_cache(maxsize=8192)
def code_spans(s: str) -> tuple[tuple[int, int], ...]:
    """(start, end) of each code span of ``s``: a run of backticks up to the next run of the same length."""
    out = []
    pos = 0
    while (m := _BACKTICKS.search(s, pos)) is not None:
        close = _closing(len(m.group(0))).search(s, m.end())
        if close is None:
            pos = m.end()
            continue
        out.append((m.start(), close.end()))
        pos = close.end()
    return tuple(out)


def _mask(s: str) -> str:
    """``s`` with code spans, HTML comments and tags, link addresses and URLs blanked (same length): what may
    not end a sentence."""
    spans = list(code_spans(s)) if "`" in s else []
    if "<" in s:  # a comment, an autolink or a tag
        spans += [m.span() for rx in (_COMMENT, _AUTOLINK, _TAG) for m in rx.finditer(s)]
    if "](" in s:
        spans += [m.span() for m in _LINK_DEST.finditer(s)]
    if "http" in s:
        spans += [m.span() for m in _URL.finditer(s)]
    if not spans:
        return s
    out = list(s)
    for a, b in spans:  # blanked twice where two overlap: the same result
        out[a:b] = _NOT_NEWLINE.sub("\0", s[a:b])
    return "".join(out)


def _ends_sentence(s: str, masked: str, i: int) -> bool:
    ch = masked[i]
    if ch in _CJK_END:
        return True
    if ch not in _ASCII_END:
        return False
    nxt = masked[i + 1] if i + 1 < len(masked) else " "
    if not nxt.isspace() and not s.startswith(("<!--", "<sup"), i + 1):
        return False
    if ch == ".":
        if i > 0 and masked[i - 1] == ".":
            return False  # an ellipsis
        word = _WORD_BEFORE.search(masked[max(0, i - 12) : i])
        if word and word.group(1).lower().rstrip(".") in ABBREVIATIONS:
            return False
    return True


_TRAILER = re.compile(r"\s*(?:<!--.*?-->|<sup\b[^>]*>.*?</sup>)", re.S)


def split_sentences(s: str) -> list[tuple[int, int]]:
    """The sentences of ``s`` as (start, end) offsets; what follows a sentence's end up to the next sentence (closing
    quotes and brackets, then comments and ``<sup>`` marks) belongs to it."""
    masked = _mask(s)
    spans: list[tuple[int, int]] = []
    start = 0
    n = len(s)
    for stop in _STOP.finditer(masked):
        i = stop.start()
        if i < start or not _ends_sentence(s, masked, i):
            continue
        j = i + 1
        while j < n and s[j] in _CLOSERS:
            j += 1
        while (m := _TRAILER.match(s, j)) is not None:
            j = m.end()
        spans.append((start, j))
        start = j
    if start < n:
        spans.append((start, n))
    out = []
    for a, b in spans:
        while a < b and s[a].isspace():
            a += 1
        if a < b and not _MARKUP_ONLY.match(_TAG.sub("", _COMMENT.sub("", MARK.sub("", s[a:b])))):
            out.append((a, b))
    return out


def _outside_code(s: str, fn: Callable[[str], str]) -> str:
    """``s`` with ``fn`` applied to the text between its code spans (a code span shows markup, it holds none)."""
    pieces, pos = [], 0
    for a, b in code_spans(s) if "`" in s else ():
        pieces += [fn(s[pos:a]), s[a:b]]
        pos = b
    return "".join([*pieces, fn(s[pos:])])


def _strip_plain(s: str) -> str:
    """``s`` without its ※ marks, comments, links (their text kept), autolinks and tags, in that order; each pattern
    is tried only when the text has what every match of it holds (most pieces hold none)."""
    if "※" in s:
        s = MARK.sub("", s)
    if "<!--" in s:
        s = _COMMENT.sub("", s)
    if "](" in s:
        s = _LINK.sub(r"\1", s)
    if "<" in s:
        s = _TAG.sub("", _AUTOLINK.sub("", s))
    return s


def _strip_comments(s: str) -> str:
    """``s`` without its HTML comments, then without its ※ marks."""
    if "<!--" in s:
        s = _COMMENT.sub("", s)
    if "※" in s:
        s = MARK.sub("", s)
    return s


def _plain(s: str) -> str:
    if "<" not in s and "](" not in s:  # nothing _strip_plain strips
        return " ".join(s.split())
    return " ".join(_outside_code(s, _strip_plain).split())


def markers_in(s: str, line_of: Callable[[int], int]) -> list[Marker]:
    """The claims, run markers and ※ marks written in ``s`` (not those shown in a code span); ``line_of(offset in
    s)`` gives their page line."""
    if "<" not in s:  # every claim, run marker and ※ mark is written in a tag or a comment
        return []
    found: list[tuple[int, Marker]] = []
    for m in DIRECTIVE.finditer(s):
        kind, _, rest = m.group(1).strip().partition(" ")
        found.append((m.start(), Marker("check", line_of(m.start()), kind, tuple(sorted(parse_attrs(rest).items())))))
    for m in RUN.finditer(s):
        found.append((m.start(), Marker("run", line_of(m.start()), m.group(1))))
    for m in MARK.finditer(s):
        t = _TITLE.search(m.group(1))
        title = (t.group(1) or t.group(2) or "").strip() if t else ""
        found.append((m.start(), Marker("mark", line_of(m.start()), title)))
    spans = code_spans(s) if "`" in s else ()
    return [mk for at, mk in sorted(found, key=lambda x: x[0]) if not any(a <= at < b for a, b in spans)]


def _text(s: str) -> str:
    if "<" not in s:  # no mark or comment to leave out
        return " ".join(s.split())
    return " ".join(_outside_code(s, _strip_comments).split())


class _Lines:
    """Offsets of a page's lines, and where a parsed line's content sits in the page's text."""

    def __init__(self, text: str) -> None:
        self.text = text
        kept = text.splitlines(keepends=True)  # the lines the parser numbers (``\r`` ends one too)
        self.lines = [line.rstrip("\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029") for line in kept] or [""]
        self.starts = [0]
        for line in kept:
            self.starts.append(self.starts[-1] + len(line))

    def line_of(self, offset: int) -> int:
        # the last line start at or before ``offset`` (the first line's, 0, for any offset before it)
        return max(bisect.bisect_right(self.starts, offset), 1)

    def offset(self, line: int, content_line: str) -> int:
        """Offset in the page of where ``content_line`` (a parsed, de-indented copy of page line ``line``) starts."""
        raw = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        stripped = content_line.rstrip()
        k = len(raw.rstrip()) - len(stripped) if stripped and raw.rstrip().endswith(stripped) else raw.find(stripped)
        return self.starts[line - 1] + max(k, 0) if 0 < line <= len(self.lines) else len(self.text)


class _Offsets:
    """Where the characters of an inline token's ``content`` (its lines starting at page line ``first_line``) are in
    the page: ``where[i]`` is the page offset of ``content[i]``."""

    def __init__(self, lines: _Lines, first_line: int, content: str) -> None:
        self.starts: list[int] = []  # offset in content of each of its lines
        self.bases: list[int] = []  # offset in the page of the same
        pos = 0
        for k, cl in enumerate(content.split("\n")):
            self.starts.append(pos)
            self.bases.append(lines.offset(first_line + k, cl))
            pos += len(cl) + 1

    def __getitem__(self, i: int) -> int:
        k = bisect.bisect_right(self.starts, i) - 1
        return self.bases[k] + i - self.starts[k]


def read_statements(page: Page) -> list[Statement]:
    """Every statement of ``page``, in order, with its markers and the code block it introduces (read once per page:
    the coverage check and the run-marker check both ask)."""
    if "statements" not in page.derived:
        page.derived["statements"] = _read_statements(page)
    return list(page.derived["statements"])


def _read_statements(page: Page) -> list[Statement]:
    text = page.text
    lines = _Lines(text)
    tokens = page.tokens or text_tokens(text)[1]
    declared = {t.line for t in page.tables if t.directive is not None and t.directive.kind == "params"}
    # a glossary table: its term (or avoided word) columns are declared, its note column is prose
    notes = {t.line: note_column(t) for t in page.tables if t.directive is not None and t.directive.kind == KIND}
    blocks = {b.line: b for b in page.blocks}
    out: list[Statement] = []
    section = 0
    last: Statement | None = None  # the statement that markers in a following HTML block belong to
    in_table: int | None = None
    row: list[tuple[int, str]] = []
    row_line = 0
    header = False
    for i, tok in enumerate(tokens):
        t = tok.type
        if t == "inline" and in_table is None and tok.map:
            if i > 0 and tokens[i - 1].type == "heading_open":
                last = None
                continue
            content = tok.content
            if content.lstrip().startswith(":::"):
                last = None
                continue  # mkdocstrings' ::: block
            where = _Offsets(lines, tok.map[0] + 1, content)
            for a, b in split_sentences(content):
                start, end = where[a], where[b - 1] + 1
                chunk = content[a:b]
                st = Statement(
                    lines.line_of(start),
                    start - lines.starts[lines.line_of(start) - 1] + 1,
                    start,
                    end,
                    _text(chunk),
                    _plain(chunk),
                    "sentence",
                    markers_in(chunk, _at(lines, where, a)),
                    block=i,
                    section=section,
                )
                out.append(st)
                last = st
        elif t == "html_block" and tok.map:
            if _COMMENT.sub("", MARK.sub("", tok.content)).strip():
                last = None  # other HTML: a block of its own
                continue
            if last is not None:
                base = lines.starts[tok.map[0]]
                raw = text[base : lines.starts[min(tok.map[1], len(lines.lines))]]
                last.markers.extend(markers_in(raw, _at(lines, None, base)))
                last.end = base + len(raw.rstrip())
        elif t in ("bullet_list_open", "ordered_list_open") and tok.map:
            if last is not None and last.plain.rstrip("*_ ").endswith((":", "：")):
                if all(not lines.lines[n].strip() for n in range(lines.line_of(last.end), tok.map[0])):
                    last.introduces_list = True
        elif t == "fence" and tok.map:
            block = blocks.get(tok.map[0] + 1)
            if last is not None and block is not None and last.plain.rstrip("*_ ").endswith((":", "：")):
                if all(not lines.lines[n].strip() for n in range(lines.line_of(last.end), tok.map[0])):
                    last.introduces = block
            last = None
        elif t == "table_open" and tok.map:
            in_table = tok.map[0] + 1
            last = None
        elif t == "table_close":
            in_table = None
        elif in_table is not None:
            if t == "thead_open":
                header = True
            elif t == "thead_close":
                header = False
            elif t == "tr_open" and tok.map:
                row, row_line = [], tok.map[0] + 1
            elif t == "inline":
                row.append((row_line, tok.content))
            elif t == "tr_close" and not header and in_table not in declared:
                cells = [c for _, c in row]
                if in_table in notes:
                    cells = cells[notes[in_table] :][:1]
                cell_row = _row(lines, row_line, cells)
                if cell_row is not None:
                    cell_row.block, cell_row.section = i, section
                    out.append(cell_row)
                    last = cell_row
        elif t in ("heading_open", "hr", "code_block"):
            section += t == "heading_open"
            last = None
    return out


def _at(lines: _Lines, where: _Offsets | None, base: int) -> Callable[[int], int]:
    """The page line of an offset into a piece of text that starts at ``base`` (in ``where``, the page offsets of an
    inline token's characters, when given; else in the page)."""

    def line_of(off: int) -> int:
        return lines.line_of(where[base + off] if where is not None else base + off)

    return line_of


def _row(lines: _Lines, line: int, cells: list[str]) -> Statement | None:
    joined = " | ".join(cells)
    if _MARKUP_ONLY.match(_plain(joined)):
        return None
    start = lines.starts[line - 1]
    raw = lines.lines[line - 1]
    lead = len(raw) - len(raw.lstrip(" |"))
    return Statement(
        line,
        lead + 1,
        start + lead,
        start + len(raw.rstrip()),
        _text(joined),
        _plain(joined),
        "row",
        markers_in(raw, lambda _off: line),
    )
