"""Python-Markdown extension: a line break inside Chinese text renders as nothing, not as a space.

Markdown keeps a soft line break (a newline inside a paragraph) as a newline in the HTML, and a browser
shows it as a space. Between two English words that space is right; between two Chinese characters it is
a stray gap ("权重后，␠如何"). Writers wrap long Chinese lines in the sources (the pages are reviewed as
diffs), so the fix belongs in rendering, not in the sources.

This tree processor runs after the inline patterns (so ``**粗体**`` and links are elements by then) and
removes a whitespace run that holds a newline when the characters on both sides are CJK: ideographs,
kana, CJK and full-width punctuation; curly quotes count on one side only, so an English
"‘a’⏎“b”" keeps its space. After closing full-width punctuation (。，、：；！？） and 」』】) a break goes whatever
follows, a Latin word or a code span included: the punctuation carries its own spacing. Other Latin↔Latin and
Latin↔CJK breaks stay spaces (AutoCorrect asks for a
space between CJK and Latin anyway). A break across an inline element (``中文⏎**粗体**``) is joined too:
the text of a paragraph is read as one flow. Code spans, code blocks and raw HTML are never changed and
count as non-CJK, so a break next to them stays a space; an HTML comment (a page's ``<!-- check: … -->``
declaration) is invisible, so "检查过。<!-- … -->⏎检查是" joins across it.

Listed in mkdocs.yml's ``markdown_extensions`` (``verl_cookbook.cjk_line_breaks``): it runs wherever
Python-Markdown renders the pages (MkDocs, and Zensical, which runs extensions but no mkdocs hooks).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from markdown import Extension, Markdown
from markdown.treeprocessors import Treeprocessor

# ideographs, radicals, CJK symbols and punctuation, kana, bopomofo, compatibility ideographs, vertical and
# full-width forms
_STRICT = (
    "\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u3400-\u4dbf"
    "\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
)
_QUOTES = "\u2018\u2019\u201c\u201d"  # ‘ ’ “ ” : CJK only next to a CJK character
_STRICT_RE = re.compile(f"[{_STRICT}]")
_ANY_RE = re.compile(f"[{_STRICT}{_QUOTES}]")
# a whitespace run with at least one newline, between two non-space characters
_BREAK = re.compile(r"(?<=\S)[ \t]*\n[ \t\n]*(?=\S)")

# elements whose text is not prose: kept as they are and read as one non-CJK character
_OPAQUE = {"code", "pre", "script", "style", "kbd", "samp", "math", "svg"}
# inline elements: their text flows with the text around them
_INLINE = {"a", "abbr", "b", "cite", "del", "dfn", "em", "i", "ins", "mark", "q", "s", "small", "span", "strong"}
_INLINE |= {"sub", "sup", "u", "br", "img", "wbr"}
_BOUNDARY = "\x00"  # stands for an opaque element or a block edge in the flow


# full-width punctuation that ends a clause or closes a bracket: it carries its own spacing, so a break after it
# renders as nothing whatever follows (a Latin word, a code span): "见下文。⏎`verl`" must not read "。 `verl`"
_CLOSING = "\u3001\u3002\uff0c\uff1a\uff1b\uff01\uff1f\uff09\u300d\u300f\u3011"


def joins(left: str, right: str) -> bool:
    """Whether ``left`` and ``right`` are both CJK, so that whitespace between them shows as a gap (the prose lint's
    question too)."""
    if not (_ANY_RE.fullmatch(left) and _ANY_RE.fullmatch(right)):
        return False
    return bool(_STRICT_RE.fullmatch(left) or _STRICT_RE.fullmatch(right))


def break_joins(left: str, right: str) -> bool:
    """Whether a line break between the characters ``left`` and ``right`` renders as nothing: between two CJK
    characters, and after closing full-width punctuation whatever follows."""
    return left in _CLOSING or joins(left, right)


def join_breaks(text: str, invisible: frozenset[str] = frozenset()) -> str:
    """``text`` with every line break between two CJK characters removed (see :func:`joins`); the strings in
    ``invisible`` (placeholders of HTML comments) are looked through when finding a break's left neighbour."""
    return "".join(text[a:b] for a, b in _kept(text, _deletions(text, invisible)))


def _left(text: str, end: int, invisible: frozenset[str]) -> str:
    """The character before ``end``, looking through the ``invisible`` strings that end there."""
    while end > 0:
        hidden = next((s for s in invisible if text.endswith(s, 0, end)), None)
        if hidden is None:
            return text[end - 1]
        end -= len(hidden)
    return ""


def _deletions(text: str, invisible: frozenset[str] = frozenset()) -> list[tuple[int, int]]:
    return [m.span() for m in _BREAK.finditer(text) if break_joins(_left(text, m.start(), invisible), text[m.end()])]


def _kept(text: str, deletions: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out, pos = [], 0
    for a, b in deletions:
        out.append((pos, a))
        pos = b
    out.append((pos, len(text)))
    return out


@dataclass
class _Piece:
    element: ET.Element | None  # None: a boundary, not written back
    attr: str  # "text" or "tail"
    start: int
    end: int


def _flow(element: ET.Element, pieces: list[_Piece], parts: list[str], pos: int, invisible: frozenset[str]) -> int:
    """Append ``element``'s text and its children's (with their tails) to the flow; returns the new offset."""

    def add(el: ET.Element | None, attr: str, value: str) -> None:
        nonlocal pos
        parts.append(value)
        pieces.append(_Piece(el, attr, pos, pos + len(value)))
        pos += len(value)

    if element.text:
        add(element, "text", element.text)
    for child in element:
        tag = child.tag if isinstance(child.tag, str) else ""
        if tag in _OPAQUE:
            add(None, "", _BOUNDARY)
        elif tag in _INLINE:
            pos = _flow(child, pieces, parts, pos, invisible)
        else:  # a block (or a comment): its inside is a flow of its own, its edges break this one
            add(None, "", _BOUNDARY)
            join_tree(child, invisible)
            add(None, "", _BOUNDARY)
        if child.tail:
            add(child, "tail", child.tail)
    return pos


def join_tree(element: ET.Element, invisible: frozenset[str] = frozenset()) -> None:
    """Remove the CJK line breaks in ``element``'s text flow and in every block inside it, in place."""
    if (element.tag if isinstance(element.tag, str) else "") in _OPAQUE:
        return
    pieces: list[_Piece] = []
    parts: list[str] = []
    _flow(element, pieces, parts, 0, invisible)
    text = "".join(parts)
    deletions = _deletions(text, invisible)
    if not deletions:
        return
    for piece in pieces:
        if piece.element is None:
            continue
        inside = [(max(a, piece.start), min(b, piece.end)) for a, b in deletions if a < piece.end and b > piece.start]
        if not inside:
            continue
        value = text[piece.start : piece.end]
        shifted = [(a - piece.start, b - piece.start) for a, b in inside]
        setattr(piece.element, piece.attr, "".join(value[a:b] for a, b in _kept(value, shifted)))


class _CjkLineBreaks(Treeprocessor):
    def run(self, root: ET.Element) -> None:
        stash = self.md.htmlStash
        comments = frozenset(
            stash.get_placeholder(i)
            for i, block in enumerate(stash.rawHtmlBlocks)
            if isinstance(block, str) and block.lstrip().startswith("<!--") and block.rstrip().endswith("-->")
        )
        join_tree(root, comments)


class CjkLineBreaksExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown's API
        # after "inline" (20): emphasis and links are elements; before "prettify" (10) adds its newlines
        md.treeprocessors.register(_CjkLineBreaks(md), "verl_cookbook_cjk_line_breaks", 15)


def makeExtension(**kwargs) -> CjkLineBreaksExtension:  # noqa: N802 - Python-Markdown's entry point
    return CjkLineBreaksExtension(**kwargs)
