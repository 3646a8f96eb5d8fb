"""Rebuild the commit, line, text and value of each entry in ``verl_cookbook/snapshots/stack_facts.yaml``.

    python scripts/refresh_stack_facts.py --checkout kvcache-ai/Mooncake=~/src/Mooncake \\
        --checkout MoonshotAI/checkpoint-engine=~/src/checkpoint-engine ...     # rewrite
    python scripts/refresh_stack_facts.py --checkout ... --check                 # exit 1 when a value moved

A checkout is any git directory (bare mirrors too): the file is read with ``git show REF:path`` at the entry's
``ref`` (a release tag) or at HEAD. Each entry's ``pattern`` is searched in the file; group 1 is the value.
``--check`` fails when a value changed, a pattern no longer matches, or a file is gone: a page claim rests on
it (``<!-- check: fact id=… value=… -->``). A moved line with the same value is rewritten silently.
Entries without a checkout given (and the dated hiascend.com pages, which are not git sources) are kept as
they are and listed as not refreshed.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import yaml

SNAPSHOT = Path(__file__).resolve().parents[1] / "verl_cookbook" / "snapshots" / "stack_facts.yaml"


def git(repo_dir: str, *args: str) -> str:
    cmd = ["git", "-C", repo_dir, *args]
    return subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=300).stdout


def locate(source: str, pattern: str, near: int | None) -> tuple[int, str, str] | None:
    """(line, stripped text, value) of the match of ``pattern`` nearest to line ``near``."""
    rx = re.compile(pattern)
    hits = []
    for i, line in enumerate(source.splitlines(), 1):
        m = rx.search(line)
        if m:
            hits.append((i, line.strip(), m.group(1) if m.groups() else m.group(0)))
    if not hits:
        return None
    return min(hits, key=lambda h: abs(h[0] - (near or h[0])))


def refresh(facts: list[dict], checkouts: dict[str, str]) -> tuple[list[str], list[str]]:
    """Update ``facts`` in place; return (problems, not refreshed)."""
    problems, skipped = [], []
    for f in facts:
        repo = f.get("repo")
        if repo is None:
            skipped.append(f"{f['id']} (cann {f.get('cann')}): a documentation page, read on {f.get('read_at')}")
            continue
        if repo not in checkouts:
            skipped.append(f"{f['id']}: no --checkout for {repo}")
            continue
        ref = f.get("ref", "HEAD")
        commit = git(checkouts[repo], "rev-parse", f"{ref}^{{commit}}").strip()
        try:
            source = git(checkouts[repo], "show", f"{commit}:{f['path']}")
        except subprocess.CalledProcessError:
            problems.append(f"{f['id']}: {repo}@{commit[:9]} has no file {f['path']}")
            continue
        hit = locate(source, f["pattern"], f.get("line"))
        if hit is None:
            problems.append(f"{f['id']}: {repo}@{commit[:9]} {f['path']} no longer matches {f['pattern']!r}")
            continue
        line, text, value = hit
        if "value" in f and str(f["value"]) != value:
            problems.append(
                f"{f['id']}: {repo}@{commit[:9]} {f['path']}:{line} now says {value!r}, the snapshot {f['value']!r}"
            )
        f.update(commit=commit, line=line, text=text, value=value)
    return problems, skipped


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkout", action="append", default=[], metavar="OWNER/NAME=DIR")
    ap.add_argument("--check", action="store_true", help="report what moved; write nothing")
    ap.add_argument("--snapshot", type=Path, default=SNAPSHOT)
    args = ap.parse_args(argv)
    checkouts = dict(c.split("=", 1) for c in args.checkout)
    text = args.snapshot.read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    problems, skipped = refresh(data["facts"], checkouts)
    for s in skipped:
        print(f"not refreshed: {s}")
    for p in problems:
        print(f"MOVED: {p}")
    if args.check:
        return 1 if problems else 0
    header = "".join(line + "\n" for line in text.splitlines() if line.startswith("#"))
    body = yaml.safe_dump({"facts": data["facts"]}, allow_unicode=True, sort_keys=False, width=120)
    args.snapshot.write_text(header + body, encoding="utf-8")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
