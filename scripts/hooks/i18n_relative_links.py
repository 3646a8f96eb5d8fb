"""mkdocs hook: keep the language switcher relative on the home pages.

mkdocs-static-i18n points every page's switcher at its twin, except on the two home pages, where it keeps
its default ``<site_url path>/`` and ``<site_url path>/en/``: absolute paths that miss the version folder
mike deploys into (``/verl-cookbook/latest/``) and any server not at ``site_url``. This rewrites such links
to site-relative ones (``.``, ``en/``), which Material's ``url`` filter then makes page-relative.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority


def site_relative(link: str, site_url: str | None) -> str:
    """``/verl-cookbook/en/`` → ``en/`` when the site lives at ``/verl-cookbook/``; other links unchanged."""
    if not link.startswith("/") or link.startswith("//"):
        return link
    base = urlsplit(site_url or "").path.rstrip("/")
    if base and not (link == base or link.startswith(base + "/")):
        return link
    rel = link[len(base) :].lstrip("/")
    return rel or "."


@event_priority(-50)  # after mkdocs-static-i18n (50) has set this page's alternates
def on_page_context(context, page, config: MkDocsConfig, nav):
    # mkdocs-static-i18n sets ``config.extra.alternate`` as an attribute, which is what Jinja reads first
    for alts in (getattr(config.extra, "alternate", None), config.extra.get("alternate")):
        for alt in alts or []:
            alt["link"] = site_relative(alt.get("link", ""), config.site_url)
    return context
