#!/usr/bin/env python3
"""(Re)build what ships with the package for each covered release (``verl_cookbook/data/releases.yaml``), from the
release's wheel (downloaded into the cache the checker uses, ``$VERL_COOKBOOK_CACHE``):
``verl_cookbook/data/facts/<version>.json``, the extracted facts; ``verl_cookbook/data/compositions/<version>.json``,
every config the facts know composed by Hydra with no group choice; and ``verl_cookbook/data/sources/<version>.json``,
the release's YAML, the few Python files ``doctor`` reads and the list of its files with their line counts
(``verl_source.shipped_sources``). Run it after changing a fact family, what ships, or the list of releases;
``tests/test_shipped_facts.py`` and ``tests/test_offline.py`` fail until the shipped files are what the release gives.

    python scripts/build_facts.py            # every covered release
    python scripts/build_facts.py 0.9.1      # one
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from verl_cookbook.facts import SHIPPED_DIR, compose, extract_all, require_whole_tree, shipped_text  # noqa: E402
from verl_cookbook.releases import covered_releases  # noqa: E402
from verl_cookbook.verl_source import SOURCES_DIR, VerlSourceError, from_release, shipped_sources  # noqa: E402


def build(version: str) -> Path:
    tree = from_release(version)
    require_whole_tree(tree)
    out = SHIPPED_DIR / f"{version}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    data = extract_all(tree)
    out.write_text(shipped_text(data), encoding="utf-8")
    compose.SHIPPED_DIR.mkdir(parents=True, exist_ok=True)
    compositions = compose.compose_known(tree, data["entry_points"]["configs"])
    (compose.SHIPPED_DIR / f"{version}.json").write_text(compose.shipped_text(compositions), encoding="utf-8")
    SOURCES_DIR.mkdir(parents=True, exist_ok=True)
    (SOURCES_DIR / f"{version}.json").write_text(sources_text(shipped_sources(tree)), encoding="utf-8")
    return out


def sources_text(data: dict) -> str:
    """What ships of a release's source, as JSON with one file per line (a change shows as a changed line)."""
    return json.dumps(data, ensure_ascii=False, indent=0, sort_keys=True) + "\n"


def main(argv: list[str]) -> int:
    versions = argv or covered_releases()
    unknown = [v for v in versions if v not in covered_releases()]
    if unknown:
        print(f"build_facts: not covered releases (see data/releases.yaml): {', '.join(unknown)}", file=sys.stderr)
        return 2
    for old in [*SHIPPED_DIR.glob("*.json"), *SOURCES_DIR.glob("*.json"), *compose.SHIPPED_DIR.glob("*.json")]:
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
