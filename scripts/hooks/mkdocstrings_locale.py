"""mkdocs hook: mkdocstrings renders each page's API blocks in the page's language.

mkdocstrings takes its locale once, from the first build's theme language (中文); mkdocs-static-i18n then builds
the English pages with the same handlers, so their parameter tables were headed 名称 / 类型 / 描述. Before each
page is converted, this sets the handlers' locale (read when a ``:::`` block renders) to the page's language.
"""

from __future__ import annotations

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page


def page_locale(src_uri: str) -> str:
    return "en" if src_uri.endswith(".en.md") else "zh"


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    plugin = config.plugins.get("mkdocstrings")
    handlers = getattr(plugin, "handlers", None) if plugin is not None else None
    if handlers is not None and hasattr(handlers, "_locale"):
        handlers._locale = page_locale(page.file.src_uri)  # mkdocstrings reads it when a block renders
    return markdown
