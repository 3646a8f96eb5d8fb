"""Page-level rules of the prose lint: admonition titles, headings, emphasis, link texts and paragraph length.

Run by scripts/prose_lint.py, on the lines ``prose_text.prose_lines`` gives (code masked).

* ``prose/admonition-title`` (both): an admonition's title is one of the fixed set — 说明 / 注意 / 须知 / 版本说明
  on a 中文 page, Note / Caution / Important / Version notes on an English one — and the 中文 page and its English
  twin title their admonitions alike, in order (说明 ↔ Note …). An admonition without a title would show the
  theme's English default (“Info”) on a 中文 page.
* ``prose/question-heading`` (both): a heading is a statement, not a question (“为什么…？”, “…吗”, “Why …?”).
* ``prose/bold`` (both): bold marks what the reader must not miss, inside a 注意 / 须知 (Caution / Important)
  admonition; elsewhere it goes.
* ``prose/link-text`` (both): a link's text says where it goes: not 文档, 下文, 这里, 表格, here, the table.
* ``prose/link-lines`` (both): a link text that names lines (``#L120-L200``, ``a.py:12-20``) names the lines its
  address goes to.
* ``prose/paragraph-length`` (中文): a paragraph (or list item) of more than 300 characters, spaces left out.
* ``prose/list-indent`` (both): a paragraph that continues a list item after a blank line, indented by fewer than
  four spaces past the item's marker column: Python-Markdown (the site's renderer) ends the list there, so the
  paragraph and the items after it render as loose text with a literal “5.” in it (CommonMark, which the checker
  reads with, would keep it: only the rendered page shows the break).
* ``prose/faq-parts`` (both): an FAQ entry — a section whose text has a line opening with 问题现象： / Symptom: —
  has the four parts of docs/contributing.md's template, each opening a line, in order: 问题现象： 原因分析： 处理方法：
  结果验证： on a 中文 page, Symptom: Cause: What to do: To confirm: on an English one; the cause alone may be left
  out when it is not known. A label of the other
  wordings (解决方法：, Solution:, Verification:, Check: …) is named as such, so a reader of any entry finds the
  same four labels.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from prose_text import (
    ADMONITION,
    HEADING,
    HIDDEN,
    LINK,
    MASK,
    Finding,
    language,
    paragraphs,
    prose_lines,
)

TITLES = {"说明": "Note", "注意": "Caution", "须知": "Important", "版本说明": "Version notes"}
_WARNING_TITLES = {"注意", "须知", "Caution", "Important"}


def _titles(text: str) -> list[tuple[int, str | None]]:
    return [
        (number, m.group("title"))
        for number, line, _ in prose_lines(text)
        if (m := ADMONITION.match(line)) and not line.lstrip().startswith("===")
    ]


def admonition_title_findings(path: Path, text: str, twin: str | None = None) -> list[Finding]:
    """``twin``: the text of the other language's page, to compare titles in order (given for the 中文 page)."""
    order = list(TITLES) if language(path) == "zh" else list(TITLES.values())
    allowed = set(order)
    shown = " / ".join(order)
    out = []
    for number, title in _titles(text):
        if title == "":
            continue  # an explicit empty title: no title bar
        if title is None or title not in allowed:
            said = f"“{title}”" if title is not None else "no title (the theme shows its English default)"
            message = f"admonition titled {said}: use one of {shown}"
            out.append(Finding(path, number, 1, "prose/admonition-title", message))
    if twin is not None and language(path) == "zh":
        ours, theirs = _titles(text), _titles(twin)
        for (number, zh), (_, en) in zip(ours, theirs, strict=False):
            if zh in TITLES and en in TITLES.values() and TITLES[zh] != en:
                message = f"admonition titled “{zh}” here and “{en}” on the English page: “{zh}” is “{TITLES[zh]}”"
                out.append(Finding(path, number, 1, "prose/admonition-title", message))
    return out


_QUESTION_ZH = re.compile(r"[?？]\s*$|[吗呢]\s*$|为什么|怎么办|怎么|怎样|什么时候|能否|可否")
_QUESTION_EN = re.compile(r"\?\s*$")


def question_heading_findings(path: Path, text: str) -> list[Finding]:
    pattern = _QUESTION_ZH if language(path) == "zh" else _QUESTION_EN
    out = []
    for number, line, _ in prose_lines(text):
        m = HEADING.match(line)
        if m and pattern.search(m.group(2)):
            message = f"heading “{m.group(2)[:40]}” is a question: state what the section gives"
            out.append(Finding(path, number, 1, "prose/question-heading", message))
    return out


def _in_admonition(text: str) -> Iterator[tuple[int, str, str, str | None]]:
    """Each prose line with the title of the admonition it stands in (None outside one)."""
    stack: list[tuple[int, str | None]] = []  # (indent of the opener, title)
    for number, line, masked in prose_lines(text):
        indent = len(line) - len(line.lstrip(" "))
        if line.strip():
            while stack and indent <= stack[-1][0]:
                stack.pop()
        m = ADMONITION.match(line)
        if m:
            stack.append((len(m.group("indent")), m.group("title")))
            continue
        yield number, line, masked, stack[-1][1] if stack else None


_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*|(?<!\w)__(?=\S)(.+?)(?<=\S)__(?!\w)")


def bold_findings(path: Path, text: str) -> list[Finding]:
    out = []
    for number, _, masked, title in _in_admonition(text):
        if title in _WARNING_TITLES:
            continue
        for m in _BOLD.finditer(masked):
            said = (m.group(1) or m.group(2) or "").replace(MASK, "…")
            where = "注意 / 须知" if language(path) == "zh" else "Caution / Important"
            message = f"bold “{said[:30]}”: bold is kept for warnings inside a {where} admonition"
            out.append(Finding(path, number, m.start() + 1, "prose/bold", message))
    return out


GENERIC_LINK_TEXTS = {
    "zh": {"文档", "下文", "上文", "这里", "此处", "这儿", "链接", "表格", "详情", "更多", "本页", "本文",
           "点击这里", "点此", "该文档", "原文", "该页", "设计文档", "其仓库", "仓库", "说明"},
    "en": {"here", "this", "link", "this link", "docs", "documentation", "the docs", "below", "above", "this page",
           "more", "details", "read more", "click here", "table", "the table", "design notes", "its repository",
           "repository", "the repository", "page"},
}  # fmt: skip


def link_text_findings(path: Path, text: str) -> list[Finding]:
    generic = GENERIC_LINK_TEXTS[language(path)]
    out = []
    for number, line, _ in prose_lines(text):
        for m in LINK.finditer(line):
            said = m.group("text").strip()
            if said.lower() in generic:
                message = f"link text “{said}” does not say where it goes: name the page, section or file"
                out.append(Finding(path, number, m.start() + 1, "prose/link-text", message))
    return out


_TEXT_LINES = re.compile(r"#L(\d+)(?:-L?(\d+))?\s*$|\.\w+:(\d+)(?:-(\d+))?\s*$")
_TARGET_LINES = re.compile(r"#L(\d+)(?:-L(\d+))?$")


def link_line_findings(path: Path, text: str) -> list[Finding]:
    out = []
    for number, line, _ in prose_lines(text):
        for m in LINK.finditer(line):
            said = m.group("text").replace("`", "")
            named = _TEXT_LINES.search(said)
            if named is None:
                continue
            first, last = (named.group(1), named.group(2)) if named.group(1) else (named.group(3), named.group(4))
            target = _TARGET_LINES.search(m.group("target"))
            goes = (target.group(1), target.group(2) or target.group(1)) if target else None
            if goes != (first, last or first):
                where = f"#L{goes[0]}-L{goes[1]}" if goes else "the whole file"
                message = f"link text names lines {first}{'-' + last if last else ''}, its address goes to {where}"
                out.append(Finding(path, number, m.start() + 1, "prose/link-lines", message))
    return out


MAX_PARAGRAPH = 300  # characters, spaces left out
_MARKUP = re.compile(r"[*`\[\]]|^\s*(?:[-*+]|\d+[.)])\s+|^\s*>\s?")


def paragraph_length_findings(path: Path, text: str) -> list[Finding]:
    if language(path) != "zh":
        return []
    out = []
    for para in paragraphs(text):
        visible = ""
        for _, line, masked in para.lines:
            kept = "".join(ch if m != HIDDEN else "" for ch, m in zip(line, masked, strict=True))
            kept = re.sub(r"</?[A-Za-z][^<>]*>", "", kept)
            visible += _MARKUP.sub("", kept)
        size = len(re.sub(r"\s+", "", visible))
        if size > MAX_PARAGRAPH:
            message = f"a paragraph of {size} characters (more than {MAX_PARAGRAPH}): split it, or make it a list"
            out.append(Finding(path, para.line, 1, "prose/paragraph-length", message))
    return out


_ITEM = re.compile(r"^( *)(?:[-*+]|\d+[.)]) +\S")
_FENCE = re.compile(r"^ *(```|~~~)")


def list_indent_findings(path: Path, text: str) -> list[Finding]:
    out = []
    item: int | None = None  # the indent of the list item the lines belong to
    blank = False
    fence = False
    for number, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line):
            fence = not fence
            blank = False
            continue
        if fence:
            continue
        if not line.strip():
            blank = True
            continue
        indent = len(line) - len(line.lstrip(" "))
        m = _ITEM.match(line)
        if m:
            item, blank = len(m.group(1)), False
            continue
        if item is not None and blank:
            if indent <= item:
                item = None  # the list is over: text at the item's own column
            elif indent < item + 4:
                message = (
                    f"a list item's paragraph indented {indent - item} space(s) past the item: the site's renderer "
                    "needs 4, or the list ends here"
                )
                out.append(Finding(path, number, indent + 1, "prose/list-indent", message))
        blank = False
    return out


FAQ_PARTS = {
    "zh": ("问题现象：", "原因分析：", "处理方法：", "结果验证："),
    "en": ("Symptom:", "Cause:", "What to do:", "To confirm:"),
}
# other wordings of the same parts, which a writer reaches for (the template's old English words among them)
_FAQ_OTHER = {
    "zh": ("现象：", "原因：", "解决方法：", "解决方案：", "处理步骤：", "验证：", "验证方法："),
    "en": ("Solution:", "Fix:", "Verification:", "Check:", "Verify:", "Expected:"),
}


def _sections(text: str) -> Iterator[tuple[int, list[tuple[int, str]]]]:
    """(heading line, [(line number, line) …]) for each part of a page under a heading, code left out."""
    start, lines = 0, []
    for number, line, _ in prose_lines(text):
        if HEADING.match(line):
            yield start, lines
            start, lines = number, []
        else:
            lines.append((number, line))
    yield start, lines


def faq_parts_findings(path: Path, text: str) -> list[Finding]:
    lang = language(path)
    parts, other = FAQ_PARTS[lang], _FAQ_OTHER[lang]
    out = []
    for heading, lines in _sections(text):
        opened = [(number, line.strip()) for number, line in lines]
        if not any(line.startswith(parts[0]) for _, line in opened):
            continue
        for number, line in opened:
            for word in other:
                if line.startswith(word):
                    message = f"{word} opens a part of an FAQ entry: the template's label is one of {' '.join(parts)}"
                    out.append(Finding(path, number, 1, "prose/faq-parts", message))
        seen = [label for _, line in opened for label in parts if line.startswith(label)]
        # the cause may be left out when it is not known (the entry says so): an empty 原因分析 helps no one
        if seen not in (list(parts), [parts[0], *parts[2:]]):
            message = (
                f"the FAQ entry under this heading has {' '.join(seen) or 'no labels'}: the template is "
                f"{' '.join(parts)}, each once, in that order ({parts[1]} may be left out when the cause is unknown)"
            )
            out.append(Finding(path, heading, 1, "prose/faq-parts", message))
    return out
