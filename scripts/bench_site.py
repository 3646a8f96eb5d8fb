#!/usr/bin/env python3
"""Site figures: `mkdocs build --strict` time, and what a first visit of every page costs in Debian's chromium.

For every page of both languages: requests on a first load (empty cache) from a plain static server,
the bytes they carried, the same bytes gzip-compressed (what GitHub Pages sends), and requests that leave
the site. Targets (issue 10): each page ≤ 150 KB gzip and ≤ 15 requests, 0 off-origin requests, a strict
build of both languages ≤ 10 s. The build is timed as wall time and as CPU time (user + system), since
wall time on a shared machine mostly measures the other jobs. Prints figures and flags misses; asserts
nothing. Run: ``python scripts/bench_site.py`` (or ``python scripts/bench.py --site``); env
VERL_COOKBOOK_MKDOCS_CONFIG builds another config; ``--builds N`` times N builds (default 1).
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import os
import statistics
import sys
import tempfile
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.built_site import mkdocs_build  # noqa: E402

TARGET_GZIP_KB = 150
TARGET_REQUESTS = 15
TARGET_BUILD_S = 10


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args) -> None:  # noqa: A002
        pass


def content_pages(site: Path) -> list[str]:
    """Every page of both languages (``""`` = 中文 home, ``en/`` = English home), as a site-relative URL."""
    pages = [p.parent.relative_to(site).as_posix() + "/" for p in site.rglob("index.html")]
    return sorted("" if p == "./" else p for p in pages)


def first_load(browser, url: str, origin: str) -> tuple[int, int, int, int]:
    """(requests, bytes, gzip bytes, off-origin requests) of a first load of ``url``."""
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
    misses = []
    if gz / 1024 > TARGET_GZIP_KB:
        misses.append(f"> {TARGET_GZIP_KB} KB")
    if n > TARGET_REQUESTS:
        misses.append(f"> {TARGET_REQUESTS} requests")
    if foreign:
        misses.append("off-origin")
    flag = f"  MISSES: {', '.join(misses)}" if misses else ""
    return f"  /{rel:<38} {n:>8} {raw / 1024:>8.0f} {gz / 1024:>8.0f} {foreign:>10}{flag}"


def measure(site: Path) -> None:
    """Print the first-load figures of every page of the built ``site``."""
    from playwright.sync_api import sync_playwright

    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}/"
    measured = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            print(f"  {'first load of':<39} {'requests':>8} {'KB raw':>8} {'KB gzip':>8} {'off-origin':>10}")
            for rel in content_pages(site):
                n, raw, gz, foreign = first_load(browser, origin + rel, origin)
                measured.append((gz, rel, n, raw, foreign))
                print(row(rel, n, raw, gz, foreign))
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    gz, rel, n, raw, _ = max(measured)
    most = max(measured, key=lambda m: m[2])
    print(f"  heaviest of {len(measured)} pages (both languages): /{rel} {gz / 1024:.0f} KB gzip")
    print(f"  most requests: /{most[1]} {most[2]} requests")
    print(f"  off-origin requests over all pages: {sum(m[4] for m in measured)}")
    over = [m[1] for m in measured if m[0] / 1024 > TARGET_GZIP_KB or m[2] > TARGET_REQUESTS or m[4]]
    print(f"  pages missing a target ({TARGET_GZIP_KB} KB gzip, {TARGET_REQUESTS} requests, 0 off-origin): {len(over)}")


def main(argv: list[str] | None = None) -> None:
    """Build, time and measure; ``argv`` are this script's options (none when scripts/bench.py calls it)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--builds", type=int, default=1, help="time this many strict builds (the site of the last)")
    args = ap.parse_args(argv or [])
    config = Path(os.environ.get("VERL_COOKBOOK_MKDOCS_CONFIG", REPO / "mkdocs.yml"))
    with tempfile.TemporaryDirectory(prefix="verl-cookbook-bench-site-") as tmp:
        builds = [mkdocs_build(Path(tmp) / f"site{i}", config) for i in range(max(1, args.builds))]
        site = builds[-1].path
        wall = statistics.median(b.seconds for b in builds)
        cpu = statistics.median(b.cpu_seconds for b in builds)
        load = os.getloadavg()[0]
        flag = "" if wall <= TARGET_BUILD_S else f"  (wall > {TARGET_BUILD_S} s target; load average {load:.1f})"
        print(f"  mkdocs build --strict, both languages, median of {len(builds)}: {wall:.1f} s wall{flag}")
        print(f"  the same builds' CPU time (user + system): {cpu:.1f} s")
        html = list(site.rglob("*.html"))
        size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
        print(f"  built site: {len(html)} HTML files, {size / 1e6:.1f} MB on disk")
        measure(site)


if __name__ == "__main__":
    main(sys.argv[1:])
