"""Rebuild ``verl_cookbook/snapshots/resolver.json``, pip's answer for every version combination the pages claim
(``<!-- check: combo pins="…" verdict="…" -->``), or check it is current.

    python scripts/refresh_resolver.py            # resolve each combination with pip, rewrite the snapshot
    python scripts/refresh_resolver.py --check    # exit 1, saying what moved, when pip now answers otherwise
    python scripts/refresh_resolver.py --only "verl==0.9.1; numpy<2.0.0" --check   # one combination
    python scripts/refresh_resolver.py --only "verl==0.9.1; numpy<2.0.0"   # add or renew one, keep the others

The resolution is pip's own (``verl_cookbook.resolver``): ``pip install --dry-run --report`` with
``--only-binary=:all:`` and a glibc 2.35 / CPython 3.11 / x86_64 target. One resolution takes 2-65 s.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from verl_cookbook import resolver  # noqa: E402
from verl_cookbook.processes import Overdue  # noqa: E402

OUT = ROOT / "verl_cookbook" / "snapshots" / "resolver.json"
CLAIM = re.compile(r'check: combo pins="([^"]+)"')
# combinations the tests hold besides the pages' own (one that pip resolves all the way)
EXTRA = ["verl==0.9.1; numpy>=2.0.0"]


def page_combinations(root: Path = ROOT) -> list[str]:
    found = {m.group(1) for p in sorted((root / "docs").rglob("*.md")) for m in CLAIM.finditer(p.read_text("utf-8"))}
    return sorted(found | set(EXTRA))


def pins_of(text: str) -> list[str]:
    return [p.strip() for p in re.split(r"[;\n]", text) if p.strip()]


def entry(text: str) -> dict:
    started = time.monotonic()
    r = resolver.resolve(pins_of(text))
    took = time.monotonic() - started
    print(f"{took:5.1f} s  {r.verdict:8}  {text}", file=sys.stderr)
    out: dict = {"pins": text, "verdict": r.verdict}
    if r.lines:
        out["pip_says"] = list(r.lines)
    if r.installs:
        out["installs"] = list(r.installs)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed snapshot instead of writing")
    ap.add_argument("--only", action="append", help="resolve just this combination (repeatable)")
    args = ap.parse_args()
    combos = args.only or page_combinations()
    try:
        fresh = {resolver.key(pins_of(c)): entry(c) for c in combos}
    except (RuntimeError, Overdue) as e:  # pip gave no answer, or none in its time: nothing to compare or write
        print(f"refresh_resolver: {e}", file=sys.stderr)
        return 2
    if args.check:
        old = json.loads(OUT.read_text(encoding="utf-8"))["combinations"]
        moved = []
        for k, new in fresh.items():
            was = old.get(k)
            if was is None:
                moved.append(f"{k}: not in the snapshot (pip now says {new['verdict']})")
            elif (was["verdict"], was.get("pip_says")) != (new["verdict"], new.get("pip_says")):
                moved.append(
                    f"{k}: snapshot says {was['verdict']} {was.get('pip_says')}, pip now {new['verdict']} "
                    f"{new.get('pip_says')}"
                )
        for line in moved:
            print(line)
        return 1 if moved else 0
    pip_version = resolver.pip_version()
    if args.only:  # add or renew these combinations, keep the others (a full run rewrites them all)
        kept = json.loads(OUT.read_text(encoding="utf-8"))
        if kept.get("pip") != pip_version:  # the others stay the snapshot pip's answers: say whose these are
            fresh = {k: {**v, "pip": pip_version} for k, v in fresh.items()}
            pip_version = kept.get("pip", pip_version)
        fresh = {**kept["combinations"], **fresh}
    data = {
        "about": "pip's own resolver on each combination the pages claim; scripts/refresh_resolver.py, do not edit",
        "pip": pip_version,
        "target": f"CPython {resolver.PYTHON}, glibc {resolver.GLIBC[0]}.{resolver.GLIBC[1]}, {resolver.ARCH}, "
        "--only-binary=:all:, https://pypi.org/simple/",
        "combinations": dict(sorted(fresh.items())),
    }
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
