#!/usr/bin/env python3
"""Draw every mermaid fence of docs/ as SVG in docs/diagrams/ (see verl_cookbook/diagrams.py).

Uses Debian's chromium (headless, through Playwright) and the mermaid pinned in package.json, from
node_modules (``npm ci``); nothing is downloaded. Draws only the diagrams whose SVG is missing, and
removes SVGs no fence draws any more. ``--check`` changes nothing and exits 1 if anything is missing or
stale. Run: ``python scripts/render_diagrams.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from verl_cookbook.diagrams import DIAGRAMS_DIR, RENDER_OPTIONS, diagram_key, drawings, mermaid_version  # noqa: E402
from verl_cookbook.markdown import parse_page  # noqa: E402

MERMAID_JS = REPO / "node_modules" / "mermaid" / "dist" / "mermaid.min.js"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking"]


def fences(docs: Path) -> dict[str, str]:
    """``{key: mermaid source}`` of every mermaid fence under ``docs``."""
    version = mermaid_version(REPO)
    if version is None:
        raise SystemExit("package.json pins no mermaid version")
    out: dict[str, str] = {}
    for path in sorted(docs.rglob("*.md")):
        for block in parse_page(path, REPO).blocks:
            if block.lang == "mermaid":
                for source in drawings(block.code):  # as written, and top to bottom for phones
                    out[diagram_key(source, version)] = source
    return out


def render(sources: dict[str, str]) -> dict[str, str]:
    """``{key: svg}`` drawn in chromium by the pinned mermaid."""
    from playwright.sync_api import sync_playwright

    if not MERMAID_JS.is_file():
        raise SystemExit(f"{MERMAID_JS.relative_to(REPO)} is missing: run `npm ci --ignore-scripts`")
    out: dict[str, str] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        page = browser.new_page()
        page.route("**/*", lambda route: route.abort())  # offline: the page loads nothing
        page.set_content("<!doctype html><meta charset=utf-8><body></body>")
        page.add_script_tag(path=str(MERMAID_JS))
        page.evaluate(f"mermaid.initialize({json.dumps(RENDER_OPTIONS)})")
        for key, source in sources.items():
            svg = page.evaluate("async ([id, src]) => (await mermaid.render(id, src)).svg", [f"diagram-{key}", source])
            out[key] = svg
        browser.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if an SVG is missing or stale")
    args = ap.parse_args()
    folder = REPO / DIAGRAMS_DIR
    wanted = fences(REPO / "docs")
    have = {p.stem for p in folder.glob("*.svg")}
    missing = {k: v for k, v in wanted.items() if k not in have}
    stale = sorted(have - set(wanted))
    if args.check:
        for key in missing:
            print(f"missing: {DIAGRAMS_DIR}/{key}.svg")
        for key in stale:
            print(f"stale: {DIAGRAMS_DIR}/{key}.svg")
        return 1 if missing or stale else 0
    folder.mkdir(parents=True, exist_ok=True)
    for key, svg in render(missing).items():
        (folder / f"{key}.svg").write_text(svg + "\n", encoding="utf-8")
        print(f"drew {DIAGRAMS_DIR}/{key}.svg")
    for key in stale:
        (folder / f"{key}.svg").unlink()
        print(f"removed {DIAGRAMS_DIR}/{key}.svg")
    print(f"{len(wanted)} diagrams, {len(missing)} drawn, {len(stale)} removed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
