"""mkdocs hook: Material asks for the site's one sitemap.xml, not one beside every page.

Material fetches ``sitemap.xml`` relative to each ``<link rel="alternate">`` of a page, expecting those to be
language roots; mkdocs-static-i18n writes them per page (``../../../ascend/ports/``, which is right for search
engines' hreflang), so every page view asked for two ``<page>/sitemap.xml`` that do not exist (404). A small
inline script, placed before Material's bundle, sends a request for any ``…/sitemap.xml`` under the site to
the site's own ``sitemap.xml``. Instant navigation and the language links behave as before.
"""

from __future__ import annotations

import re

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.pages import Page

_BUNDLE = re.compile(r'<script src="[^"]*assets/javascripts/bundle\.[0-9a-f]+\.min\.js"></script>')
SCRIPT = """<script>/* One sitemap (scripts/hooks/sitemap_requests.py) */(function () {
  var config = document.getElementById("__config");
  if (!config || !window.XMLHttpRequest || !window.URL) return;
  var base = new URL(JSON.parse(config.textContent).base, location.href);
  var root = new URL("sitemap.xml", base).href;
  var open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url) {
    var args = Array.prototype.slice.call(arguments);
    var target = new URL(url, location.href);
    if (/\\/sitemap\\.xml$/.test(target.pathname) && target.href.indexOf(base.href) === 0) args[1] = root;
    return open.apply(this, args);
  };
})();</script>"""


def inject(html: str, where: str) -> str:
    m = _BUNDLE.search(html)
    if m is None:
        raise PluginError(f"sitemap_requests hook: no Material bundle <script> found on {where}")
    return html[: m.start()] + SCRIPT + "\n  " + html[m.start() :]


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    return inject(output, page.url or "/")


def on_post_template(output_content: str, template_name: str, config: MkDocsConfig) -> str:
    if not template_name.endswith(".html") or not _BUNDLE.search(output_content):
        return output_content  # sitemap.xml and the like
    return inject(output_content, template_name)
