"""Headless Debian chromium through Playwright, against the built site on a local static server.

Browser tests never skip: without chromium or Playwright they fail and say how to install them.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.built_site import built_site

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args) -> None:  # noqa: A002
        pass


@contextlib.contextmanager
def serve(directory: Path) -> Iterator[str]:
    """``directory`` on a plain static file server (no compression, no rewriting); yields its root URL."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def load_together(pages: list, urls: list[str]) -> None:
    """Navigate each of ``pages`` (tabs or contexts of one browser) to its URL and wait until every one is network
    idle, as ``page.goto(url, wait_until="networkidle")`` one after another would, but with the waits overlapping:
    every navigation is started first (``commit``: the server answered), then each page's ``networkidle`` (no
    request for 500 ms) is awaited in turn. Sequential loads spent most of their time in those idle 500 ms."""
    assert len(pages) == len(urls)
    for page, url in zip(pages, urls, strict=True):
        page.goto(url, wait_until="commit")
    for page in pages:
        page.wait_for_load_state("networkidle")


@pytest.fixture(scope="session")
def site_url() -> Iterator[str]:
    """The built site on a plain static file server, like an isolated host."""
    with serve(built_site().path) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).is_file() and not shutil.which("chromium"):
        pytest.fail(
            f"{CHROMIUM} is missing: install Debian's chromium (`apt-get install -y chromium`, "
            "which scripts/install.sh does when run as root). Browser tests do not skip."
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("playwright is not installed: `pip install -e '.[test]'` (scripts/install.sh does)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def screenshots_dir() -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS
