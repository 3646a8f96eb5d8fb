"""The built site in headless chromium: both languages, the switcher, search per language, offline, light and dark."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.browser.conftest import serve
from tests.built_site import built_site

pytestmark = pytest.mark.browser

CONTENT_PAGE = "contributing/"  # has a code block, a table, an admonition and a mermaid diagram


@dataclass
class Traffic:
    """Every request a page made, and the bytes its responses carried."""

    origin: str
    urls: list[str] = field(default_factory=list)
    bytes: int = 0
    failed: list[str] = field(default_factory=list)

    @property
    def foreign(self) -> list[str]:
        return [u for u in self.urls if not u.startswith(self.origin) and not u.startswith(("data:", "blob:"))]


def open_page(browser, url: str, color_scheme: str = "light", width: int = 1280, init_script: str | None = None):
    """A fresh context (empty cache, first load) on ``url``; returns (page, context, traffic). ``init_script`` runs
    in every page of the context before the page's own scripts."""
    origin = f"{urlsplit(url).scheme}://{urlsplit(url).netloc}/"
    traffic = Traffic(origin)
    context = browser.new_context(color_scheme=color_scheme, viewport={"width": width, "height": 900})
    context.set_default_timeout(60_000)  # a shared 2-core machine under load is slow, not broken
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    # anything that is not the local origin is aborted, so a leak cannot hang the test on an isolated network
    page.route(
        "**/*",
        lambda route: route.continue_() if route.request.url.startswith(origin) else route.abort(),
    )
    page.on("request", lambda r: traffic.urls.append(r.url))
    page.on("requestfailed", lambda r: traffic.failed.append(r.url))

    def count(response):
        try:
            traffic.bytes += len(response.body())
        except Exception:  # redirects and aborted requests have no body
            pass

    page.on("response", count)
    page.goto(url, wait_until="networkidle")
    return page, context, traffic


def search(page, query: str) -> list[str]:
    """Type ``query`` into Material's search and return the result links.

    ``fill`` inserts CJK text without key events (an IME ends with one); Material searches on keyup, so a
    harmless ``End`` key press follows, as it would after a real IME composition.
    """
    box = page.locator("input.md-search__input")
    box.click()
    box.fill(query)
    box.press("End")
    page.wait_for_selector(".md-search-result__item")  # the context's 60 s: the first search builds the index
    return page.eval_on_selector_all(".md-search-result__item > a", "els => els.map(e => e.href)")


def test_chinese_home_and_its_english_twin_load_without_leaving_the_origin(browser, site_url):
    page, ctx, traffic = open_page(browser, site_url)
    assert page.locator("html").get_attribute("lang") == "zh"
    assert "检查点引擎" in page.locator("article").inner_text()
    page2, ctx2, traffic2 = open_page(browser, site_url + "en/")
    assert page2.locator("html").get_attribute("lang") == "en"
    assert "checkpoint engine" in page2.locator("article").inner_text()
    for t in (traffic, traffic2):
        assert not t.foreign, f"requests left the site: {t.foreign}"
        assert not t.failed, f"failed requests: {t.failed}"
    ctx.close()
    ctx2.close()


def test_language_switcher_lands_on_the_same_page_in_the_other_language(browser, site_url):
    page, ctx, _ = open_page(browser, site_url + CONTENT_PAGE)
    page.locator(".md-header__option .md-select").hover()
    page.locator("a.md-select__link[hreflang='en']").click()
    page.wait_for_load_state("networkidle")
    assert page.url == site_url + "en/" + CONTENT_PAGE
    assert page.locator("html").get_attribute("lang") == "en"
    page.locator(".md-header__option .md-select").hover()
    page.locator("a.md-select__link[hreflang='zh']").click()
    page.wait_for_load_state("networkidle")
    assert page.url == site_url + CONTENT_PAGE
    ctx.close()


def hit_pages(hits: list[str]) -> list[str]:
    return [urlsplit(h)._replace(query="", fragment="").geturl() for h in hits]


def other_language_hits(root: str, start: str, hits: list[str]) -> list[str]:
    """The hits that are not pages of ``start``'s language (中文 at ``root``, English under ``root``en/)."""
    english = root + "en/"
    if start.startswith("en/"):
        return [h for h in hit_pages(hits) if not h.startswith(english)]
    return [h for h in hit_pages(hits) if h.startswith(english) or not h.startswith(root)]


LANGUAGE_SEARCHES = [
    ("", "白名单"),
    ("", "检查点引擎"),
    ("en/", "whitelist"),
    ("en/", "checkpoint"),
]


@pytest.mark.parametrize(("start", "query"), LANGUAGE_SEARCHES)
def test_search_lists_only_pages_of_the_current_language(browser, site_url, start, query):
    page, ctx, traffic = open_page(browser, site_url + start)
    hits = search(page, query)
    assert hit_pages(hits), f"{query}: nothing found"  # which page ranks where: tests/browser/test_search.py
    assert not other_language_hits(site_url, start, hits), f"{query} on /{start} lists the other language: {hits}"
    assert not traffic.foreign, traffic.foreign
    ctx.close()


@pytest.mark.parametrize(("start", "own_index"), [("", "search/"), ("en/", "en/search/")])
def test_search_index_is_fetched_on_first_use_and_only_the_pages_own_language(browser, site_url, start, own_index):
    page, ctx, traffic = open_page(browser, site_url + start + CONTENT_PAGE)
    assert not [u for u in traffic.urls if "search_index" in u], "the first load fetched a search index"
    search(page, "verl")
    indexes = [u for u in traffic.urls if "search_index" in u]
    assert indexes == [site_url + own_index + "search_index.json"], indexes
    ctx.close()


@pytest.mark.parametrize(
    ("width", "open_search"),
    [
        (1280, lambda page: page.keyboard.press("/")),  # Material's shortcut focuses the box
        (400, lambda page: page.locator("label.md-header__button[for='__search']").click()),  # phone: the icon
    ],
    ids=["shortcut", "phone"],
)
def test_every_way_of_opening_search_fetches_the_index(browser, site_url, width, open_search):
    page, ctx, traffic = open_page(browser, site_url + "en/", width=width)
    open_search(page)
    page.wait_for_function("performance.getEntriesByType('resource').some(e => e.name.includes('search_index'))")
    assert site_url + "en/search/search_index.json" in traffic.urls
    ctx.close()


def test_search_stays_in_its_language_under_a_mike_version_folder(browser, tmp_path):
    """mike serves each version from ``<site>/<version>/``: the English index must come from that folder."""
    (tmp_path / "latest").symlink_to(built_site().path, target_is_directory=True)
    with serve(tmp_path) as root:
        page, ctx, traffic = open_page(browser, root + "latest/en/")
        hits = search(page, "whitelist")
        assert root + "latest/en/" in hit_pages(hits), hits
        assert not other_language_hits(root + "latest/", "en/", hits), hits
        assert root + "latest/en/search/search_index.json" in traffic.urls
        ctx.close()


def _merged_index(site: Path) -> dict:
    """Both languages in one index, as mkdocs-static-i18n writes it."""
    zh = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    en = json.loads((site / "en" / "search" / "search_index.json").read_text(encoding="utf-8"))
    return {**zh, "docs": zh["docs"] + en["docs"]}


def _unsplit_english_index(site: Path) -> None:
    (site / "en" / "search" / "search_index.json").write_text(json.dumps(_merged_index(site)), encoding="utf-8")


def _unsplit_chinese_index(site: Path) -> None:
    (site / "search" / "search_index.json").write_text(json.dumps(_merged_index(site)), encoding="utf-8")


def _drop_the_language_script(site: Path) -> None:
    """/en/ without the script that points Material at the English index (it loads the 中文 one)."""
    page = site / "en" / "index.html"
    html = page.read_text(encoding="utf-8")
    start = html.index("<script>/* Search per language")
    page.write_text(html[:start] + html[html.index("</script>", start) + len("</script>") :], encoding="utf-8")


@pytest.mark.parametrize(
    ("start", "query", "breakage"),
    [
        ("en/", "whitelist", _unsplit_english_index),
        ("en/", "whitelist", _drop_the_language_script),
        ("", "checkpoint", _unsplit_chinese_index),
    ],
)
def test_language_check_fails_on_a_copy_whose_search_is_not_split(browser, tmp_path, start, query, breakage):
    site = tmp_path / "site"
    shutil.copytree(built_site().path, site)
    breakage(site)
    with serve(site) as root:
        page, ctx, _ = open_page(browser, root + start)
        hits = search(page, query)
        assert other_language_hits(root, start, hits), f"{breakage.__name__}: {query} on /{start}: no other language"
        ctx.close()


@pytest.mark.parametrize("page_path", ["contributing/", "backends/choosing/", "install/"])
@pytest.mark.parametrize("prefix", ["", "en/"])
def test_diagram_is_an_svg_in_the_page_and_no_diagram_script_loads(browser, site_url, prefix, page_path):
    page, ctx, traffic = open_page(browser, site_url + prefix + page_path, width=390)
    box = page.locator("figure.diagram svg >> visible=true").first.bounding_box()
    assert box and box["height"] > 50, "the diagram is not drawn"
    assert not [u for u in traffic.urls if "mermaid" in u or u.endswith(".mjs")], traffic.urls
    assert page.evaluate("typeof mermaid") == "undefined"
    labels = page.eval_on_selector_all("figure.diagram svg text", "els => els.map(e => e.textContent)")
    cjk = any(re.search(r"[\u4e00-\u9fff]", t) for t in labels)
    assert cjk == (prefix == ""), f"labels are not in the page's language: {labels[:5]}"
    ctx.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_diagram_text_contrasts_with_its_background_in_both_palettes(browser, site_url, scheme):
    page, ctx, _ = open_page(browser, site_url + "en/backends/choosing/", color_scheme=scheme)
    colours = page.evaluate(
        """() => {
          const text = document.querySelector("figure.diagram svg text");
          const node = document.querySelector("figure.diagram svg .node rect");
          const bg = getComputedStyle(document.body).backgroundColor;
          return [getComputedStyle(text).fill, getComputedStyle(node).fill, bg];
        }"""
    )
    text, node, body = (luminance(c) for c in colours)
    assert abs(node - body) < 0.05, f"{scheme}: the boxes are not drawn in the page's background: {colours}"
    assert contrast(text, node) >= 4.5, f"{scheme}: labels do not contrast with their boxes: {colours}"
    ctx.close()


def luminance(css: str) -> float:
    r, g, b = (int(v) / 255 for v in re.findall(r"[\d.]+", css)[:3])
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: float, b: float) -> float:
    hi, lo = max(a, b), min(a, b)
    return (hi + 0.05) / (lo + 0.05)


SCREENSHOT_PAGES = ["", "backends/choosing/", "backends/nccl-hccl/"]  # home; a diagram; citations and tables


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("prefix", ["", "en/"], ids=["zh", "en"])
@pytest.mark.parametrize("page_path", SCREENSHOT_PAGES, ids=["home", "choosing", "nccl-hccl"])
def test_screenshots_of_three_pages_per_language(browser, site_url, screenshots_dir, page_path, prefix, scheme):
    """Desktop and phone width, light and dark: looked at by a person; here, no sideways scrolling, no leak."""
    page, ctx, traffic = open_page(browser, site_url + prefix + page_path, color_scheme=scheme)
    expected = "slate" if scheme == "dark" else "default"
    assert page.locator("body").get_attribute("data-md-color-scheme") == expected
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(100)
        stem = page_path.strip("/").replace("/", "-") or "home"
        name = f"{stem}-{'en' if prefix else 'zh'}-{scheme}-{width}.png"
        # the bytes Playwright took, not the file read back: another run in this checkout may be writing it
        png = page.screenshot(path=str(screenshots_dir / name), full_page=False)
        assert len(png) > 10_000, f"{name}: {len(png)} bytes"
        assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{name}: the page scrolls sideways"
    assert not traffic.foreign, traffic.foreign
    ctx.close()
