"""mkdocs hook: serve mermaid from the site itself, and only on pages that draw a diagram.

Material loads ``https://unpkg.com/mermaid@11/dist/mermaid.min.js`` unless a global ``mermaid`` is
already defined when it renders the first ``.mermaid`` block (on DOMContentLoaded). This hook copies the
ESM build pinned in package.json (``npm ci`` → node_modules/) into the site and, on each page that has a
diagram, adds a module script that imports it and sets ``window.mermaid``; module scripts run before
DOMContentLoaded, so Material finds it. The ESM build loads only the chunks a diagram type needs (a
flowchart: ~1 MB instead of the 3.5 MB single-file build), and pages without diagrams load nothing.
"""

from __future__ import annotations

import posixpath
import re
import shutil
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.pages import Page

DIST = Path("node_modules/mermaid/dist")
SOURCE = DIST / "mermaid.esm.min.mjs"
CHUNKS = "chunks/mermaid.esm.min"
TARGET_DIR = "assets/javascripts/mermaid"
TARGET = f"{TARGET_DIR}/mermaid.esm.min.mjs"
_DIAGRAM = re.compile(r'<(?:pre|div) class="mermaid"')
_BUNDLE = re.compile(r'<script src="[^"]*assets/javascripts/bundle\.[0-9a-f]+\.min\.js"></script>')


def source_path(config: MkDocsConfig) -> Path:
    """Where ``npm ci`` put mermaid, relative to mkdocs.yml; a clear error when it is missing."""
    path = Path(config.config_file_path).parent / SOURCE
    if not path.is_file():
        raise PluginError(
            f"mermaid_local hook: {SOURCE} is missing. Run `npm ci --ignore-scripts` (scripts/install.sh does) "
            "so diagrams render without a CDN."
        )
    return path


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    source_path(config)  # fail before building, not after
    return config


def script_tag(page_url: str) -> str:
    """The ``<script>`` for the site's mermaid, relative to the page at ``page_url`` (``""`` = home)."""
    depth = page_url.count("/")
    rel = posixpath.join(*([".."] * depth), TARGET) if depth else TARGET
    return f'<script type="module">import mermaid from "./{rel}"; window.mermaid = mermaid;</script>'


def inject(html: str, page_url: str) -> str:
    """``html`` with the mermaid script placed before Material's bundle, if the page draws a diagram."""
    if not _DIAGRAM.search(html):
        return html
    m = _BUNDLE.search(html)
    if m is None:
        raise PluginError(f"mermaid_local hook: no Material bundle <script> found on {page_url or '/'}")
    return html[: m.start()] + script_tag(page_url) + "\n  " + html[m.start() :]


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    return inject(output, page.url)


def on_post_build(config: MkDocsConfig) -> None:
    source = source_path(config)
    dest = Path(config.site_dir) / TARGET_DIR
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, dest / source.name)
    # the chunks the entry imports lazily, without their source maps (17 MB of them)
    shutil.copytree(source.parent / CHUNKS, dest / CHUNKS, ignore=shutil.ignore_patterns("*.map"), dirs_exist_ok=True)
