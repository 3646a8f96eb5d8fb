"""One entry point for reading a documentation page, whatever it is written in: Markdown (with MyST's directives, as
Sphinx's ``myst_parser`` reads them) or reStructuredText (read with docutils). Each gives the same
:class:`~verl_cookbook.markdown.Page`, so every check runs on either."""

from __future__ import annotations

from pathlib import Path

from verl_cookbook.markdown import Page, parse_page

MARKDOWN_SUFFIXES = (".md", ".markdown")
RST_SUFFIXES = (".rst",)
DOC_SUFFIXES = MARKDOWN_SUFFIXES + RST_SUFFIXES


def read_page(path: Path, root: Path, bases: list[Path] | None = None) -> Page:
    """Parse the page at ``path`` by its suffix. Raises :class:`~verl_cookbook.markdown.MarkdownError` when the file
    cannot be read as text."""
    bases = bases if bases is not None else [root]
    if path.suffix.lower() in RST_SUFFIXES:
        from verl_cookbook.rst import parse_rst

        return parse_rst(path, root, bases)
    from verl_cookbook.myst import expand

    return expand(parse_page(path, root, bases), path, root, bases)
