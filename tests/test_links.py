"""Every internal link and anchor of the built site resolves, in both languages (checked on the HTML)."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

from tests.built_site import built_site

EXTERNAL_SCHEMES = ("http", "https", "mailto", "data", "javascript", "tel")


@dataclass
class PageLinks:
    ids: set[str] = field(default_factory=set)
    links: list[tuple[int, str]] = field(default_factory=list)  # (line, href/src)


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = PageLinks()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        for key in ("id", "name"):
            if a.get(key) and (key == "id" or tag == "a"):
                self.page.ids.add(a[key])
        ref = a.get("href") if tag in ("a", "link") else a.get("src") if tag in ("script", "img", "iframe") else None
        if ref:
            self.page.links.append((self.getpos()[0], ref))


def read_page(path: Path) -> PageLinks:
    c = _Collector()
    c.feed(path.read_text(encoding="utf-8"))
    return c.page


def html_pages(site: Path) -> list[Path]:
    # 404.html uses site_url-absolute paths by design (it is served from any depth)
    return sorted(p for p in site.rglob("*.html") if p.name != "404.html")


def _target(site: Path, url: str) -> Path:
    path = site / unquote(url)
    if url.endswith("/") or url == "":
        return path / "index.html"
    if path.is_dir():
        return path / "index.html"
    return path


def broken_links(site: Path) -> list[str]:
    """``page:line: href — why`` for every internal link, resource or anchor that does not resolve."""
    cache: dict[Path, PageLinks] = {}

    def info(p: Path) -> PageLinks:
        if p not in cache:
            cache[p] = read_page(p)
        return cache[p]

    out = []
    for page in html_pages(site):
        rel = page.relative_to(site).as_posix()
        page_url = rel[: -len("index.html")] if rel.endswith("index.html") else rel
        for line, ref in info(page).links:
            parts = urlsplit(ref)
            if parts.scheme in EXTERNAL_SCHEMES or ref.startswith("//"):
                continue
            if parts.scheme:
                out.append(f"{rel}:{line}: {ref} — unknown URL scheme")
                continue
            resolved = urlsplit(urljoin("/" + page_url, ref))
            if not resolved.path.startswith("/"):
                continue
            target = _target(site, resolved.path.lstrip("/"))
            if not target.resolve().is_relative_to(site.resolve()):
                out.append(f"{rel}:{line}: {ref} — points outside the site")
                continue
            if not target.is_file():
                out.append(f"{rel}:{line}: {ref} — no such file {target.relative_to(site)}")
                continue
            frag = unquote(resolved.fragment)
            if frag and target.suffix == ".html" and frag not in info(target).ids:
                out.append(f"{rel}:{line}: {ref} — no element with id `{frag}` on {target.relative_to(site)}")
    return out


def external_refs(site: Path) -> list[str]:
    """``page:line: url`` of every reference that leaves the site (links to other sites are fine; loads are not)."""
    out = []
    for page in html_pages(site):
        for line, ref in read_page(page).links:
            if urlsplit(ref).scheme in ("http", "https") or ref.startswith("//"):
                out.append(f"{page.relative_to(site).as_posix()}:{line}: {ref}")
    return out


# ---- the checker itself, on a small fixture ------------------------------------------------------------------


@pytest.fixture
def tiny_site(tmp_path: Path) -> Path:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text('<h2 id="x">x</h2><a href="../">home</a>')
    (tmp_path / "index.html").write_text(
        '<a href="a/">ok</a>\n<a href="a/#x">ok</a>\n<a href="b/">missing page</a>\n'
        '<a href="a/#y">missing anchor</a>\n<a href="#top">missing here</a>\n<p id="me"><a href="#me">ok</a></p>\n'
        '<a href="https://example.org/">external</a>\n<script src="assets/app.js"></script>\n'
    )
    return tmp_path


def test_link_checker_reports_missing_pages_anchors_and_resources(tiny_site):
    found = broken_links(tiny_site)
    assert [f.split(" — ")[0] for f in found] == [
        "index.html:3: b/",
        "index.html:4: a/#y",
        "index.html:5: #top",
        "index.html:8: assets/app.js",
    ]


def test_external_refs_are_listed(tiny_site):
    assert external_refs(tiny_site) == ["index.html:7: https://example.org/"]


# ---- the real site ----------------------------------------------------------------------------------------------


def test_every_internal_link_and_anchor_resolves_in_both_languages():
    site = built_site().path
    pages = html_pages(site)
    assert any(p.relative_to(site).parts[0] == "en" for p in pages), "no English pages were built"
    assert sum(1 for p in pages if p.relative_to(site).parts[0] != "en") > 1, "no 中文 pages were built"
    found = broken_links(site)
    assert not found, "\n".join(found)


def test_built_pages_reference_no_other_site_except_plain_links():
    """Links to the repository are fine (a click); a stylesheet, script or image from elsewhere is a request."""
    site = built_site().path
    loads = []
    for page in html_pages(site):
        text = page.read_text(encoding="utf-8")
        for marker in ('<script src="http', '<link rel="stylesheet" href="http', '<img src="http', "fonts.googleapis"):
            if marker in text:
                loads.append(f"{page.relative_to(site)}: {marker}")
    assert not loads, "\n".join(loads)
