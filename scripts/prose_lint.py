"""Lint the prose of the pages: typography, the glossary's terms, and the notations and register of Ascend's docs.

Usage: python scripts/prose_lint.py [--fix] [PATH ...]      (default: docs/)

Each finding is ``path:line:col: rule: message``; exit 1 when there is one, 0 when none. Code, HTML comments and
tags, attribute lists, link targets and URLs are never prose (``prose_text.prose_lines`` masks them).

Typography (中文 pages), here:

* ``prose/autocorrect``: what AutoCorrect (``autocorrect-py``, configured by ``.autocorrectrc``) changes on a
  中文 page: spaces between CJK and Latin words, numbers and ``code``; full-width punctuation between CJK
  characters; no space beside full-width punctuation. Fenced code is blanked and indented bodies (admonitions,
  tabs, list items) are dedented before AutoCorrect reads a page, so it lints what a reader reads and nothing
  else (it would skip an indented body as code, and lint a fence with an attribute list as text).
* ``prose/ascii-quotes``: a pair of ASCII double quotes in the text of a 中文 page; Chinese text quotes with
  “”, English quotations inside it too. Admonition or tab titles are syntax and left alone.
* ``prose/cjk-space``: a space a reader sees between two Chinese characters (or one and Chinese punctuation)
  on a 中文 page, as in "核对。 文中的" (a line break there renders as nothing: verl_cookbook.cjk_line_breaks).

The glossary's lists (term tables in ``docs/glossary.md`` and its twin; the avoid and register lists, writing rules for
contributors, in ``docs/contributing.md`` and its twin; both read by ``verl_cookbook.glossary``), here:

* ``prose/avoided-term`` and ``prose/register``: a word of the glossary's avoid list (terms: 建组, 通信组 …) or
  register list (colloquial and first-person phrasing: 拉起, 对不上, 我们, 你 …) for the page's language, unless
  the same sentence has that row's exception word (显存 in a sentence about a GPU). Quoted words are mentioned,
  not used, and are left alone.
* ``prose/glossary-twin``: the 中文 glossary and the English one list the same terms with the same forms.
* ``prose/glossary-unused``: a term of the glossary that no page of its language uses (the row is stale).

The terms and notations of Ascend's docs, in ``prose_terms.py``: ``prose/whitelist-switch``,
``prose/product-name``, ``prose/first-use``, ``prose/range``, ``prose/date``, ``prose/reference``,
``prose/doubled-word``; the page's layout, in ``prose_layout.py``: ``prose/admonition-title``,
``prose/question-heading``, ``prose/bold``, ``prose/link-text``, ``prose/link-lines``, ``prose/paragraph-length``,
``prose/list-indent``, ``prose/faq-parts``.
Each module's docstring says what its rules catch.

``--fix`` applies AutoCorrect's changes, turns the ASCII quote pairs into “” and removes the spaces between
Chinese characters; the other rules need a writer.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import prose_layout  # noqa: E402
import prose_terms  # noqa: E402
from prose_text import (  # noqa: E402  (re-exported: the tests and the rule modules read them here too)
    CJK,
    HIDDEN,
    MASK,
    REPO,
    Finding,
    language,
    prose_lines,
    sentence,
    unquoted,
)

from verl_cookbook.cjk_line_breaks import joins  # noqa: E402  (the rule the rendered pages follow)
from verl_cookbook.glossary import Avoided, Glossary, read_glossary  # noqa: E402
from verl_cookbook.markdown import parse_page  # noqa: E402

__all__ = ["HIDDEN", "MASK", "Finding", "language", "prose_lines"]

GLOSSARY = {"zh": REPO / "docs" / "glossary.md", "en": REPO / "docs" / "glossary.en.md"}
# the lists of words to avoid are writing rules for contributors, so they sit on the contributing page, not in the
# reader's glossary; the term tables stay in the glossary
WORD_LISTS = {"zh": REPO / "docs" / "contributing.md", "en": REPO / "docs" / "contributing.en.md"}
CONFIG = REPO / ".autocorrectrc"
_CJK = CJK


# ---- ASCII quotes -------------------------------------------------------------------------------------------


def _quote_pairs(masked: str) -> tuple[list[tuple[int, int]], int | None]:
    """The ASCII double-quote pairs of a masked line (positions of opening and closing), and a lone one."""
    positions = [i for i, ch in enumerate(masked) if ch == '"']
    pairs = list(zip(positions[::2], positions[1::2], strict=False))
    return pairs, positions[-1] if len(positions) % 2 else None


def _in_chinese(masked: str, start: int, end: int) -> bool:
    """Whether the quotes at ``start``..``end`` stand in Chinese text: Chinese inside them, or right outside them."""
    around = masked[max(start - 1, 0) : start] + masked[end + 1 : end + 2]
    return bool(_CJK.search(masked[start : end + 1]) or _CJK.search(around))


def ascii_quote_findings(path: Path, text: str) -> list[Finding]:
    if language(path) != "zh":
        return []
    out = []
    for number, line, masked in prose_lines(text):
        if not _CJK.search(masked):
            continue
        pairs, lone = _quote_pairs(masked)
        for start, end in pairs:
            quoted = line[start : end + 1]
            if not _in_chinese(masked, start, end):  # an English sentence quoting on a 中文 page keeps its quotes
                continue
            out.append(Finding(path, number, start + 1, "prose/ascii-quotes", f"{quoted[:40]}: quote with “” in 中文"))
        if lone is not None and _in_chinese(masked, lone, lone):
            out.append(Finding(path, number, lone + 1, "prose/ascii-quotes", 'a lone ASCII " in 中文 text: use “ or ”'))
    return out


def fix_ascii_quotes(text: str) -> str:
    lines = text.split("\n")
    for number, line, masked in prose_lines(text):
        if not _CJK.search(masked):
            continue
        chars = list(line)
        for start, end in _quote_pairs(masked)[0]:
            if _in_chinese(masked, start, end):
                chars[start], chars[end] = "“", "”"
        lines[number - 1] = "".join(chars)
    return "\n".join(lines)


# ---- spaces between Chinese characters ---------------------------------------------------------------------

# what a reader does not see between two characters: comments, link targets, link brackets, emphasis marks
_INVISIBLE = {HIDDEN, "[", "]", "*"}


def _cjk_spaces(masked: str) -> list[tuple[int, int]]:
    """The spans of whitespace (in ``masked``'s positions) that a reader sees between two CJK characters."""
    seen = [(i, ch) for i, ch in enumerate(masked) if ch not in _INVISIBLE]
    visible = "".join(ch for _, ch in seen)
    out = []
    for m in re.finditer(r"[ \t]+", visible):
        if 0 < m.start() and m.end() < len(visible) and joins(visible[m.start() - 1], visible[m.end()]):
            out.append((seen[m.start()][0], seen[m.end() - 1][0] + 1))
    return out


def cjk_space_findings(path: Path, text: str) -> list[Finding]:
    if language(path) != "zh":
        return []
    return [
        Finding(
            path,
            number,
            start + 1,
            "prose/cjk-space",
            f"a space between Chinese characters: {line[max(0, start - 6) : end + 6].strip()}",
        )
        for number, line, masked in prose_lines(text)
        for start, end in _cjk_spaces(masked)
    ]


def fix_cjk_spaces(text: str) -> str:
    lines = text.split("\n")
    for number, line, masked in prose_lines(text):
        spans = _cjk_spaces(masked)
        for start, end in reversed(spans):
            if "*" in line[start - 1 : end + 1]:  # "**重点。** 下文": joined, the closing ** would not close
                continue
            line = line[:start] + line[end:]
        lines[number - 1] = line
    return "\n".join(lines)


# ---- the glossary's lists ---------------------------------------------------------------------------------------


def read_glossary_text(path: Path, text: str) -> Glossary:
    return read_glossary(parse_page(path, path.parent, text=text))


def load_glossaries() -> dict[str, Glossary]:
    """Each language's term tables (its glossary) with the avoid and register lists of both pages that hold them."""
    out = {}
    for lang, path in GLOSSARY.items():
        terms = read_glossary_text(path, path.read_text(encoding="utf-8"))
        lists = read_glossary_text(WORD_LISTS[lang], WORD_LISTS[lang].read_text(encoding="utf-8"))
        out[lang] = Glossary(terms.terms + lists.terms, terms.avoided + lists.avoided, terms.problems + lists.problems)
    return out


def _list_lines(path: Path, text: str) -> set[int]:
    """The lines of the avoid and register tables of a glossary page: there the words are listed, not used."""
    if path.resolve() not in {p.resolve() for p in (*GLOSSARY.values(), *WORD_LISTS.values())}:
        return set()
    page = parse_page(path, path.parent, text=text)
    return {
        line
        for t in page.tables
        if t.directive is not None and t.directive.kind == "terms" and t.directive.attrs.get("list")
        for line in range(t.line, (t.rows[-1][0] if t.rows else t.line) + 1)
    }


def term_findings(path: Path, text: str, avoided: Iterable[Avoided]) -> list[Finding]:
    """``prose/avoided-term`` and ``prose/register``: the glossary's avoided words, outside code and quotations.
    Where two of them overlap (多机建组超时 and 建组), the longer one is reported."""
    skip = _list_lines(path, text)
    words = sorted(((w, row) for row in avoided for w in row.words), key=lambda x: -len(x[0]))
    out = []
    for number, _, masked in prose_lines(text):
        if number in skip:
            continue
        view = unquoted(masked)
        taken: set[int] = set()
        for word, row in words:
            flags = re.IGNORECASE if word.isascii() else 0
            pattern = rf"\b{re.escape(word)}\b" if word.isascii() else re.escape(word)
            for m in re.finditer(pattern, view, flags):
                if taken & set(range(m.start(), m.end())):
                    continue
                if row.unless and row.unless.lower() in sentence(view, m.start()).lower():
                    continue
                taken.update(range(m.start(), m.end()))
                rule = "prose/register" if row.register else "prose/avoided-term"
                out.append(Finding(path, number, m.start() + 1, rule, f"{word} → {row.use}"))
    return out


def glossary_twin_findings(glossaries: dict[str, Glossary]) -> list[Finding]:
    """The two glossaries list the same terms, each with the same 中文 and English forms."""
    zh = {(t.zh, t.en): t for t in glossaries["zh"].terms}
    en = {(t.zh, t.en): t for t in glossaries["en"].terms}
    out = []
    for lang, ours, theirs in (("zh", zh, en), ("en", en, zh)):
        for pair, term in ours.items():
            if pair not in theirs:
                message = f"{term.zh} | {term.en}: the other glossary has no row with these two forms"
                out.append(Finding(GLOSSARY[lang], term.line, 1, "prose/glossary-twin", message))
    return out


def glossary_unused_findings(glossaries: dict[str, Glossary], texts: dict[Path, str]) -> list[Finding]:
    """A term row whose 中文 forms no 中文 page uses (outside the glossary): the row is stale. (The English column
    glosses the term; the English pages are not held to its wording.) An ``X`` in a form stands for any word."""
    views = [
        unquoted(masked)
        for path, text in texts.items()
        if language(path) == "zh" and path.resolve() != GLOSSARY["zh"].resolve()
        for _, _, masked in prose_lines(text)
    ]
    joined = "\n".join(views)
    out = []
    for term in glossaries["zh"].terms:
        for form in term.zh_forms():
            pattern = r"\s*\S+\s*".join(
                re.escape(part.strip()) for part in re.split(r"(?<![A-Za-z])X(?![A-Za-z])", form)
            )
            if not re.search(pattern, joined):
                message = f"“{form}”: no 中文 page uses this term; use it or remove the row"
                out.append(Finding(GLOSSARY["zh"], term.line, 1, "prose/glossary-unused", message))
    return out


# ---- AutoCorrect ---------------------------------------------------------------------------------------------


def _autocorrect():
    import autocorrect_py

    autocorrect_py.load_config(CONFIG.read_text(encoding="utf-8"))
    return autocorrect_py


def _view(text: str) -> tuple[list[str], list[str]]:
    """What AutoCorrect reads: fenced code as empty lines, every other line without its indentation; and the
    indentation of each line, to put it back."""
    lines = text.split("\n")
    view = [""] * len(lines)
    indents = [""] * len(lines)
    kept = {number for number, _, _ in prose_lines(text)}
    for i, line in enumerate(lines):
        if i + 1 in kept:
            body = line.lstrip(" \t")
            view[i], indents[i] = body, line[: len(line) - len(body)]
    return view, indents


def _chunks(view: list[str], size: int = 600) -> list[tuple[int, int]]:
    """Line ranges of at most about `size` lines, cut before a heading: AutoCorrect's parser stops with
    "call limit reached" on a very long page (troubleshooting.md passed 2,200 lines), so it reads one part at a time."""
    out: list[tuple[int, int]] = []
    start = 0
    for i, line in enumerate(view):
        if i - start >= size and line.startswith("#"):
            out.append((start, i))
            start = i
    out.append((start, len(view)))
    return out


def autocorrect_findings(path: Path, text: str) -> list[Finding]:
    if language(path) != "zh":
        return []
    view, _ = _view(text)
    ac = _autocorrect()
    out: list[Finding] = []
    for start, end in _chunks(view):
        result = ac.lint_for("\n".join(view[start:end]), path.name)
        out += [
            Finding(path, start + r.line, r.col, "prose/autocorrect", f"{r.old.strip()[:60]} → {r.new.strip()[:60]}")
            for r in result.lines
        ]
    return out


def fix_autocorrect(path: Path, text: str) -> str:
    if language(path) != "zh":
        return text
    view, indents = _view(text)
    ac = _autocorrect()
    fixed = [
        line
        for start, end in _chunks(view)
        for line in ac.format_for("\n".join(view[start:end]), path.name).split("\n")
    ]
    if len(fixed) != len(view):  # AutoCorrect never adds or removes lines; if it did, keep the page as it is
        return text
    lines = text.split("\n")
    for i, (before, after) in enumerate(zip(view, fixed, strict=True)):
        if before != after:
            lines[i] = indents[i] + after
    return "\n".join(lines)


# ---- the command ---------------------------------------------------------------------------------------------


def pages(paths: Iterable[Path]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        out += sorted(p.rglob("*.md")) if p.is_dir() else [p]
    return out


def twin_of(path: Path) -> Path | None:
    """The English twin of a 中文 page (None for an English page)."""
    return None if language(path) == "en" else path.with_name(path.name.removesuffix(".md") + ".en.md")


def lint(path: Path, text: str, glossaries: dict[str, Glossary], twin: str | None = None) -> list[Finding]:
    """Every per-page rule on one page; ``twin``: the English page's text, for a 中文 page."""
    lang = language(path)
    glossary = glossaries[lang]
    is_glossary = path.resolve() in {p.resolve() for p in GLOSSARY.values()}  # it defines the forms
    # a generated page (the rules page) is a reference of entries read one at a time, not a text read in order
    generated = "<!-- generated:" in text
    firsts = [] if is_glossary or generated else [f for t in glossaries["zh"].terms if (f := t.first_use())]
    return (
        autocorrect_findings(path, text)
        + ascii_quote_findings(path, text)
        + cjk_space_findings(path, text)
        + term_findings(path, text, glossary.avoided)
        + prose_terms.whitelist_switch_findings(path, text)
        + prose_terms.product_name_findings(path, text, exempt=is_glossary)
        + prose_terms.first_use_findings(path, text, firsts)
        + prose_terms.range_findings(path, text)
        + prose_terms.date_findings(path, text)
        + prose_terms.reference_findings(path, text)
        + prose_terms.doubled_word_findings(path, text)
        + prose_layout.admonition_title_findings(path, text, twin)
        + prose_layout.question_heading_findings(path, text)
        + prose_layout.bold_findings(path, text)
        + prose_layout.link_text_findings(path, text)
        + prose_layout.link_line_findings(path, text)
        + prose_layout.paragraph_length_findings(path, text)
        + prose_layout.list_indent_findings(path, text)
        + prose_layout.faq_parts_findings(path, text)
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", type=Path, default=[REPO / "docs"])
    parser.add_argument("--fix", action="store_true", help="apply AutoCorrect and turn ASCII quote pairs into “”")
    args = parser.parse_args(argv)
    glossaries = load_glossaries()
    findings: list[Finding] = []
    texts: dict[Path, str] = {}
    for path in pages(args.paths):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            findings.append(Finding(path, 1, 1, "prose/unreadable", str(e)))
            continue
        if args.fix:
            fixed = fix_cjk_spaces(fix_autocorrect(path, fix_ascii_quotes(text)))  # quotes first: AutoCorrect spaces “”
            if fixed != text:
                path.write_text(fixed, encoding="utf-8")
                text = fixed
        texts[path] = text
    for path, text in texts.items():
        twin = twin_of(path)
        twin_text = twin.read_text(encoding="utf-8") if twin is not None and twin.is_file() else None
        findings += lint(path, text, glossaries, twin_text)
    if {p.resolve() for p in pages([REPO / "docs"])} <= {p.resolve() for p in texts}:  # the whole site was read
        findings += glossary_twin_findings(glossaries) + glossary_unused_findings(glossaries, texts)
    for finding in findings:
        print(finding)
    if findings:
        print(f"prose_lint: {len(findings)} finding(s)", file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
