#!/usr/bin/env python3
"""Site figures: `mkdocs build --strict` time, and what a first visit costs in Debian's chromium.

For every page of both languages: requests and bytes on a first load (empty cache) from a plain static
server, the same bytes gzip-compressed (what GitHub Pages would send), and requests that leave the site
(target: 0). Prints both homes, every page that draws a diagram (mermaid is the heaviest asset) and the
maximum over all pages. Target: a content page ≤ 400 KB transferred. Prints figures, asserts nothing.
Run: ``python scripts/bench_site.py`` (or ``python scripts/bench.py --site``); env VERL_COOKBOOK_MKDOCS_CONFIG
builds another config.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import os
import sys
import tempfile
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.built_site import mkdocs_build  # noqa: E402

TARGET_KB = 400


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args) -> None:  # noqa: A002
        pass


def content_pages(site: Path) -> list[str]:
    """Every page of both languages (``""`` = 中文 home, ``en/`` = English home), as a site-relative URL."""
    pages = [p.parent.relative_to(site).as_posix() + "/" for p in site.rglob("index.html")]
    return sorted("" if p == "./" else p for p in pages)


def draws_a_diagram(site: Path, rel: str) -> bool:
    return 'class="mermaid"' in (site / rel / "index.html").read_text(encoding="utf-8")


def first_load(browser, url: str, origin: str) -> tuple[int, int, int, int]:
    """(requests, bytes, gzip bytes, foreign requests) of a first load of ``url``."""
    context = browser.new_context()
    page = context.new_page()
    stats = {"requests": 0, "bytes": 0, "gzip": 0, "foreign": 0}

    def on_request(r) -> None:
        stats["requests"] += 1
        if not r.url.startswith(origin):
            stats["foreign"] += 1

    def on_response(r) -> None:
        try:
            body = r.body()
        except Exception:
            return
        header = sum(len(k) + len(v) + 4 for k, v in r.headers.items())
        stats["bytes"] += len(body) + header
        stats["gzip"] += len(gzip.compress(body, 6)) + header

    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith(origin) else route.abort())
    page.on("request", on_request)
    page.on("response", on_response)
    page.goto(url, wait_until="networkidle")
    context.close()
    return stats["requests"], stats["bytes"], stats["gzip"], stats["foreign"]


def row(rel: str, n: int, raw: int, gz: int, foreign: int) -> str:
    flag = "" if gz / 1024 <= TARGET_KB else f"  > {TARGET_KB} KB target"
    return f"  /{rel:<33} {n:>8} {raw / 1024:>9.0f} {gz / 1024:>9.0f} {foreign:>11}{flag}"


def measure(site: Path) -> None:
    """Print the first-load figures of every page of the built ``site``."""
    from playwright.sync_api import sync_playwright

    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            print(f"  {'first load of':<34} {'requests':>8} {'KB raw':>9} {'KB gzip':>9} {'third-party':>11}")
            measured = []
            for rel in content_pages(site):
                n, raw, gz, foreign = first_load(browser, origin + rel, origin)
                measured.append((gz, rel, n, raw, foreign))
                if rel in ("", "en/") or draws_a_diagram(site, rel):
                    print(row(rel, n, raw, gz, foreign))
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    gz, rel, n, raw, _ = max(measured)
    print(f"  max over {len(measured)} pages (both languages): /{rel} {gz / 1024:.0f} KB gzip, {n} requests")
    print(f"  third-party requests over all pages: {sum(m[4] for m in measured)}")


def main() -> None:
    config = Path(os.environ.get("VERL_COOKBOOK_MKDOCS_CONFIG", REPO / "mkdocs.yml"))
    with tempfile.TemporaryDirectory(prefix="verl-cookbook-bench-site-") as tmp:
        built = mkdocs_build(Path(tmp) / "site", config)
        site = built.path
        html = list(site.rglob("*.html"))
        size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
        print(f"  mkdocs build --strict (both languages)                     {built.seconds:9.1f} s")
        print(f"  built site: {len(html)} HTML files, {size / 1e6:.1f} MB on disk")
        measure(site)


if __name__ == "__main__":
    main()
