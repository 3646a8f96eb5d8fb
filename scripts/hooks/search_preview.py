"""mkdocs hook: a search result's preview starts with the page's content, not its "checked against verl" line.

Every page opens with the one-line notice "本页对照 verl 0.9.1 核对 …" / "Checked against verl 0.9.1 …"
(``verl_cookbook.site_markdown``): a ``<summary>`` over the page's info box, or a ``<p>`` under the title.
Material's search indexes it as the first text of the page, so every result previewed that same line. Material
skips an element marked ``data-search-exclude``; this marks the notice line (not the box: what the box says is
the page's own, e.g. the software stack it was checked on), before the search plugin reads the page
(``on_page_context``). The page itself is unchanged.
"""

from __future__ import annotations

import re

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

_NOTICE = re.compile(r'<details class="verl-checked"[^>]*>\s*<summary|<p class="verl-checked"')


def exclude_notice(html: str) -> str:
    """``html`` with the "checked against verl" line marked for Material's search to skip."""
    return _NOTICE.sub(lambda m: m.group(0) + " data-search-exclude", html)


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    return exclude_notice(html)
