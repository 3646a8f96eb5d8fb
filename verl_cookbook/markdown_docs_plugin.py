"""pytest plugin: let pytest-markdown-docs run the site's Python fences the way Material renders them.

``pytest -p verl_cookbook.markdown_docs_plugin --markdown-docs --markdown-docs-syntax=superfences docs/``

pytest-markdown-docs reads fences with a plain CommonMark parser: it would miss fences inside Material's
admonitions and tabs (their four-space indent makes them indented code) and run ``--8<--`` include lines
as Python. This parser flattens those containers first (line numbers kept), resolves includes, and marks
``notest`` every fence that is not ``check="python"`` or cannot run here (it imports verl, which is never
imported, or a module that is not installed).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from verl_cookbook.checks.python_example import prepare_fence
from verl_cookbook.markdown import flatten_containers
from verl_cookbook.runner import find_site_root


@pytest.hookimpl(tryfirst=True)
def pytest_markdown_docs_markdown_it() -> MarkdownIt:
    site_root = find_site_root(Path.cwd())
    md = MarkdownIt("commonmark")

    def flatten(state) -> None:  # noqa: ANN001 - markdown-it StateCore
        state.src = "\n".join(flatten_containers(state.src.split("\n")))

    def resolve(state) -> None:  # noqa: ANN001
        for tok in state.tokens:
            if tok.type == "fence":
                tok.info, tok.content = prepare_fence(tok.info, tok.content, site_root)

    md.core.ruler.before("block", "verl_cookbook_flatten", flatten)
    md.core.ruler.after("block", "verl_cookbook_fences", resolve)
    return md
