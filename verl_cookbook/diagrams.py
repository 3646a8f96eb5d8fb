"""Pre-rendered diagrams: each mermaid fence of the site has an SVG kept in ``docs/diagrams/``.

The file is named after a hash of what it was drawn from: the fence's text, the mermaid version pinned in
package.json and the drawing options below. Edit a diagram (or bump mermaid) and its SVG no longer
exists under the new name: the ``diagram`` check reports it and ``python scripts/render_diagrams.py``
draws it again (Debian's chromium with the pinned mermaid from node_modules; nothing is downloaded).
A flowchart drawn left to right is also drawn top to bottom (``narrow``), for phones: a wide drawing
scaled to a phone's width has unreadable labels. The site inlines the SVG(s) where the fence was
(``verl_cookbook.site_markdown.diagram_fence``), so a reader's browser runs no diagram JavaScript.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

DIAGRAMS_DIR = "docs/diagrams"
# what mermaid.initialize() gets in scripts/render_diagrams.py; part of every diagram's name
RENDER_OPTIONS = {
    "startOnLoad": False,
    "theme": "neutral",
    "securityLevel": "strict",
    "htmlLabels": False,
    "flowchart": {"htmlLabels": False, "useMaxWidth": False},
    "fontFamily": "-apple-system, BlinkMacSystemFont, Helvetica, Arial, 'WenQuanYi Micro Hei', sans-serif",
    "fontSize": 14,
}


_ACROSS = re.compile(r"^(\s*(?:(?:flowchart|graph)|direction)\s+)(?:LR|RL)\b", re.M)


def narrow(source: str) -> str | None:
    """``source`` drawn top to bottom, when it runs left to right anywhere; None otherwise."""
    out = _ACROSS.sub(r"\1TB", source)
    return out if out != source else None


def drawings(source: str) -> list[str]:
    """The sources an SVG is kept for: the fence as written and, if different, its narrow form."""
    n = narrow(source)
    return [source] if n is None else [source, n]


def mermaid_version(site_root: Path) -> str | None:
    """The mermaid version package.json pins, or None when the site does not pin one."""
    try:
        data = json.loads((site_root / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    version = data.get("dependencies", {}).get("mermaid")
    return str(version) if version else None


def diagram_key(source: str, version: str) -> str:
    """The name (without ``.svg``) of the SVG drawn from ``source`` by mermaid ``version``."""
    options = json.dumps(RENDER_OPTIONS, sort_keys=True)
    text = f"mermaid {version}\n{options}\n{source.strip()}\n"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def svg_path(site_root: Path, source: str) -> Path | None:
    """Where the SVG of ``source`` is kept (it may not exist yet); None when the site keeps no diagrams."""
    version = mermaid_version(site_root)
    if version is None or not (site_root / DIAGRAMS_DIR).is_dir():
        return None
    return site_root / DIAGRAMS_DIR / f"{diagram_key(source, version)}.svg"
