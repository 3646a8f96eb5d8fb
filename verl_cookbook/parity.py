"""Translation parity: a 中文 page (``x.md``) and its English twin (``x.en.md``) have the same structure.

Only prose is translated. Both pages must have the same headings (level and explicit ``{ #anchor }``),
the same code blocks in the same order (language, check attributes, included snippet files), the same
keys in their parameter tables, the same admonition kinds in the same order, the same check
declarations, and the same run markers and ※ marks in the same order (so both bind the same statements the same
way). Every function here is pure over Markdown text, so each rule is tested on small fixtures.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from verl_cookbook.checks.param_table import default_column
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import (
    MarkdownError,
    Page,
    Table,
    code_spans,
    parse_page,
    read_text,
    text_tokens,
)
from verl_cookbook.rules import Rule
from verl_cookbook.rules.claims import (
    PARITY_ADMONITIONS,
    PARITY_BLOCKS,
    PARITY_CLAIMS,
    PARITY_HEADING_ANCHOR,
    PARITY_HEADINGS,
    PARITY_MARKS,
    PARITY_MISSING_TWIN,
    PARITY_SNIPPET_VARIANT,
    PARITY_TABLES,
)
from verl_cookbook.statements import MARK, RUN

EN_SUFFIX = ".en.md"
# Attributes that carry prose (translated) rather than a check: they may differ between the languages.
PROSE_ATTRS = frozenset({"title", "reason"})
_ANCHOR = re.compile(r"\{[^}]*#([A-Za-z0-9_.:-]+)[^}]*\}\s*$")
_ADMONITION = re.compile(r"^\s*(?:!!!|\?\?\?\+?)\s+([A-Za-z][\w-]*)")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})(.*)$")


@dataclass(frozen=True)
class Heading:
    line: int
    level: int
    anchor: str | None  # the explicit ``{ #anchor }``; None when the heading has none
    text: str

    def sig(self) -> tuple:
        return (self.level, self.anchor)

    def show(self) -> str:
        return f"{'#' * self.level} … {{ #{self.anchor} }}" if self.anchor else f"{'#' * self.level} {self.text}"


@dataclass(frozen=True)
class Block:
    line: int
    lang: str
    attrs: tuple[tuple[str, str], ...]  # check attributes, prose attributes left out
    includes: tuple[str, ...]

    def sig(self) -> tuple:
        return (self.lang, self.attrs, self.includes)

    def show(self) -> str:
        attrs = " ".join(f'{k}="{v}"' for k, v in self.attrs)
        inc = f" including {', '.join(self.includes)}" if self.includes else ""
        return f"```{self.lang or '(no language)'} {{{attrs}}}{inc}"


@dataclass(frozen=True)
class ParamTable:
    line: int
    keys: tuple[str, ...]

    def sig(self) -> tuple:
        return self.keys

    def show(self) -> str:
        return f"table with rows {', '.join(self.keys) or '(none)'}"


@dataclass(frozen=True)
class Admonition:
    line: int
    kind: str

    def sig(self) -> str:
        return self.kind

    def show(self) -> str:
        return f"!!! {self.kind}"


@dataclass(frozen=True)
class Claim:
    line: int
    kind: str
    attrs: tuple[tuple[str, str], ...]

    def sig(self) -> tuple:
        return (self.kind, self.attrs)

    def show(self) -> str:
        attrs = " ".join(f'{k}="{v}"' for k, v in self.attrs)
        return f"<!-- check: {self.kind} {attrs} -->"


@dataclass(frozen=True)
class Mark:
    """A ``<!-- run: FILE::TEST -->`` marker (``name`` is its test) or a ※ mark (``name`` is ``※``)."""

    line: int
    name: str

    def sig(self) -> str:
        return self.name

    def show(self) -> str:
        return "※ mark" if self.name == "※" else f"<!-- run: {self.name} -->"


@dataclass(frozen=True)
class Structure:
    """What must be identical between a page and its twin, each item with its line on its own page."""

    path: str
    headings: tuple[Heading, ...]
    blocks: tuple[Block, ...]
    tables: tuple[ParamTable, ...]
    admonitions: tuple[Admonition, ...]
    claims: tuple[Claim, ...]
    marks: tuple[Mark, ...] = ()


def twin_path(page: Path) -> Path:
    """Return the path of a page's twin in the other language.

    Args:
        page: a page, ``x.md`` (中文) or ``x.en.md`` (English).

    Returns:
        ``x.en.md`` for ``x.md``, and ``x.md`` for ``x.en.md``.
    """
    name = page.name
    if name.endswith(EN_SUFFIX):
        return page.with_name(name[: -len(EN_SUFFIX)] + ".md")
    return page.with_name(name[: -len(".md")] + EN_SUFFIX)


def headings(text: str) -> list[Heading]:
    """ATX and setext headings outside code blocks, with their explicit anchors."""
    _flat, tokens = text_tokens(text)  # a heading's raw text is enough
    out = []
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and tok.map:
            content = tokens[i + 1].content if i + 1 < len(tokens) else ""
            m = _ANCHOR.search(content)
            title = _ANCHOR.sub("", content).strip()
            out.append(Heading(tok.map[0] + 1, int(tok.tag[1]), m.group(1) if m else None, title))
    return out


def admonitions(text: str) -> list[Admonition]:
    """``!!! kind`` / ``??? kind`` / ``???+ kind`` markers outside code blocks, nested ones included."""
    out = []
    fence: tuple[str, int] | None = None
    for n, line in enumerate(text.splitlines(), 1):
        fm = _FENCE.match(line)
        if fence is not None:
            if fm and fm.group(1)[0] == fence[0] and len(fm.group(1)) >= fence[1] and not fm.group(2).strip():
                fence = None
            continue
        if fm:
            fence = (fm.group(1)[0], len(fm.group(1)))
            continue
        m = _ADMONITION.match(line)
        if m:
            out.append(Admonition(n, m.group(1).lower()))
    return out


def marks(text: str) -> list[Mark]:
    """Run markers and ※ marks outside code blocks, in order: both languages bind the same statements the same way."""
    out = []
    fence: tuple[str, int] | None = None
    for n, line in enumerate(text.splitlines(), 1):
        fm = _FENCE.match(line)
        if fence is not None:
            if fm and fm.group(1)[0] == fence[0] and len(fm.group(1)) >= fence[1] and not fm.group(2).strip():
                fence = None
            continue
        if fm:
            fence = (fm.group(1)[0], len(fm.group(1)))
            continue
        found = [(m.start(), m.group(1)) for m in RUN.finditer(line)] + [(m.start(), "※") for m in MARK.finditer(line)]
        out += [Mark(n, name) for _, name in sorted(found)]
    return out


def _table_keys(table: Table) -> tuple[str, ...]:
    keys = []
    for _, cells in table.rows:
        first = cells[0] if cells else ""
        spans = code_spans(first)
        keys.append(spans[0] if spans else first.strip())
    return tuple(keys)


def is_param_table(table: Table) -> bool:
    """A table that states parameters: declared ``params`` or carrying a default column."""
    if table.directive is not None and table.directive.kind == "params":
        return True
    return default_column(table) is not None


def structure(path: Path, root: Path, text: str | None = None, shown_from: Path | None = None) -> Structure:
    """The parity-relevant structure of one page (``root``: where its snippet includes resolve; ``shown_from``:
    what its path is shown relative to, ``root`` by default)."""
    if text is None:
        text = read_text(path)
    return structure_of(parse_page(path, shown_from or root, bases=[root], text=text), text)


def structure_of(page: Page, text: str) -> Structure:
    """The parity-relevant structure of a page already read (``text``: its Markdown)."""
    blocks = tuple(
        Block(
            b.line,
            b.lang,
            tuple(sorted((k, v) for k, v in b.attrs.items() if k not in PROSE_ATTRS)),
            tuple(b.includes) + tuple(t for t, _ in b.missing_includes),
        )
        for b in page.blocks
    )
    tables = tuple(ParamTable(t.line, _table_keys(t)) for t in page.tables if is_param_table(t))
    claims = tuple(
        Claim(d.line, d.kind, tuple(sorted((k, v) for k, v in d.attrs.items() if k not in PROSE_ATTRS)))
        for d in page.directives
    )
    return Structure(
        page.path, tuple(headings(text)), blocks, tables, tuple(admonitions(text)), claims, tuple(marks(text))
    )


def _compare_seq(
    rule: Rule, zh: Structure, en: Structure, a: Sequence, b: Sequence, sig: Callable = lambda x: x.sig()
) -> list[Finding]:
    """One finding at the first place the two sequences part, naming both pages and lines."""
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if sig(x) != sig(y):
            return [
                rule.at(zh.path, x.line, 1, index=i + 1, here=x.show(), twin=en.path, twin_line=y.line, there=y.show())
            ]
    if len(a) != len(b):
        longer, other, extra = (zh, en, a[len(b)]) if len(a) > len(b) else (en, zh, b[len(a)])
        return [
            rule.at(
                zh.path,
                extra.line if longer is zh else (a[-1].line if a else 1),
                1,
                case="count",
                count=len(a),
                twin_count=len(b),
                twin=en.path,
                extra_path=longer.path,
                extra_line=extra.line,
                extra=extra.show(),
                other=other.path,
            )
        ]
    return []


_ZH_VARIANT = re.compile(r"\.zh(\.[A-Za-z0-9]+)$")


def base_of(include: str) -> str:
    """The snippet a 中文 variant stands for: ``x.zh.sh`` → ``x.sh`` (its comments translated, its code the same)."""
    return _ZH_VARIANT.sub(r"\1", include)


def _block_sig(b: Block) -> tuple:
    return (b.lang, b.attrs, tuple(base_of(i) for i in b.includes))


def _without_comment(line: str) -> str:
    """``line`` up to its ``#`` comment: a ``#`` at the start or after whitespace, outside quotes (shell and YAML
    alike: ``$#`` and ``a#b`` are code, ``x: 1 # note`` and ``echo "a # b"`` keep what is code)."""
    single = double = False
    prev = " "
    for i, ch in enumerate(line):
        if ch == "'" and not double:
            single = not single
        elif ch == '"' and not single:
            double = not double
        elif ch == "#" and not single and not double and prev.isspace():
            return line[:i].rstrip()
        prev = ch
    return line.rstrip()


def code_lines(text: str) -> list[str]:
    """What a ``#``-comment snippet runs: its lines without their comments, blank lines left out."""
    return [code for code in map(_without_comment, text.splitlines()) if code.strip()]


def variant_findings(zh: Structure, root: Path) -> list[Finding]:
    """A 中文 variant (``x.zh.sh``) must run exactly what its snippet runs: only the comments may differ, so whatever
    holds the snippet (its checks, its install run, the tests that run it) holds the variant too."""
    out = []
    for b in zh.blocks:
        for inc in b.includes:
            base = base_of(inc)
            if base == inc:
                continue
            if not (root / base).is_file():
                out.append(PARITY_SNIPPET_VARIANT.at(zh.path, b.line, 1, case="missing-base", variant=inc, base=base))
                continue
            mine = code_lines((root / inc).read_text(encoding="utf-8"))
            theirs = code_lines((root / base).read_text(encoding="utf-8"))
            if mine != theirs:
                at = next((i for i, (x, y) in enumerate(zip(mine, theirs, strict=False)) if x != y), None)
                at = min(len(mine), len(theirs)) if at is None else at
                said = mine[at] if at < len(mine) else "(nothing)"
                wanted = theirs[at] if at < len(theirs) else "(nothing)"
                out.append(
                    PARITY_SNIPPET_VARIANT.at(zh.path, b.line, 1, variant=inc, said=said, base=base, wanted=wanted)
                )
    return out


def compare(zh: Structure, en: Structure) -> list[Finding]:
    """Every way the English twin's structure differs from the 中文 page's (one finding per rule at most)."""
    out: list[Finding] = []
    for s in (zh, en):
        for h in s.headings:
            if h.anchor is None:
                out.append(PARITY_HEADING_ANCHOR.at(s.path, h.line, 1, heading=h.show()))
    out += _compare_seq(PARITY_HEADINGS, zh, en, zh.headings, en.headings)
    out += _compare_seq(PARITY_BLOCKS, zh, en, zh.blocks, en.blocks, sig=_block_sig)
    out += _compare_seq(PARITY_TABLES, zh, en, zh.tables, en.tables)
    out += _compare_seq(PARITY_ADMONITIONS, zh, en, zh.admonitions, en.admonitions)
    out += _compare_seq(PARITY_CLAIMS, zh, en, zh.claims, en.claims)
    out += _compare_seq(PARITY_MARKS, zh, en, zh.marks, en.marks)
    return out


def pages(docs: Path) -> list[Path]:
    return sorted(p for p in docs.rglob("*.md") if p.is_file())


def page_findings(
    page: Page, file: Path, root: Path, shown_from: Path | None = None
) -> tuple[list[Finding], list[Path]]:
    """The parity findings of one page of a bilingual site, and the files they depend on (the twin, the snippets its
    中文 variants stand for): a page without its twin, and, from the 中文 side, every way the English twin's
    structure differs and every 中文 variant that runs other code. ``page`` is ``file`` as read, its path shown from
    ``shown_from`` (the working folder by default); ``root`` is where includes resolve."""
    twin = twin_path(file)
    if not twin.is_file():
        case = "zh" if file.name.endswith(EN_SUFFIX) else ""
        shown_twin = str(Path(page.path).with_name(twin.name))
        return [PARITY_MISSING_TWIN.at(page.path, 1, 1, case=case, twin=shown_twin)], [twin]
    if file.name.endswith(EN_SUFFIX):
        return [], [twin]  # compared from its 中文 side
    zh = structure_of(page, page.text)
    bases = [root / base_of(inc) for b in zh.blocks for inc in b.includes if base_of(inc) != inc]
    try:
        theirs = structure(twin, root, shown_from=shown_from or Path.cwd())
    except MarkdownError:
        return variant_findings(zh, root), [twin, *bases]  # the twin gets its own finding when it is checked
    return compare(zh, theirs) + variant_findings(zh, root), [twin, *bases]


def check_docs(docs: str | os.PathLike[str], root: str | os.PathLike[str] | None = None) -> list[Finding]:
    """Check that every 中文 page under ``docs`` and its English twin have the same structure.

    Args:
        docs: the folder of the site's pages.
        root: the site root, against which paths in the findings are shown; ``None`` for the parent of ``docs``.

    Returns:
        The parity findings, sorted by file and line; an empty list when every pair matches.
    """
    docs = Path(docs)
    root = Path(root) if root is not None else docs.parent
    out: list[Finding] = []
    for file in pages(docs):
        try:
            page = parse_page(file, root, bases=[root])
        except MarkdownError as e:
            out.append(e.rule.at(_shown(file, root), e.line, 1, **e.data))
            continue
        out += page_findings(page, file, root, shown_from=root)[0]
    return sorted(out, key=Finding.sort_key)


def _shown(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)
