"""What the prose lint reads of a page: its lines outside code with the syntax masked, its paragraphs, links and
quotations, and the finding it reports. Shared by scripts/prose_lint.py and the rule modules it runs
(prose_terms.py, prose_layout.py); it judges nothing.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
# syntax, not prose: code spans, HTML comments and tags, attribute lists, link targets, admonition/tab titles
# (comments and link targets are invisible in the rendered text: masked with HIDDEN, not MASK)
_SYNTAX = [
    re.compile(r"(`+)(?:(?!\1).)+\1"),
    re.compile(r"<!--.*?(?:-->|$)"),
    re.compile(r"</?[A-Za-z][^<>]*>"),
    re.compile(r"\{\s*[#.:\w][^{}]*\}"),
    re.compile(r"(?<=\])\([^()\s]*(?:\s+\"[^\"]*\")?\)"),
    re.compile(r"^\s*(?:!!!|\?\?\?\+?|===)\s*[\w-]*(?:\s+[\w-]+)*\s*(?:\"[^\"]*\")?"),
    re.compile(r"https?://\S+"),
]
SENTENCE_END = re.compile(r"[。！？；]")
MASK = "\x1a"
HIDDEN = "\x1b"
_HIDDEN_SYNTAX = {1, 4}  # indexes in _SYNTAX: HTML comments, link targets
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*(?:\{[^{}]*\})?\s*$")
ADMONITION = re.compile(r'^(?P<indent>\s*)(?:!!!|\?\?\?\+?)\s+(?P<kind>[\w-]+)(?:\s+"(?P<title>[^"]*)")?\s*$')
LINK = re.compile(r'(?<![!\\])\[(?P<text>(?:[^\[\]]|\[[^\[\]]*\])*)\]\((?P<target>[^()\s]*)(?:\s+"[^"]*")?\)')
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_TABLE_ROW = re.compile(r"^\s*\|")
# quotations: what is quoted is mentioned, not used (a title, an error text, a term under discussion)
_QUOTED = re.compile(r"“[^“”]*”|「[^「」]*」|《[^《》]*》|\"[^\"]*\"")


@dataclass(frozen=True)
class Finding:
    path: Path
    line: int
    col: int
    rule: str
    message: str

    def __str__(self) -> str:
        try:
            where = self.path.resolve().relative_to(REPO)
        except ValueError:
            where = self.path
        return f"{where}:{self.line}:{self.col}: {self.rule}: {self.message}"


def language(path: Path) -> str:
    return "en" if path.name.endswith(".en.md") else "zh"


def prose_lines(text: str) -> Iterator[tuple[int, str, str]]:
    """(line number, line, the line with its syntax masked) for each line outside fenced code. A masked
    character is MASK: neither a space nor CJK nor a quote, so a rule never matches across or inside it."""
    fence: str | None = None
    in_comment = False
    for number, line in enumerate(text.splitlines(), 1):
        m = _FENCE.match(line)
        if fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        masked = line
        if in_comment:  # inside a comment that began on an earlier line
            end = masked.find("-->")
            masked = HIDDEN * len(masked) if end < 0 else HIDDEN * (end + 3) + masked[end + 3 :]
            in_comment = end < 0
        for i, pattern in enumerate(_SYNTAX):
            fill = HIDDEN if i in _HIDDEN_SYNTAX else MASK
            masked = pattern.sub(lambda m, fill=fill: fill * len(m.group(0)), masked)
        if "<!--" in line and "-->" not in line[line.rfind("<!--") :]:
            in_comment = True
        yield number, line, masked


def unquoted(masked: str) -> str:
    """``masked`` with what stands inside “”, 「」, 《》 and ASCII double quotes masked too: a quoted word is
    mentioned, not used."""
    return _QUOTED.sub(lambda m: m.group(0)[0] + MASK * (len(m.group(0)) - 2) + m.group(0)[-1], masked)


def external_link_texts(line: str, masked: str) -> str:
    """``masked`` with the text of links to other sites masked: such a text is the other site's title."""
    chars = list(masked)
    for m in LINK.finditer(line):
        if m.group("target").startswith(("http://", "https://")):
            for i in range(m.start("text"), m.end("text")):
                chars[i] = MASK
    return "".join(chars)


def sentence(line: str, pos: int) -> str:
    starts = [m.end() for m in SENTENCE_END.finditer(line, 0, pos)]
    end = SENTENCE_END.search(line, pos)
    return line[starts[-1] if starts else 0 : end.end() if end else len(line)]


def is_heading(line: str) -> bool:
    return bool(HEADING.match(line))


@dataclass(frozen=True)
class Paragraph:
    line: int  # where it starts
    lines: tuple[tuple[int, str, str], ...]  # (number, line, masked) of each of its lines


def paragraphs(text: str) -> Iterator[Paragraph]:
    """The paragraphs of a page outside code: runs of text lines that a blank line, a heading, a table, an
    admonition or tab opener, a comment block or a new list item ends. A list item is a paragraph of its own."""
    current: list[tuple[int, str, str]] = []
    last = 0
    for number, line, masked in prose_lines(text):
        stripped = masked.strip()
        breaks = (
            number != last + 1  # a fence in between
            or not stripped
            or is_heading(line)
            or _TABLE_ROW.match(line)
            or ADMONITION.match(line)
            or line.lstrip().startswith("===")
            or not stripped.strip(HIDDEN)  # only a comment
            or _LIST_ITEM.match(line)
        )
        if breaks and current:
            yield Paragraph(current[0][0], tuple(current))
            current = []
        if stripped.strip(HIDDEN) and not (is_heading(line) or _TABLE_ROW.match(line) or ADMONITION.match(line)):
            if not line.lstrip().startswith("==="):
                current.append((number, line, masked))
        last = number
    if current:
        yield Paragraph(current[0][0], tuple(current))
