"""mkdocs hook: each diagram is drawn no smaller than a legible text size; where it does not fit, it scrolls.

A diagram is an inlined SVG (``verl_cookbook.site_markdown.diagram_fence``), a left-to-right flowchart with
its top-to-bottom drawing beside it. Scaled to the content column, the widest drawing (1341 px) had 8 px text on
a desktop, and on a phone the narrow drawing overflowed its box with no sign that it scrolls. So, per figure:

* each drawing may shrink to fit its column, but only down to ``FLOOR_PX`` for its smallest text
  (``--diagram-floor``, the scale at which that happens; the CSS in docs/stylesheets/site.css applies it);
* the wide drawing shows only while the figure is at least that wide (a container query on the figure, written
  here because the threshold is the drawing's own); below it, the narrow drawing shows;
* a drawing still wider than its column at the floor scrolls sideways, with a shadow at the edge that can scroll
  (site.css), so a reader sees that there is more.

``FLOOR_PX`` is the size of the smallest text Material sets on a page (table text, 0.64 rem = 12.8 px), rounded
down. The browser test (tests/browser/test_readability.py) measures the rendered text.
"""

from __future__ import annotations

import re

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

FLOOR_PX = 12.0
_FIGURE = re.compile(r'<figure class="diagram( diagram--two)?">(.*?)</figure>', re.S)
_DRAWING = re.compile(r'<div class="(diagram-wide|diagram-narrow)" style="--diagram-width: ([\d.]+)px">')
# mermaid's root rule, ``#diagram-<key>{font-family:…;font-size:16px;…}``: the size of the labels
_ROOT_FONT = re.compile(r"#diagram-[\w-]+\{[^{}]*?font-size:\s*([\d.]+)px")
DEFAULT_FONT_PX = 16.0  # mermaid's default


def floor_scale(svg: str) -> float:
    """The scale at which the labels of ``svg`` are FLOOR_PX (never above 1: a drawing is not enlarged)."""
    m = _ROOT_FONT.search(svg)
    size = float(m.group(1)) if m else DEFAULT_FONT_PX
    return min(1.0, FLOOR_PX / size)


def fit(html: str) -> str:
    """``html`` with every diagram figure given an id, its drawings a floor scale, and its switch point."""
    count = 0

    def one(m: re.Match) -> str:
        nonlocal count
        count += 1
        ident = f"diagram-{count}"
        inner = m.group(2)
        parts = _DRAWING.split(inner)  # [before, cls, width, svg…, cls, width, svg…]
        out = [parts[0]]
        widths: dict[str, float] = {}
        scales: dict[str, float] = {}
        for i in range(1, len(parts), 3):
            cls, width, svg = parts[i], float(parts[i + 1]), parts[i + 2]
            scale = floor_scale(svg)
            widths[cls], scales[cls] = width, scale
            out.append(f'<div class="{cls}" style="--diagram-width: {width:.0f}px; --diagram-floor: {scale:.4f}">{svg}')
        style = ""
        if m.group(1) and "diagram-wide" in widths:
            below = widths["diagram-wide"] * scales["diagram-wide"]
            style = (
                f"<style>@container (max-width: {below - 0.02:.2f}px) {{ #{ident} .diagram-wide {{ display: none }}"
                f" #{ident} .diagram-narrow {{ display: block }} }}</style>"
            )
        return f'<figure class="diagram{m.group(1) or ""}" id="{ident}">{style}{"".join(out)}</figure>'

    return _FIGURE.sub(one, html)


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    return fit(html)
