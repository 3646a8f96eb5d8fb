"""mkdocs hook: point mkdocstrings' Python handler at the pinned verl release, read statically.

The release is the checker's own (``verl_cookbook.verl_source.from_release()``: the wheel unpacked in
its cache), so the API reference and the checks describe the same source. griffe only parses it:
``allow_inspection: false`` in mkdocs.yml, nothing of verl is imported. No network once the cache is
warm; a cold cache downloads the wheel once, as ``verl-cookbook check`` does.

griffe loads a whole top-level package: all of verl's 800 modules, once per language, for the dozen
classes the pages render (half the build's time). So the handler reads a slice of the release instead: a
temporary folder of links to the modules the pages name in ``::: verl.…`` blocks and to their packages'
``__init__.py``; the files are the release's own.
"""

from __future__ import annotations

import atexit
import logging
import re
import shutil
import tempfile
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

log = logging.getLogger("mkdocs.hooks.verl_source")
_BLOCK = re.compile(r"^:::\s+(verl(?:\.\w+)+)", re.M)


def rendered_modules(docs: Path, package: Path) -> list[str]:
    """verl's module files (relative to the release root) that the pages' ``::: verl.…`` blocks name."""
    out: set[str] = set()
    for page in docs.rglob("*.md"):
        for ident in _BLOCK.findall(page.read_text(encoding="utf-8")):
            parts = ident.split(".")
            for n in range(len(parts), 1, -1):
                rel = "/".join(parts[:n])
                if (package.parent / f"{rel}.py").is_file():
                    out.add(f"{rel}.py")
                    break
                if (package.parent / rel / "__init__.py").is_file():
                    out.add(f"{rel}/__init__.py")
                    break
    return sorted(out)


def slice_of(root: Path, modules: list[str], dest: Path) -> Path:
    """``dest`` holding links to ``modules`` of the release at ``root`` and to their packages' ``__init__.py``."""
    for rel in modules:
        parts = rel.split("/")
        for n in range(1, len(parts)):
            init = "/".join(parts[:n]) + "/__init__.py"
            if (root / init).is_file() and not (dest / init).exists():
                (dest / init).parent.mkdir(parents=True, exist_ok=True)
                (dest / init).symlink_to(root / init)
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            target.symlink_to(root / rel)
    return dest


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
    modules = rendered_modules(Path(config.docs_dir), tree.package)
    tmp = Path(tempfile.mkdtemp(prefix="verl-cookbook-griffe-"))
    atexit.register(shutil.rmtree, tmp, True)
    root = str(slice_of(tree.root, modules, tmp))
    if root not in paths:
        python["paths"] = [root, *paths]
    config.extra["verl_release"] = tree.label
    log.debug("mkdocstrings reads %d modules of verl %s from %s", len(modules), tree.label, root)
    return config
