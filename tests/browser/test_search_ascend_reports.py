"""Users' reports, typed into the site search the way they were phrased, find the page that answers them
(Ascend, backends and install pages; both languages)."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.browser

# (language root, what the user types, the page that answers it)
REPORTS = [
    ("en/", "destroyComm", "en/ascend/known-issues/"),
    ("en/", "not registered cupy", "en/install/"),
    ("en/", "TaskRunner", "en/install/"),
    ("en/", "torch_npu CANN", "en/install/version-matrix/"),
    ("en/", "HCCL_IF_BASE_PORT", "en/ascend/ports/"),
    ("en/", "ASCEND_BUFFER_POOL", "en/ascend/ascend-direct-tuning/"),
    ("en/", "receive weights done", "en/backends/verify-sync/"),
    ("", "端口冲突", "ascend/ports/"),
    ("", "缓冲池", "ascend/ascend-direct-tuning/"),
    ("", "软件栈", "install/version-matrix/"),
    ("", "驱动进程", "install/"),
    ("", "同步是否成功", "backends/verify-sync/"),
]


def hit_pages(hits: list[str]) -> list[str]:
    """The result links without their anchors: the pages found."""
    return [urlsplit(h)._replace(query="", fragment="").geturl() for h in hits]


def fresh_search(context, url: str, query: str) -> list[str]:
    """Result links for ``query`` on a newly opened ``url`` (no results left over from an earlier query);
    [] when Material finds nothing."""
    page = context.new_page()
    page.goto(url, wait_until="networkidle")
    box = page.locator("input.md-search__input")
    box.click()
    box.fill(query)
    box.press("End")  # Material searches on keyup; fill() sends none for CJK text
    try:
        page.wait_for_selector(".md-search-result__item", timeout=10000)
    except PlaywrightTimeout:
        return []
    finally:
        hits = page.eval_on_selector_all(".md-search-result__item > a", "els => els.map(e => e.href)")
        page.close()
    return hits


@pytest.mark.parametrize("start", sorted({r[0] for r in REPORTS}))
def test_each_report_finds_the_page_that_answers_it(browser, site_url, start):
    context = browser.new_context()  # one context per language: the search index is fetched once
    missed = []
    for _, query, expected in [r for r in REPORTS if r[0] == start]:
        hits = hit_pages(fresh_search(context, site_url + start, query))
        if site_url + expected not in hits:
            missed.append(f"{query!r}: expected {expected}, got {[h.removeprefix(site_url) for h in hits[:8]]}")
    context.close()
    assert not missed, "\n".join(missed)
