"""mkdocs hook: generate the compatibility pages from the facts of every covered verl release.

Adds ``compat/backends.md``, ``compat/backends.en.md``, ``compat/settings.md`` and
``compat/settings.en.md`` as virtual files (``File.generated``): nothing is written under docs/, no
cell is typed by hand. The tables come from ``verl_cookbook.compat`` (pure, unit-tested), the facts
from ``verl_cookbook.verl_source.from_release`` for each release in ``data/releases.yaml`` (wheels
cached by ``scripts/install.sh``; a cold cache downloads them once, as ``verl-cookbook check`` does).
It runs before mkdocs-static-i18n sorts files by language (that plugin's ``on_files`` has priority -100).
"""

from __future__ import annotations

import logging
import os

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation

log = logging.getLogger("mkdocs.hooks.compat_pages")


def generated_pages() -> dict[str, str]:
    """``{src_uri: markdown}`` for every compatibility page, in both languages."""
    from verl_cookbook.compat import render_all
    from verl_cookbook.facts import load_facts
    from verl_cookbook.releases import covered_releases, default_release
    from verl_cookbook.verl_source import VerlSourceError, from_release

    try:
        facts = {r: load_facts(from_release(r)).data for r in covered_releases()}
    except VerlSourceError as e:
        raise PluginError(f"compat_pages hook: {e}") from None
    return render_all(facts, default_release())


_pages: dict[str, str] = {}


@event_priority(50)  # before mkdocs-static-i18n (-100) sorts files by language
def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the pages as virtual files that mkdocs-static-i18n takes for files of docs/.

    The i18n plugin re-creates every file of docs_dir from its path (it keeps no in-memory content),
    so each generated file names the path it would have under docs/; ``on_nav`` then
    hands the content to the files the plugin kept. Nothing is written there.
    """
    _pages.clear()
    _pages.update(generated_pages())
    for src_uri, content in _pages.items():
        if files.get_file_from_path(src_uri) is not None:
            raise PluginError(f"compat_pages hook: docs/{src_uri} exists, but this page is generated; delete the file")
        f = File.generated(config, src_uri, content=content)
        f.abs_src_path = os.path.normpath(os.path.join(config.docs_dir, src_uri))  # virtual: never created
        files.append(f)
        log.debug("generated %s", src_uri)
    return files


def on_nav(nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
    """After the i18n plugin has picked this build's files, before any page is read: fill in the content."""
    for f in files:
        if f.src_uri in _pages:
            f.content_string = _pages[f.src_uri]
    return nav
