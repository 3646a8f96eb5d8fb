"""Python-Markdown extension for the site: verl citations as light links, one "checked against" line a page.

Listed in mkdocs.yml's ``markdown_extensions`` (``verl_cookbook.site_markdown``), so it runs wherever
Python-Markdown renders the pages (MkDocs, and Zensical, which runs extensions but no mkdocs hooks).
Pages keep the citation syntax the checker reads (``verl_cookbook.checks.citations.find_citations``, the
one reader of it); only the HTML changes:

* a citation in brackets, ``(`verl/checkpoint_engine/base.py:136-150`)`` or ``（`base.py:94`、`:99`）``, or
  one that ends a clause after a comma (``…metadata, `verl/checkpoint_engine/base.py:136-150`;``), becomes a
  numbered superscript, ``[3]`` (the file and lines in its tooltip), linked to those lines; the page ends with a
  "参考" / "Sources" list of its numbered citations, each with its path and lines. A sentence reads as prose,
  the evidence is one click or one hover away (a senior Ascend editor's first objection was file:line in the body);
* a citation in running text, ``see `verl/checkpoint_engine/base.py:136-150` for``, becomes a plain link
  with the cited name (the sentence needs the name); a file named without lines keeps its code look, linked;
* each link goes to that line range of verl's source on GitHub at the tag of the release the page is
  checked against (its ``verl-version`` claim; the pinned release otherwise; a release named before the
  citation, ``(0.9.0 `x.py:3`)``, wins);
* the sentence holding the page's ``verl-version`` claim becomes one line, "Checked against verl X"; the
  ``!!! info`` box it was in stays open with the rest of its text, or goes when that sentence was all it said;
  a page without such a box gets the line under its title. So every page says it once, in one line.

Each ※ mark (``<sup class="unchecked" title="…">※</sup>``) gets the number of its basis, ``※2``, linked to a
"※ 标记说明" / "Notes on ※" list at the page's end that spells each basis out.

Fenced code is left alone (superfences has stashed it when this runs). ``diagram_fence`` is the
superfences format of ``mermaid`` fences: the diagram's pre-rendered SVG (``verl_cookbook.diagrams``).
"""

from __future__ import annotations

import html
import logging
import re
from functools import lru_cache
from pathlib import Path

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

from verl_cookbook.checks.citations import Citation, find_citations, source_url, tag
from verl_cookbook.diagrams import narrow, svg_path
from verl_cookbook.releases import default_release
from verl_cookbook.runner import find_site_root
from verl_cookbook.verl_source import from_release

_VERSION_CLAIM = re.compile(r"<!--\s*check:\s*verl-version\s+version=[\"']([^\"']+)[\"']")
_ADMONITION = re.compile(r"^(?P<indent> *)(?:!!!|\?\?\?\+?)\s+(?P<kind>[\w-]+)(?:\s+\"[^\"]*\")?\s*$")
_H1 = re.compile(r"^# \S")
_OPEN = re.compile(r"( ?\(|（)\s*(?:\d+\.\d+\.\d+\s+)?$")
_CLOSE = re.compile(r"\s*[)）]")  # used with .match(text, pos): no ^
_BETWEEN = re.compile(r"^\s*(?:[,，、;；]|and|和|及)?\s*$")
_COMMA = re.compile(r"\s*[,，]\s*$")  # used with .search(text, lo, hi): a comma right before a citation group
# what may follow a clause-final citation: markers, then the clause's end (not a word: "see `x.py:3` for")
_CLAUSE_END = re.compile(r"(?:\s*<!--.*?-->)*\s*(?:[;；。)）]|\.(?=\s|$)|\n\s*\n|$)", re.S)
_CJK = re.compile(r"[\u4e00-\u9fff]")
_VIEWBOX_WIDTH = re.compile(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ')
# a warning under "mkdocs" fails a strict build
log = logging.getLogger("mkdocs.verl_cookbook.site_markdown")

SOURCES = {"zh": "参考", "en": "Sources"}
NOTICE = {
    "zh": "本页对照 verl {release} 核对 · 源码链接指向 {tag} 标签",
    "en": "Checked against verl {release} · source links point at tag {tag}",
}


@lru_cache(maxsize=8)
def _package(release: str) -> Path:
    return from_release(release).package


def page_language(text: str) -> str:
    """``zh`` when Chinese characters make up a twentieth of the page's letters, else ``en`` (the site's 中文
    pages have 13–50 %, its English pages at most 0.1 %: code and identifiers are ASCII in both)."""
    letters = sum(ch.isalpha() for ch in text) or 1
    return "zh" if len(_CJK.findall(text)) * 20 >= letters else "en"


def page_release(text: str) -> str:
    m = _VERSION_CLAIM.search(text)
    return m.group(1) if m else default_release()


def _text(s: str) -> str:
    """``s`` as HTML text that Markdown's inline syntax leaves alone (``__init__`` is not bold)."""
    return html.escape(s).replace("_", "&#95;").replace("*", "&#42;")


def _label(c: Citation, first_of_file: bool) -> str:
    name = c.path.rsplit("/", 1)[-1] if c.path else c.written
    return f"{name}:{c.lines}" if first_of_file else f":{c.lines}"


def _link(c: Citation, release: str, text: str, cls: str = "verl-cite") -> str:
    word = "lines" if c.last else "line"
    where = (c.path or c.written) + (f", {word} {c.lines}" if c.lines else "")
    title = html.escape(f"verl {c.release or release} · {where}", quote=True)
    return f'<a class="{cls}" href="{html.escape(source_url(c, release))}" title="{title}">{_text(text)}</a>'


def _groups(text: str, cites: list[Citation]) -> list[list[Citation]]:
    out: list[list[Citation]] = []
    for c in cites:
        if out and _BETWEEN.match(text[out[-1][-1].end : c.start]):
            out[-1].append(c)
        else:
            out.append([c])
    return out


class References:
    """A page's numbered citations, in order of first use: one number per file and line range (and release)."""

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}
        self.items: list[tuple[str, str, str]] = []  # (url, written path and lines, release)

    def number(self, c: Citation, release: str) -> int:
        url = source_url(c, release)
        if url not in self.numbers:
            self.numbers[url] = len(self.items) + 1
            where = (c.path or c.written) + (f":{c.lines}" if c.lines else "")
            self.items.append((url, where, c.release or release))
        return self.numbers[url]

    def section(self, language: str) -> list[str]:
        """The page's closing list of sources, as raw HTML lines (empty when the page cites nothing)."""
        if not self.items:
            return []
        rows = [
            f'<li id="verl-source-{n}"><a class="verl-cite" href="{html.escape(url)}">{_text(where)}</a>'
            f' <span class="verl-source-release">verl {html.escape(rel)}</span></li>'
            for n, (url, where, rel) in enumerate(self.items, 1)
        ]
        return [
            "",
            f'<h2 id="verl-sources" class="verl-sources">{SOURCES[language]}</h2>',
            '<ol class="verl-sources">',
            *rows,
            "</ol>",
            "",
        ]


def _sup(group: list[Citation], release: str, refs: References) -> str:
    links = []
    for c in group:
        n = refs.number(c, release)
        # the number alone: a release written into the superscript read as glued to the sentence ("下发0.9.0 [1]");
        # the release is in the link's title and in the sources list
        links.append(_link(c, release, f"[{n}]"))
    return '<sup class="verl-cites">' + "".join(links) + "</sup>"


def link_citations(text: str, release: str, package: Path, refs: References | None = None) -> str:
    """``text`` with each citation in a code span replaced by its link (see the module docstring); the numbered
    ones are added to ``refs``."""
    refs = refs if refs is not None else References()
    cites = [c for c in find_citations(text, package) if c.spanned and c.path]
    pieces: list[str] = []
    pos = 0
    for group in _groups(text, cites):
        lo = max(pos, group[0].start - 20)
        opening = _OPEN.search(text, lo, group[0].start)
        closing = _CLOSE.match(text, group[-1].end)
        if opening and closing:
            pieces += [text[pos : opening.start()].rstrip(), _sup(group, release, refs)]
            pos = closing.end()
            continue
        comma = _COMMA.search(text, lo, group[0].start)
        if comma and all(c.first is not None for c in group) and _CLAUSE_END.match(text, group[-1].end):
            pieces += [text[pos : comma.start()].rstrip(), _sup(group, release, refs)]
            pos = group[-1].end
            continue
        for c in group:
            pieces.append(text[pos : c.start])
            if c.first is None:
                pieces.append(
                    _link(c, release, "", "verl-src").replace("></a>", f"><code>{_text(c.written)}</code></a>")
                )
            else:
                pieces.append(_link(c, release, c.written))
            pos = c.end
    pieces.append(text[pos:])
    return "".join(pieces)


_COMMENT = re.compile(r"<!--.*?-->", re.S)
_MARK = re.compile(r'<sup class="unchecked" title="([^"]*)">※</sup>')
NOTES = {"zh": "※ 标记说明", "en": "Notes on ※"}


def number_marks(text: str) -> tuple[str, list[str]]:
    """Each ※ mark numbered by what it rests on (its title: one number per distinct basis, in order of first use)
    and linked to the page's closing list of those bases: the basis is readable without hovering, on a touch
    screen and in print (zhread10a), while the title stays for the hover."""
    bases: list[str] = []

    def numbered(m: re.Match) -> str:
        if m.group(1) not in bases:
            bases.append(m.group(1))
        n = bases.index(m.group(1)) + 1
        return f'<sup class="unchecked" title="{m.group(1)}"><a href="#unchecked-{n}">※{n}</a></sup>'

    return _MARK.sub(numbered, text), bases


def notes_section(bases: list[str], language: str) -> list[str]:
    """The page's closing list of what its ※ marks rest on, as raw HTML lines (empty when it has none)."""
    if not bases:
        return []
    rows = [f'<li id="unchecked-{n}">※{n} {b}</li>' for n, b in enumerate(bases, 1)]
    return ["", f'<h2 id="unchecked-notes" class="verl-sources">{NOTES[language]}</h2>',
            '<ul class="unchecked-notes">', *rows, "</ul>", ""]  # fmt: skip


def _sentences(masked: str) -> list[str]:
    """A line (comments masked as NUL) cut into sentences; a comment right after a sentence's end belongs to it."""
    out: list[str] = []
    current = ""
    for i, ch in enumerate(masked):
        if ch == "\x00" and not current.strip() and out:
            out[-1] += current + ch
            current = ""
            continue
        current += ch
        follows = masked[i + 1 : i + 2]
        if ch in "。！？" or (ch in ".!?" and (not follows or follows.isspace() or follows == "\x00")):
            out.append(current)
            current = ""
    if current:
        out.append(current)
    return out


_SAYS_CHECKED = re.compile(r"对照|核对|编写|checked|written for|reviewed", re.I)


def without_release_sentence(body: list[str], release: str) -> list[str]:
    """The box's lines without the sentence that says the page is checked against ``release`` (the one nearest
    the ``verl-version`` claim); every comment is kept, unseen, and a box with no such sentence keeps all its text."""
    out = []
    for line in body:
        if _VERSION_CLAIM.search(line) is None:
            out.append(line)
            continue
        comments = _COMMENT.findall(line)
        claim = next(i for i, c in enumerate(comments) if _VERSION_CLAIM.search(c))
        sentences = _sentences(_COMMENT.sub("\x00", line))
        before = [s.count("\x00") for s in sentences]
        holder = next(k for k in range(len(sentences)) if sum(before[: k + 1]) > claim)
        # the sentence the notice replaces says what the page is checked against (or written for), naming the
        # release; a sentence that only mentions it ("reads the pinned verl 0.9.1 by default") stays
        naming = [k for k, s in enumerate(sentences) if release in s and _SAYS_CHECKED.search(s)]
        drop = min(naming, key=lambda k: (abs(k - holder), -k)) if naming else None
        text = "".join("\x00" * s.count("\x00") if k == drop else s for k, s in enumerate(sentences))
        for c in comments:
            text = text.replace("\x00", c, 1)
        indent = line[: len(line) - len(line.lstrip())]
        out.append(indent + text.strip() if text.strip() else "")
    return out


def one_line_notice(lines: list[str], release: str, language: str) -> list[str]:
    """``lines`` with the sentence holding the ``verl-version`` claim replaced by a one-line notice: the box that
    held it stays open with the rest of its text (a reader missed a sentence folded under the notice), or goes when
    the sentence was all it said; a page without such a box gets the notice under its title. Text without a title
    (a docstring rendered by mkdocstrings) gets none."""
    summary = NOTICE[language].format(release=release, tag=tag(release))
    notice = f'<p class="verl-checked">{html.escape(summary)}</p>'
    for i, line in enumerate(lines):
        m = _ADMONITION.match(line)
        if not m:
            continue
        indent = m.group("indent")
        body = []
        for nxt in lines[i + 1 :]:
            if nxt.strip() and not nxt.startswith(indent + "    "):
                break
            body.append(nxt)
        if any(_VERSION_CLAIM.search(b) for b in body):
            rest = without_release_sentence(body, release)
            after = lines[i + 1 + len(body) :]
            if not any(_COMMENT.sub("", b).strip() for b in rest):  # the notice says it all: no box repeating it
                comments = [c for b in body for c in _COMMENT.findall(b)]  # the claim stays in the page, unseen
                return [*lines[:i], indent + notice, "", *comments, *after]
            return [*lines[:i], indent + notice, "", line, *rest, *after]
    for i, line in enumerate(lines):
        if _H1.match(line):
            return [*lines[: i + 1], "", notice, "", *lines[i + 1 :]]
    return lines


class _SitePreprocessor(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        text = "\n".join(lines)
        release = page_release(text)
        language = page_language(text)
        refs = References()
        text, bases = number_marks(link_citations(text, release, _package(release), refs))
        lines = one_line_notice(text.split("\n"), release, language)
        if any(_H1.match(line) for line in lines):  # a page, not a docstring rendered by mkdocstrings
            lines += notes_section(bases, language) + refs.section(language)
        return lines


class SiteExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown's API
        # after superfences (25) has stashed fenced code and pymdownx.snippets (32) has included files,
        # before html_block (20) stashes the page's top-level HTML comments (its verl-version claim)
        md.preprocessors.register(_SitePreprocessor(md), "verl_cookbook_site", 21)


def makeExtension(**kwargs) -> SiteExtension:  # noqa: N802 - Python-Markdown's entry point
    return SiteExtension(**kwargs)


def _site_root() -> Path:
    return find_site_root(Path.cwd())


def _svg(source: str, cls: str) -> str | None:
    path = svg_path(_site_root(), source)
    if path is None or not path.is_file():
        log.warning(
            "a mermaid diagram has no current SVG%s: run `python scripts/render_diagrams.py`",
            f" ({path.name})" if path else "",
        )
        return None
    svg = path.read_text(encoding="utf-8").strip()
    m = _VIEWBOX_WIDTH.search(svg)
    width = f' style="--diagram-width: {float(m.group(1)):.0f}px"' if m else ""
    return f'<div class="{cls}"{width}>{svg}</div>'


def diagram_fence(source: str, language: str, class_name: str, options: dict, md: Markdown, **kwargs) -> str:
    """superfences format for ``mermaid`` fences: the fence's SVG from docs/diagrams/, inline, so the page
    needs no diagram JavaScript; a left-to-right flowchart comes with its top-to-bottom drawing, which
    phones show instead. A fence without a current SVG fails a strict build, saying what to run."""
    wide = _svg(source, "diagram-wide")
    tall_source = narrow(source)
    tall = _svg(tall_source, "diagram-narrow") if tall_source else ""
    if wide is None or tall is None:
        return f'<pre class="diagram-missing"><code>{html.escape(source)}</code></pre>'
    return f'<figure class="diagram{" diagram--two" if tall else ""}">{wide}{tall}</figure>'
