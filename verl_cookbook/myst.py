"""MyST Markdown as Sphinx's ``myst_parser`` reads it (verl's ``.md`` docs), on top of the Markdown reader.

A fence whose info string is ``{name}`` is a MyST directive, not a language:

- ``{code-block} LANG`` / ``{code} LANG`` / ``{sourcecode} LANG`` is a code block in LANG; its options (``:caption:``
  lines, or a ``---`` YAML block, at the top of the content) are not code;
- ``{literalinclude} PATH`` shows a file, as in reStructuredText;
- ``{eval-rst}`` holds reStructuredText, read by :mod:`verl_cookbook.rst`;
- any other directive (``{note}``, ``{dropdown}``, ``{tab-item}``) holds Markdown, read again so that a fence
  inside it (written with fewer backticks than the directive's) is found.

A block declares its check in an HTML comment right above it (blank lines allowed), which MyST and Material both
leave out of the page: ``<!-- verl-cookbook: check=shell -->``. It takes the attributes a fence does. This works in
any Markdown page, so a page written for Sphinx and one written for MkDocs declare checks the same way.
"""

from __future__ import annotations

import re
from pathlib import Path

from verl_cookbook.markdown import CodeBlock, Page, Problem, parse_attrs, parse_page
from verl_cookbook.rules.pages import SNIPPET_ORPHAN_DECLARATION

_MYST = re.compile(r"^\{([A-Za-z][\w:.+-]*)\}\s*(.*)$")
_CODE = ("code-block", "code", "sourcecode")
_OPTION = re.compile(r"^\s*:([\w-]+):(?:\s+(.*))?$")
_DECLARED = re.compile(r"<!--\s*verl-cookbook:(.*?)-->", re.S)


def expand(page: Page, path: Path, root: Path, bases: list[Path]) -> Page:
    """``page`` with its MyST directive fences read as MyST reads them, and the blocks' HTML-comment declarations
    applied."""
    inside = {n for b in page.blocks for where, n in b.line_map if where == page.path}
    blocks = []
    for block in page.blocks:
        m = _MYST.match(block.info)
        if not m or block.includes or block.missing_includes:
            blocks.append(block)
            continue
        name, argument = m.group(1), m.group(2).strip()
        if name in _CODE:
            blocks.append(_code_block(block, argument))
        elif name == "literalinclude":
            blocks.append(_literalinclude(block, argument, path, root, bases))
        elif name == "eval-rst":
            nested = _nested(block, path, root, bases, rst=True)
            blocks.extend(nested.blocks)
            page.problems.extend(nested.problems)
        else:
            nested = _nested(block, path, root, bases, rst=False)
            blocks.extend(nested.blocks)
            page.tables.extend(nested.tables)
            page.directives.extend(nested.directives)
            page.problems.extend(nested.problems)
    page.blocks = sorted(blocks, key=lambda b: b.line)
    page.problems.extend(_declare(page, inside))
    return page


def _options(block: CodeBlock) -> tuple[dict[str, str], int]:
    """A directive's options at the top of its content, and how many content lines they take."""
    lines = block.code.splitlines()
    options: dict[str, str] = {}
    if lines and lines[0].strip() == "---":
        end = next((k for k in range(1, len(lines)) if lines[k].strip() == "---"), None)
        if end is not None:
            for line in lines[1:end]:
                key, _, value = line.partition(":")
                options[key.strip()] = value.strip()
            return options, end + 1
    n = 0
    while n < len(lines) and (m := _OPTION.match(lines[n])):
        options[m.group(1)] = (m.group(2) or "").strip()
        n += 1
    return options, n


def _code_block(block: CodeBlock, argument: str) -> CodeBlock:
    _options_read, skip = _options(block)
    lines = block.code.splitlines()[skip:]
    while lines and not lines[0].strip():  # MyST drops the blank line between the options and the code
        lines.pop(0)
        skip += 1
    block.code = "".join(line + "\n" for line in lines)
    block.line_map = block.line_map[skip:]
    block.lang = argument.split()[0] if argument else ""
    return block


def _literalinclude(block: CodeBlock, argument: str, path: Path, root: Path, bases: list[Path]) -> CodeBlock:
    from verl_cookbook.rst import included_block

    options, _ = _options(block)
    out = included_block(argument, options, path, block.page, root, bases, block.line, block.col)
    out.info = block.info
    out.attrs = block.attrs
    return out


def _nested(block: CodeBlock, path: Path, root: Path, bases: list[Path], rst: bool) -> Page:
    """The directive's content read as a page of its own, padded so that its lines are the page's lines."""
    first = block.line_map[0][1] if block.line_map else block.line + 1
    text = "\n" * (first - 1) + block.code
    if rst:
        from verl_cookbook.rst import parse_rst

        return parse_rst(path, root, bases, text=text)
    return expand(parse_page(path, root, bases, text=text), path, root, bases)


def _declare(page: Page, inside: set[int]) -> list[Problem]:
    """Give each ``<!-- verl-cookbook: check=... -->`` comment's attributes to the code block right below it.
    ``inside``: the page's lines inside fences (a comment there is an example, or a directive's, read with it)."""
    text = page.text
    lines = text.splitlines()
    by_line = {b.line: b for b in page.blocks}
    out: list[Problem] = []
    for m in _DECLARED.finditer(text):
        attrs = parse_attrs(m.group(1))
        if "check" not in attrs:
            continue  # not a declaration (e.g. a suppression, ``verl-cookbook: ignore[...]``)
        start = text.count("\n", 0, m.start()) + 1
        if start in inside:
            continue  # shown inside a code block (a syntax example): declares nothing
        if not lines[start - 1].lstrip().startswith("<!--"):
            continue  # quoted in a sentence (an inline code span): a declaration stands on its own line
        end = text.count("\n", 0, m.end()) + 1
        n = end + 1
        while n <= len(lines) and not lines[n - 1].strip():
            n += 1
        target = by_line.get(n)
        if target is None:
            out.append(Problem(page.path, start, 1, SNIPPET_ORPHAN_DECLARATION, {}))
            continue
        target.attrs = {**target.attrs, **attrs}
    return out
