"""Read reStructuredText pages (verl's Sphinx docs) into the same :class:`~verl_cookbook.markdown.Page` the
Markdown reader makes, so every check runs on them.

docutils parses the page. Sphinx's code directives (``code-block``, ``sourcecode``, ``code``) and
``literalinclude`` are read here, since docutils alone does not know them; ``::`` literal blocks come from docutils
itself. Every other directive docutils does not know (``toctree``, ``automodule``, a theme's tabs) is read as a
container whose content is parsed as reStructuredText, so a code block inside it is still found. Each block keeps
the page's own line numbers, taken from docutils' record of where every content line came from.

A block declares its check in a comment, which Sphinx never renders::

    .. verl-cookbook: check=shell

    .. code-block:: bash

       python3 -m verl.trainer.main_ppo ...

The comment declares the code block that follows it (for a ``::`` block: the paragraph ending in ``::``, then the
block). It takes the same attributes a Markdown fence does (``check``, ``reason``, ``since``, ``config``, ...).
"""

from __future__ import annotations

import io
import re
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from docutils import frontend, nodes, utils
from docutils.parsers.rst import Directive, Parser, directives

from verl_cookbook.markdown import CodeBlock, Page, Problem, parse_attrs, read_text
from verl_cookbook.rules.pages import SNIPPET_ORPHAN_DECLARATION

DECLARATION = "verl-cookbook:"
_DIRECTIVE_NAME = re.compile(r"^\s*\.\.\s+([A-Za-z][\w:.+-]*)::", re.M)
_DECLARED = re.compile(r"^\s*\.\.\s+verl-cookbook:\s*(.*)$")
_HIGHLIGHT = ("code-block", "sourcecode", "code")


class _AnyOptions(dict):
    """An ``option_spec`` that takes every option (Sphinx's ``:caption:``, ``:linenos:``, a theme's own)."""

    def __init__(self) -> None:
        super().__init__(name=directives.unchanged)  # not empty: docutils reads no options for an empty spec

    def __missing__(self, key: str) -> Any:
        return directives.unchanged


class _Collector:
    """What one parse found, kept on the document while docutils runs the directives."""

    def __init__(self, path: Path, shown: str, root: Path, bases: list[Path], lines: list[str]) -> None:
        self.path = path
        self.shown = shown
        self.root = root
        self.bases = bases
        self.lines = lines
        self.highlights: list[tuple[int, str]] = []  # ``.. highlight:: LANG``: the ``::`` blocks after it are LANG

    def language(self, line: int) -> str:
        """The language ``.. highlight::`` sets for a ``::`` block at ``line`` ("" when none does)."""
        return next((lang for at, lang in reversed(self.highlights) if at < line), "")


def _collector(directive: Directive) -> _Collector:
    return directive.state.document.verl_collector  # type: ignore[attr-defined]


def _col(lines: list[str], lineno: int) -> int:
    line = lines[lineno - 1] if 0 < lineno <= len(lines) else ""
    return len(line) - len(line.lstrip(" ")) + 1


class _CodeDirective(Directive):
    """Sphinx's ``code-block``/``sourcecode``/``code``: an optional language, any options, the code."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = _AnyOptions()

    def run(self) -> list[nodes.Node]:
        c = _collector(self)
        lang = self.arguments[0].split()[0] if self.arguments else c.language(self.lineno)
        items = self.content.items
        line_map = [(c.shown, offset + 1) for _source, offset in items]
        code = "\n".join(self.content)
        node = nodes.literal_block(code, code)
        node.verl_block = CodeBlock(  # type: ignore[attr-defined]
            page=c.shown,
            line=self.lineno,
            col=_col(c.lines, self.lineno),
            lang=lang,
            attrs={},
            info=f"{self.name}:: {lang}".rstrip(),
            code=code + ("\n" if self.content else ""),
            line_map=line_map,
        )
        return [node]


class _LiteralInclude(Directive):
    """Sphinx's ``literalinclude``: a file shown as code (``:language:``, ``:lines:``, ``:start-after:`` ...)."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = False
    option_spec = _AnyOptions()

    def run(self) -> list[nodes.Node]:
        c = _collector(self)
        block = included_block(
            self.arguments[0], self.options, c.path, c.shown, c.root, c.bases, self.lineno, _col(c.lines, self.lineno)
        )
        block.info = f"literalinclude:: {self.arguments[0]}"
        node = nodes.literal_block(block.code, block.code)
        node.verl_block = block  # type: ignore[attr-defined]
        return [node]


class _Highlight(Directive):
    """``.. highlight:: LANG``: the language of the ``::`` blocks that follow."""

    required_arguments = 1
    option_spec = _AnyOptions()

    def run(self) -> list[nodes.Node]:
        _collector(self).highlights.append((self.lineno, self.arguments[0].strip()))
        return []


class _Container(Directive):
    """A directive docutils does not know (Sphinx's or an extension's): its content is read as reStructuredText."""

    optional_arguments = 100
    final_argument_whitespace = True
    has_content = True
    option_spec = _AnyOptions()

    def run(self) -> list[nodes.Node]:
        node = nodes.container()
        if self.content:
            self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


def sphinx_source_dir(page: Path) -> Path | None:
    """The folder of the nearest ``conf.py`` at or above ``page``: where Sphinx's ``/``-rooted paths start."""
    for d in page.resolve().parents:
        if (d / "conf.py").is_file():
            return d
    return None


def included_block(
    target: str,
    options: dict[str, Any],
    page: Path,
    shown: str,
    root: Path,
    bases: list[Path],
    line: int,
    col: int,
) -> CodeBlock:
    """A ``literalinclude`` as a code block: the file's lines (or the part the options select), each mapped to its own
    line in the file. A file that does not exist is a missing include of the block."""
    from verl_cookbook.markdown import display  # the one way paths are shown

    if target.startswith("/"):
        src = sphinx_source_dir(page) or root
        candidates = [src / target.lstrip("/")]
    else:
        candidates = [page.parent / target, *(b / target for b in bases)]
    found = next((p.resolve() for p in candidates if p.is_file()), None)
    lang = str(options.get("language") or "").strip()
    block = CodeBlock(page=shown, line=line, col=col, lang=lang, attrs={}, info="", code="", line_map=[])
    if found is None:
        block.missing_includes.append((target, line))
        return block
    inc_shown = display(found, root)
    numbered = list(enumerate(read_text(found).splitlines(), 1))
    numbered = _select(numbered, options)
    block.includes.append(inc_shown)
    block.code = "".join(text + "\n" for _, text in numbered)
    block.line_map = [(inc_shown, n) for n, _ in numbered]
    return block


def _select(numbered: list[tuple[int, str]], options: dict[str, Any]) -> list[tuple[int, str]]:
    """The lines ``literalinclude``'s options keep: ``:lines:`` then ``:start-at/after:`` and ``:end-at/before:``."""
    spec = options.get("lines")
    if spec:
        keep: list[tuple[int, str]] = []
        for part in str(spec).split(","):
            lo, sep, hi = part.strip().partition("-")
            start = int(lo) if lo.strip() else 1
            end = (int(hi) if hi.strip() else len(numbered)) if sep else start
            keep.extend(numbered[start - 1 : end])
        numbered = keep
    for key, after in (("start-after", True), ("start-at", False)):
        marker = options.get(key)
        if marker:
            i = next((i for i, (_, t) in enumerate(numbered) if marker in t), None)
            if i is not None:
                numbered = numbered[i + 1 if after else i :]
    for key, before in (("end-before", True), ("end-at", False)):
        marker = options.get(key)
        if marker:
            i = next((i for i, (_, t) in enumerate(numbered) if marker in t), None)
            if i is not None:
                numbered = numbered[: i if before else i + 1]
    return numbered


@contextmanager
def _registered(text: str, document: nodes.document):
    """Sphinx's directives, and a container for every other directive name ``text`` uses that docutils lacks,
    registered for one parse and removed after it (docutils keeps them in a module-level table)."""
    from docutils.parsers.rst import languages

    table = directives._directives  # type: ignore[attr-defined]  # docutils keeps registrations only here
    saved = dict(table)
    ours: dict[str, type[Directive]] = {name: _CodeDirective for name in _HIGHLIGHT}
    ours["literalinclude"] = _LiteralInclude
    ours["highlight"] = _Highlight
    language = languages.get_language("en", document.reporter)
    for name in set(_DIRECTIVE_NAME.findall(text)) - set(ours):
        if name in table or name.lower() in table:
            continue
        found, _messages = directives.directive(name, language, document)  # type: ignore[arg-type]  # the rST language module is what docutils passes itself
        if found is None:
            ours[name] = _Container
    table.update(ours)
    try:
        yield
    finally:
        table.clear()
        table.update(saved)


def parse_rst(path: Path, root: Path, bases: list[Path] | None = None, text: str | None = None) -> Page:
    """Parse one reStructuredText file into a :class:`Page` (its code blocks; it has no tables or claims the checks
    read). ``root``: what paths are shown relative to; ``bases``: where relative includes are also looked for."""
    from verl_cookbook.markdown import display

    bases = bases if bases is not None else [root]
    shown = display(path, root)
    if text is None:
        text = read_text(path)
    lines = text.splitlines()
    settings = frontend.get_default_settings(Parser)
    settings.report_level = 5  # the page's own reST problems are Sphinx's to report
    settings.halt_level = 5
    settings.warning_stream = io.StringIO()
    settings.file_insertion_enabled = False  # ``.. include::`` would read files: not needed to find code
    settings.raw_enabled = False
    settings.syntax_highlight = "none"
    document = utils.new_document(str(path), settings)
    document.verl_collector = _Collector(path, shown, root, bases, lines)  # type: ignore[attr-defined]
    with _registered(text, document):
        Parser().parse(text, document)

    blocks: list[CodeBlock] = []
    found_at: dict[int, CodeBlock] = {}
    for node in document.findall(nodes.literal_block):
        block = getattr(node, "verl_block", None)
        if block is None:
            block = _literal(node, shown, lines, document.verl_collector)  # type: ignore[attr-defined]
            if block is None:
                continue
        found_at[id(node)] = block
        blocks.append(block)
    problems = _declare(document, found_at, lines, shown)
    return Page(shown, blocks, [], [], text, problems=problems)


def _literal(node: nodes.literal_block, shown: str, lines: list[str], c: _Collector) -> CodeBlock | None:
    """A ``::`` literal block (or docutils' own ``parsed-literal``), mapped line for line onto the page."""
    if node.line is None or node.source is None:
        return None  # docutils' own error report of an unknown directive, not the page's code
    code = node.astext()
    n = len(code.splitlines())
    first = node.line
    intro = next((k for k in range(first - 1, 0, -1) if lines[k - 1].rstrip().endswith("::")), first)
    return CodeBlock(
        page=shown,
        line=intro,  # the line that ends in ``::``
        col=_col(lines, first),
        lang=c.language(first),
        attrs={},
        info="::",
        code=code + ("\n" if code else ""),
        line_map=[(shown, first + k) for k in range(n)],
    )


def _declare(document: nodes.document, found_at: dict[int, CodeBlock], lines: list[str], shown: str) -> list[Problem]:
    """Give each ``.. verl-cookbook: ...`` comment's attributes to the block it declares; a comment that declares no
    block is a finding (it would silently check nothing)."""
    comments = [c for c in document.findall(nodes.comment) if c.astext().strip().startswith(DECLARATION)]
    where = [n for n, line in enumerate(lines, 1) if _DECLARED.match(line)]
    out: list[Problem] = []
    for k, comment in enumerate(comments):
        line = where[k] if k < len(where) else (comment.line or 1)
        attrs = parse_attrs(comment.astext().strip()[len(DECLARATION) :])
        target = _declared_block(comment, found_at)
        if target is None:
            out.append(Problem(shown, line, 1, SNIPPET_ORPHAN_DECLARATION, {"case": "rst"}))
            continue
        target.attrs = {**target.attrs, **attrs}
    return out


def _declared_block(comment: nodes.comment, found_at: dict[int, CodeBlock]) -> CodeBlock | None:
    parent = comment.parent
    if parent is None:
        return None
    i = parent.index(comment)
    siblings = parent.children[i + 1 : i + 3]
    if siblings and id(siblings[0]) in found_at:
        return found_at[id(siblings[0])]
    if (
        len(siblings) == 2
        and isinstance(siblings[0], nodes.paragraph)
        and siblings[0].rawsource.rstrip().endswith("::")
        and id(siblings[1]) in found_at
    ):
        return found_at[id(siblings[1])]
    return None
