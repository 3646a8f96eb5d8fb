"""mkdocs hook: the version selector only where mike publishes versions.

mkdocs.yml declares mike as the version provider (``extra.version``), so Material fetches ``../versions.json``
on every page view. mike writes that file beside the version folders it deploys; a plain ``mkdocs build`` or
``mkdocs serve`` has none, so every page view got a 404. mike builds each version with MIKE_DOCS_VERSION set
(mike/mkdocs_utils.py); without it this hook drops ``extra.version`` from the build's config, and Material
neither shows a selector nor asks for the file. mkdocs.yml itself is unchanged (mike and Zensical read it).
"""

from __future__ import annotations

import os

from mkdocs.config.defaults import MkDocsConfig

MIKE_ENV = "MIKE_DOCS_VERSION"


def without_version_selector(extra: dict, environ: dict[str, str]) -> dict:
    """``extra`` as the build should see it: unchanged under mike, without ``version`` otherwise."""
    if environ.get(MIKE_ENV):
        return extra
    return {k: v for k, v in extra.items() if k != "version"}


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    extra = dict(config.extra)
    kept = without_version_selector(extra, dict(os.environ))
    if kept != extra:
        config.extra.pop("version", None)
    return config
