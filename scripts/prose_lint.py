"""Lint the prose of the pages: AutoCorrect on the 中文 pages, no ASCII quotes in Chinese text, the glossary's terms.

Usage: python scripts/prose_lint.py [--fix] [PATH ...]      (default: docs/)

Three rules, each a finding ``path:line:col: rule: message``; exit 1 when there is one, 0 when none:

* ``prose/autocorrect``: what AutoCorrect (``autocorrect-py``, configured by ``.autocorrectrc``) changes on a
  中文 page: spaces between CJK and Latin words, numbers and ``code``; full-width punctuation between CJK
  characters; no space beside full-width punctuation. Fenced code is blanked and indented bodies (admonitions,
  tabs, list items) are dedented before AutoCorrect reads a page, so it lints what a reader reads and nothing
  else (it would skip an indented body as code, and lint a fence with an attribute list as text).
* ``prose/ascii-quotes``: a pair of ASCII double quotes in the text of a 中文 page; Chinese text quotes with
  “”, English quotations inside it too. Code, HTML tags and comments, attribute lists and admonition or tab
  titles are syntax and left alone.
* ``prose/cjk-space``: a space a reader sees between two Chinese characters (or one and Chinese punctuation)
  on a 中文 page, as in "核对。 文中的" (a line break there renders as nothing: verl_cookbook.cjk_line_breaks).
* ``prose/avoided-term``: a term the glossary's "avoid" table lists for the page's language
  (``docs/glossary.md#avoid`` for 中文, ``docs/glossary.en.md#avoid`` for English), unless the same sentence
  has that row's exception word (显存 in a sentence about a GPU). Code and URLs are not prose.

``--fix`` applies AutoCorrect's changes, turns the ASCII quote pairs into “” and removes the spaces between
Chinese characters; avoided terms need a writer.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from verl_cookbook.cjk_line_breaks import joins  # noqa: E402  (the rule the rendered pages follow)

GLOSSARY = {"zh": REPO / "docs" / "glossary.md", "en": REPO / "docs" / "glossary.en.md"}
CONFIG = REPO / ".autocorrectrc"

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
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
_SENTENCE_END = re.compile(r"[。！？；]")
MASK = "\x1a"
HIDDEN = "\x1b"
_HIDDEN_SYNTAX = {1, 4}  # indexes in _SYNTAX: HTML comments, link targets


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


# ---- the glossary's avoided terms ---------------------------------------------------------------------------


@dataclass(frozen=True)
class AvoidedTerm:
    term: str
    use: str
    unless: str  # a word that, in the same sentence, allows the term ("" for none)


def _avoid_section(text: str) -> tuple[int, int]:
    """The line range (1-based, end exclusive) of the glossary's ``{ #avoid }`` section; (0, 0) if none."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines, 1) if line.startswith("## ") and "{ #avoid }" in line), 0)
    if not start:
        return 0, 0
    end = next((i for i, line in enumerate(lines[start:], start + 1) if line.startswith("## ")), len(lines) + 1)
    return start, end


def avoided_terms(glossary: str) -> list[AvoidedTerm]:
    """The rows of the glossary's avoid table: | avoid | use instead | except in a sentence with | notes |."""
    start, end = _avoid_section(glossary)
    if not start:
        return []
    rows = [line for line in glossary.splitlines()[start : end - 1] if line.startswith("|")]
    out = []
    for row in rows[2:]:  # header and separator first
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) < 3:
            continue
        for term in re.split(r"[、,]\s*", cells[0]):
            if term.strip():
                out.append(AvoidedTerm(term.strip(), cells[1], cells[2]))
    return out


def term_findings(path: Path, text: str, terms: Iterable[AvoidedTerm]) -> list[Finding]:
    exempt = _avoid_section(text) if path.resolve() in {p.resolve() for p in GLOSSARY.values()} else (0, 0)
    out = []
    for number, _, masked in prose_lines(text):
        if exempt[0] <= number < exempt[1]:
            continue
        for term in terms:
            flags = re.IGNORECASE if term.term.isascii() else 0
            word = rf"\b{re.escape(term.term)}\b" if term.term.isascii() else re.escape(term.term)
            for m in re.finditer(word, masked, flags):
                sentence = _sentence(masked, m.start())
                if term.unless and term.unless.lower() in sentence.lower():
                    continue
                out.append(Finding(path, number, m.start() + 1, "prose/avoided-term", f"{term.term} → {term.use}"))
    return out


def _sentence(line: str, pos: int) -> str:
    starts = [m.end() for m in _SENTENCE_END.finditer(line, 0, pos)]
    end = _SENTENCE_END.search(line, pos)
    return line[starts[-1] if starts else 0 : end.end() if end else len(line)]


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


def autocorrect_findings(path: Path, text: str) -> list[Finding]:
    if language(path) != "zh":
        return []
    view, _ = _view(text)
    result = _autocorrect().lint_for("\n".join(view), path.name)
    return [
        Finding(path, r.line, r.col, "prose/autocorrect", f"{r.old.strip()[:60]} → {r.new.strip()[:60]}")
        for r in result.lines
    ]


def fix_autocorrect(path: Path, text: str) -> str:
    if language(path) != "zh":
        return text
    view, indents = _view(text)
    fixed = _autocorrect().format_for("\n".join(view), path.name).split("\n")
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


def lint(path: Path, text: str, terms: dict[str, list[AvoidedTerm]]) -> list[Finding]:
    return (
        autocorrect_findings(path, text)
        + ascii_quote_findings(path, text)
        + cjk_space_findings(path, text)
        + term_findings(path, text, terms[language(path)])
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", type=Path, default=[REPO / "docs"])
    parser.add_argument("--fix", action="store_true", help="apply AutoCorrect and turn ASCII quote pairs into “”")
    args = parser.parse_args(argv)
    terms = {lang: avoided_terms(p.read_text(encoding="utf-8")) for lang, p in GLOSSARY.items()}
    findings: list[Finding] = []
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
        findings += lint(path, text, terms)
    for finding in findings:
        print(finding)
    if findings:
        print(f"prose_lint: {len(findings)} finding(s)", file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
