"""Diagrams and tables as a reader sees them, in both languages, at desktop (1440×900) and phone (390×844) width.

Diagram text is measured as rendered (font size × the SVG's scale on screen) against FLOOR_PX; a drawing or a
table wider than its box must scroll, with the edge shadow that says so; an identifier in a table may wrap only
at its joints (``_``, ``.``, ``/``, ``@``, between CamelCase words), never inside a word; no page view gets a 404.
Screenshots of the worst pages go to tests/browser/screenshots/ for a person to look at.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from tests.browser.conftest import load_together, serve
from tests.built_site import REPO, built_site

sys.path.insert(0, str(REPO / "scripts" / "hooks"))
from diagram_fit import FLOOR_PX  # noqa: E402

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
DIAGRAM_PAGES = ["backends/choosing/", "install/", "contributing/"]
TABLE_PAGES = [
    "backends/choosing/",
    "install/version-matrix/",
    "backends/nccl-hccl/",
    "install/",
    "ascend/hccl-whitelist/",
]

MEASURE = """() => {
  const cue = el => /radial-gradient/.test(getComputedStyle(el).backgroundImage)
    && ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
  const diagrams = [...document.querySelectorAll('figure.diagram svg')].filter(s => s.getBoundingClientRect().width)
    .map(svg => {
      const box = svg.parentElement;
      const sizes = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim())
        .map(t => t.getScreenCTM().a * parseFloat(getComputedStyle(t).fontSize));
      return {minFont: Math.min(...sizes), fits: box.scrollWidth <= box.clientWidth + 1, cue: cue(box),
              width: Math.round(svg.getBoundingClientRect().width), box: box.clientWidth};
    });
  const tables = [...document.querySelectorAll('article table')].map(t => {
    const wrap = t.closest('.md-typeset__scrollwrap');
    const broken = [];
    t.querySelectorAll('code, a').forEach(el => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      let top = null, prev = '';
      while (walker.nextNode()) {
        const node = walker.currentNode;
        for (let i = 0; i < node.length; i++) {
          const range = document.createRange(); range.setStart(node, i); range.setEnd(node, i + 1);
          const r = range.getBoundingClientRect(); if (!r.height) continue;
          const ch = node.data[i];
          const joint = /[\\s_\\/@.:\\-]/.test(prev) || /\\s/.test(ch) || (/[a-z]/.test(prev) && /[A-Z]/.test(ch))
            || /[^\\x00-\\x7f]/.test(prev + ch);
          if (top !== null && r.top > top + 2 && !joint) broken.push(el.textContent.trim().slice(0, 40));
          top = r.top; prev = ch;
        }
      }
    });
    return {fits: !wrap || wrap.scrollWidth <= wrap.clientWidth + 1, cue: !!wrap && cue(wrap), broken,
            width: Math.round(t.getBoundingClientRect().width), box: wrap ? wrap.clientWidth : null};
  });
  return {diagrams, tables};
}"""


def look_all(browser, views: list[tuple[str, dict, Path | None]], batch: int = 6) -> list[dict]:
    """What MEASURE sees on each ``(url, viewport, screenshot)`` of ``views``, each in a fresh context of its own, plus
    the URLs of responses that failed (status >= 400). ``batch`` views load at a time (load_together); each is
    measured once it is network idle."""
    out: list[dict] = []
    for start in range(0, len(views), batch):
        chunk = views[start : start + batch]
        opened = []
        for _url, viewport, _shot in chunk:
            context = browser.new_context(viewport=viewport)
            context.set_default_timeout(60_000)  # a shared 2-core machine under load is slow, not broken
            page = context.new_page()
            bad: list[str] = []
            page.on("response", lambda r, bad=bad: bad.append(f"{r.status} {r.url}") if r.status >= 400 else None)
            opened.append((context, page, bad))
        load_together([page for _c, page, _b in opened], [url for url, _v, _s in chunk])
        for (context, page, bad), (_url, _viewport, shot) in zip(opened, chunk, strict=True):
            seen = page.evaluate(MEASURE)
            if shot is not None:
                target = page.locator("figure.diagram >> visible=true")
                if not target.count():
                    target = page.locator("article table")
                target.first.scroll_into_view_if_needed()
                page.evaluate(
                    "document.querySelectorAll('.md-typeset__scrollwrap, figure.diagram > div')"
                    ".forEach(e => e.scrollLeft = 0)"
                )
                page.screenshot(path=str(shot))
            context.close()
            out.append({**seen, "errors": bad})
    return out


def look(browser, url: str, viewport: dict, shot: Path | None = None) -> dict:
    """What MEASURE sees on ``url``, plus the URLs of responses that failed (status >= 400)."""
    return look_all(browser, [(url, viewport, shot)])[0]


def diagram_problems(seen: dict, where: str) -> list[str]:
    out = []
    for d in seen["diagrams"]:
        if d["minFont"] < FLOOR_PX - 0.05:
            out.append(f"{where}: diagram text {d['minFont']:.1f} px < {FLOOR_PX} px ({d['width']} px wide)")
        if not d["fits"] and not d["cue"]:
            out.append(f"{where}: a {d['width']} px diagram in a {d['box']} px box, no visible scroll")
    return out


def table_problems(seen: dict, where: str) -> list[str]:
    out = []
    for t in seen["tables"]:
        if not t["fits"] and not t["cue"]:
            out.append(f"{where}: a {t['width']} px table in a {t['box']} px box, no visible scroll")
        out += [f"{where}: identifier broken mid-word: {b}" for b in t["broken"]]
    return out


@pytest.mark.parametrize("prefix", ["", "en/"], ids=["zh", "en"])
def test_diagram_text_is_legible_on_desktop_and_scrolls_visibly_on_a_phone(browser, site_url, screenshots_dir, prefix):
    problems, measured = [], 0
    views, wheres = [], []
    for path in DIAGRAM_PAGES:
        for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            stem = f"diagram-{path.strip('/').replace('/', '-')}-{prefix.strip('/') or 'zh'}-{viewport['width']}.png"
            views.append((site_url + prefix + path, viewport, screenshots_dir / stem))
            wheres.append((f"{prefix}{path}", name))
    for seen, (where, name) in zip(look_all(browser, views), wheres, strict=True):
        assert seen["diagrams"], f"{where}: no diagram drawn at {name} width"
        measured += len(seen["diagrams"])
        problems += diagram_problems(seen, f"{where} ({name})")
    assert measured >= 6
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("prefix", ["", "en/"], ids=["zh", "en"])
def test_tables_fit_or_scroll_visibly_and_never_break_an_identifier_mid_word(
    browser, site_url, screenshots_dir, prefix
):
    problems = []
    views, wheres = [], []
    for path in TABLE_PAGES:
        for viewport in (DESKTOP, PHONE):
            stem = f"table-{path.strip('/').replace('/', '-')}-{prefix.strip('/') or 'zh'}-{viewport['width']}.png"
            views.append((site_url + prefix + path, viewport, screenshots_dir / stem))
            wheres.append((f"{prefix}{path}", viewport["width"]))
    for seen, (where, width) in zip(look_all(browser, views), wheres, strict=True):
        assert seen["tables"], f"{where}: no table"
        problems += table_problems(seen, f"{where} @{width}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("prefix", ["", "en/"], ids=["zh", "en"])
def test_version_matrix_tables_fit_a_desktop_column(browser, site_url, prefix):
    """The tables the issue found cut off (the Source column: 774-814 px tables in a 720 px column) fit at 1440."""
    seen = look(browser, site_url + prefix + "install/version-matrix/", DESKTOP)
    assert len(seen["tables"]) >= 3
    assert all(t["fits"] for t in seen["tables"]), seen["tables"]


@pytest.mark.parametrize("prefix", ["", "en/"], ids=["zh", "en"])
def test_no_page_view_gets_a_404(browser, site_url, prefix):
    pages = sorted({p.relative_to(built_site().path).parent.as_posix() for p in built_site().path.rglob("index.html")})
    pages = [p for p in pages if (p.startswith("en") if prefix else not p.startswith("en"))]
    errors: list[str] = []
    context = browser.new_context(viewport=DESKTOP)  # one browser session, as a reader clicking through the site
    context.set_default_timeout(60_000)  # a shared 2-core machine under load is slow, not broken
    tabs = []
    for _ in range(min(6, len(pages))):  # a few tabs of that session, their loads overlapping (load_together)
        tab = context.new_page()
        current = {"rel": ""}
        tab.on(
            "response",
            lambda r, current=current: (
                errors.append(f"{current['rel']}: {r.status} {r.url}") if r.status >= 400 else None
            ),
        )
        tabs.append((tab, current))
    for start in range(0, len(pages), len(tabs)):
        chunk = pages[start : start + len(tabs)]
        for (_tab, current), rel in zip(tabs, chunk, strict=False):
            current["rel"] = rel
        load_together(
            [tab for tab, _c in tabs[: len(chunk)]], [site_url + ("" if rel == "." else rel + "/") for rel in chunk]
        )
    context.close()
    assert len(pages) >= 20
    assert not errors, "\n".join(errors[:20])


# ---- the checks go red on a copy of the site with the fix undone ------------------------------------------------


def _undo(site: Path, css: str) -> None:
    for page in site.rglob("index.html"):
        html = page.read_text(encoding="utf-8")
        page.write_text(html.replace("</head>", f"<style>{css}</style></head>", 1), encoding="utf-8")


@pytest.mark.parametrize(
    ("css", "check", "page", "viewport"),
    [
        # the drawings scaled to the column, as before: 8 px text on a desktop
        (
            ".md-typeset figure.diagram svg { width: 100% !important } .md-typeset figure.diagram .diagram-narrow "
            "{ display: none !important } .md-typeset figure.diagram .diagram-wide { display: block !important }",
            diagram_problems,
            "en/backends/choosing/",
            DESKTOP,
        ),
        # no edge shadow: the phone's diagram box scrolls with nothing to say so
        (
            ".md-typeset figure.diagram > div { background: none !important }",
            diagram_problems,
            "backends/choosing/",
            PHONE,
        ),
        # Material's own rule: code breaks anywhere
        (
            ".md-typeset table:not([class]) code { word-break: break-word !important;"
            " overflow-wrap: anywhere !important }",
            table_problems,
            "en/install/version-matrix/",  # generated tables of long package names and pins
            PHONE,
        ),
    ],
    ids=["diagram-scaled-to-column", "no-scroll-cue", "code-breaks-anywhere"],
)
def test_the_readability_checks_fail_on_a_copy_with_the_fix_undone(browser, tmp_path, css, check, page, viewport):
    site = tmp_path / "site"
    shutil.copytree(built_site().path, site)
    _undo(site, css)
    with serve(site) as root:
        seen = look(browser, root + page, viewport)
    assert check(seen, page), f"{check.__name__} found nothing on {page} with: {css}"
