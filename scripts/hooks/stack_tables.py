"""mkdocs hook: fill the version-matrix markers with the tables ``verl-cookbook stack`` gives.

``<!-- stack: plans -->`` becomes one table per covered verl release × product family (``stack_pages.plans_markdown``),
``<!-- stack: uploads -->`` the upload-time table (``stack_pages.uploads_markdown``), in the page's language (a page
``*.en.md`` in English, the others in Chinese). Pure functions of the committed snapshots: no network, nothing written
under docs/. A marker it does not know stops the build.
"""

from __future__ import annotations

import re

from mkdocs.exceptions import PluginError

MARKER = re.compile(r"<!-- stack: (\w+) -->")


def fill(markdown: str, lang: str) -> str:
    if "<!-- stack: " not in markdown:
        return markdown
    from verl_cookbook.releases import covered_releases
    from verl_cookbook.stack_pages import plans_markdown, uploads_markdown

    makers = {"plans": plans_markdown, "uploads": uploads_markdown}

    def one(m: re.Match) -> str:
        maker = makers.get(m.group(1))
        if maker is None:
            raise PluginError(f"stack_tables hook: unknown marker {m.group(0)} (known: {', '.join(makers)})")
        return maker(covered_releases(), lang)

    return MARKER.sub(one, markdown)


def on_page_markdown(markdown: str, page, config, files) -> str:
    lang = "en" if page.file.src_uri.endswith(".en.md") or "/en/" in f"/{page.url}" else "zh"
    return fill(markdown, lang)
