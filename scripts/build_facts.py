#!/usr/bin/env python3
"""(Re)build the facts shipped with the package: one ``verl_cookbook/data/facts/<version>.json`` per covered release
(``verl_cookbook/data/releases.yaml``), extracted from the release's wheel (downloaded into the cache the checker
uses, ``$VERL_COOKBOOK_CACHE``). Run it after changing a fact family or the list of releases;
``tests/test_shipped_facts.py`` fails until the shipped files are what extraction gives.

    python scripts/build_facts.py            # every covered release
    python scripts/build_facts.py 0.9.1      # one
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from verl_cookbook.facts import SHIPPED_DIR, extract_all, require_whole_tree, shipped_text  # noqa: E402
from verl_cookbook.releases import covered_releases  # noqa: E402
from verl_cookbook.verl_source import VerlSourceError, from_release  # noqa: E402


def build(version: str) -> Path:
    tree = from_release(version)
    require_whole_tree(tree)
    out = SHIPPED_DIR / f"{version}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(shipped_text(extract_all(tree)), encoding="utf-8")
    return out


def main(argv: list[str]) -> int:
    versions = argv or covered_releases()
    unknown = [v for v in versions if v not in covered_releases()]
    if unknown:
        print(f"build_facts: not covered releases (see data/releases.yaml): {', '.join(unknown)}", file=sys.stderr)
        return 2
    for old in SHIPPED_DIR.glob("*.json"):
        if not argv and old.stem not in versions:
            old.unlink()  # a release no longer covered
    try:
        for v in versions:
            print(f"{build(v)}  ({v})")
    except VerlSourceError as e:
        print(f"build_facts: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
