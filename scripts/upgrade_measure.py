#!/usr/bin/env python3
"""Measure the upgrade advisor: how many of verl's own example scripts at older tags ``doctor --fix`` carries to a
release so that they re-check clean.

    python scripts/upgrade_measure.py [--tags v0.7.1 v0.8.0] [--verl 0.9.1] [--work /tmp/upgrade-measure]
                                      [--mirror PATH] [--json OUT]

For each tag, ``examples/`` is exported from the git mirror of verl into ``WORK/TAG/before``; every ``.sh`` under it
is checked with ``verl-cookbook doctor --verl X --format json``. The scripts with findings are copied to
``WORK/TAG/after``, fixed there with ``doctor --fix --verl X`` and checked again. Per script it prints the findings
before, after, and new (after the fix, a (rule, key) the script did not have before: a fix that made something worse),
then the totals and a table of the findings left, by rule and key, each marked ``own`` when the script's own
release (the tag's) reports it too: a defect of the script, not of the upgrade. Nothing in the mirror or the
worktree is changed.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter
from pathlib import Path

MIRROR = "/work/.mirror/verl-project+verl/repo"
CLI = [sys.executable, "-m", "verl_cookbook"]


def export(mirror: str, tag: str, dest: Path) -> None:
    """``examples/`` of ``tag`` unpacked under ``dest`` (left as it is when already there)."""
    if (dest / "examples").is_dir():
        return
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryFile() as tar:
        subprocess.run(["git", "-C", mirror, "archive", tag, "examples"], stdout=tar, check=True, timeout=300)
        tar.seek(0)
        with tarfile.open(fileobj=tar) as tf:
            tf.extractall(dest, filter="data")


def doctor(files: list[Path], verl: str, fix: bool = False) -> dict:
    """``doctor --format json`` over ``files``, parsed; with ``fix``, ``doctor --fix`` (which reports as text)."""
    if not files:
        return {"findings": []}
    mode = ["--fix"] if fix else ["--format", "json"]
    r = subprocess.run(
        [*CLI, "doctor", "--verl", verl, *mode, *map(str, files)],
        capture_output=True,
        text=True,
        timeout=3600,
    )
    if r.returncode not in (0, 1):
        raise SystemExit(f"doctor exited {r.returncode}: {r.stderr[-2000:]}")
    return {} if fix else json.loads(r.stdout)


def ident(f: dict) -> tuple[str, str]:
    """What a finding is about, independent of its line (a fix may move lines): the rule and the key (or the
    message with its numbers blanked: a message may name a line)."""
    data = f.get("data") or {}
    what = data.get("key") or data.get("old") or data.get("code") or re.sub(r"\d+", "N", f["message"])
    return f["rule"], str(what)


def by_file(report: dict, root: Path) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for f in report["findings"]:
        out.setdefault(str(Path(f["path"]).relative_to(root)), []).append(f)
    return out


def measure(tag: str, verl: str, work: Path, mirror: str) -> list[dict]:
    before_root, after_root = work / tag / "before", work / tag / "after"
    export(mirror, tag, before_root)
    scripts = sorted(before_root.rglob("*.sh"))
    before = by_file(doctor(scripts, verl), before_root)
    shutil.rmtree(after_root, ignore_errors=True)
    copies = []
    for rel in before:
        dst = after_root / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(before_root / rel, dst)
        copies.append(dst)
    doctor(copies, verl, fix=True)
    after = by_file(doctor(copies, verl), after_root)
    # the scripts still with findings, checked against their own release: what is left that was wrong there too
    still = [rel for rel in before if after.get(rel)]
    own = by_file(doctor([before_root / rel for rel in still], tag.lstrip("v")), before_root)
    rows = []
    for rel, found in sorted(before.items()):
        left = after.get(rel, [])
        had = Counter(map(ident, found))
        new = [f for f in left if had[ident(f)] == 0]
        at_own = {ident(f) for f in own.get(rel, [])}
        rows.append({"tag": tag, "script": rel, "before": found, "after": left, "new": new,
                     "own": [f for f in left if ident(f) in at_own]})  # fmt: skip
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tags", nargs="+", default=["v0.7.1", "v0.8.0"])
    ap.add_argument("--verl", default="0.9.1")
    ap.add_argument("--work", default="/tmp/upgrade-measure")
    ap.add_argument("--mirror", default=MIRROR)
    ap.add_argument("--json", help="also write every script's findings before and after here")
    a = ap.parse_args()
    rows = [row for tag in a.tags for row in measure(tag, a.verl, Path(a.work), a.mirror)]
    print(f"{'before':>6} {'after':>5} {'new':>3}  script")
    for r in rows:
        print(f"{len(r['before']):6} {len(r['after']):5} {len(r['new']):3}  {r['tag']}/{r['script']}")
    clean = sum(1 for r in rows if not r["after"])
    worse = sum(1 for r in rows if r["new"])
    print(
        f"\n{len(rows)} scripts with findings under verl {a.verl}; after --fix {clean} re-check clean, "
        f"{len(rows) - clean} do not; {worse} have a finding they did not have before"
    )
    left = Counter(ident(f) for r in rows for f in r["after"])
    own = {(r["script"], ident(f)) for r in rows for f in r["own"]}
    own_scripts = sum(1 for r in rows if r["after"] and len(r["own"]) == len(r["after"]))
    print(f"{own_scripts} of those {len(rows) - clean} have only findings their own release reports too")
    print(f"\nfindings left ({sum(left.values())}), by rule and key (own: also at the script's own release):")
    for (rule, what), n in left.most_common():
        n_own = sum(1 for r in rows for f in r["after"] if ident(f) == (rule, what) and (r["script"], ident(f)) in own)
        print(f"{n:4} {'own' if n_own == n else f'{n_own}/{n}':>4}  {rule:34} {what[:100]}")
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
