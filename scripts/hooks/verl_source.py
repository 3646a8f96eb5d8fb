"""mkdocs hook: point mkdocstrings' Python handler at the pinned verl release, read statically.

The release is the checker's own (``verl_cookbook.verl_source.from_release()``: the wheel unpacked in
its cache), so the API reference and the checks describe the same source. griffe only parses it:
``allow_inspection: false`` in mkdocs.yml, nothing of verl is imported. No network once the cache is
warm; a cold cache downloads the wheel once, as ``verl-cookbook check`` does.
"""

from __future__ import annotations

import logging

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

log = logging.getLogger("mkdocs.hooks.verl_source")


@event_priority(100)  # before mkdocstrings reads its handler configuration
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    from verl_cookbook.verl_source import VerlSourceError, from_release

    try:
        tree = from_release()
    except VerlSourceError as e:
        raise PluginError(f"verl_source hook: {e}") from None
    plugin = config.plugins.get("mkdocstrings")
    if plugin is None:
        raise PluginError("verl_source hook: the mkdocstrings plugin is not configured in mkdocs.yml")
    python = plugin.config.setdefault("handlers", {}).setdefault("python", {})
    paths = list(python.get("paths") or ["."])
    root = str(tree.root)
    if root not in paths:
        python["paths"] = [root, *paths]
    config.extra["verl_release"] = tree.label
    log.debug("mkdocstrings reads verl %s from %s", tree.label, root)
    return config
