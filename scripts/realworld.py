#!/usr/bin/env python3
"""Real-world evaluation on a verl checkout: printed for a person to judge, asserts nothing.

    python scripts/realworld.py PATH_TO_VERL_CHECKOUT [--only doctor|lenient] [--quiet] [--no-required]
    python scripts/realworld.py --scripts DIR [--release 0.9.1] [--device npu] [--quiet]

1. ``doctor`` over every launch script under ``examples/`` (``*.sh``): how many scripts have their verl
   trainer command recognised, findings per rule, notes per kind, and every finding with its fix;
2. ``check --lenient`` over ``docs/`` and every ``README*.md`` of the checkout (outside ``docs/``):
   places reported per rule, and every finding.

The doctor pass runs what the ``doctor`` command runs, static required/enumerated-value checks included
(verl_cookbook/checks/required_values.py); ``--no-required`` leaves them out, to compare the two passes. ``--scripts``
runs it over any folder of launch scripts (users' scripts, a recipe repository), against a checkout's facts or a
covered ``--release``'s. Findings are folded as the command folds them (verl_cookbook/folding.py): per script, how
many are printed and how many are folded under how many causes; each printed finding is followed by the ones folded
under it, indented, so that every finding can still be classified.

Timings are wall-clock seconds on this machine, measured in this run (the facts are extracted once, first).
Each finding is one line, ``path:line:col rule message``, so the output can be classified by hand
(true / false / noise); nothing here decides which is which.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from verl_cookbook.checks.launch import DOCTOR, Stage  # noqa: E402
from verl_cookbook.doctor import InputError, diagnose  # noqa: E402
from verl_cookbook.facts import load_facts  # noqa: E402
from verl_cookbook.findings import apply_rules_options  # noqa: E402
from verl_cookbook.folding import fold  # noqa: E402
from verl_cookbook.lenient import QUOTING_ADVICE  # noqa: E402
from verl_cookbook.runner import check_paths  # noqa: E402
from verl_cookbook.verl_source import resolve  # noqa: E402

_SKIP_DIRS = {".git", "node_modules", ".venv", "build", "dist", "_build"}


def _rel(path: str, root: Path) -> str:
    try:
        return str(Path(path).resolve().relative_to(root.resolve()))
    except ValueError:
        return path


def _note_kind(note: str) -> str:
    """A note without its line number and the names in it, so that notes of one kind count together."""
    note = re.sub(r"^line \d+: ", "", note)
    note = re.sub(r"`[^`]*`", "`…`", note)
    note = re.sub(r"\([^)]*\)", "(…)", note)
    return re.sub(r"\d+", "N", note)[:110]


def run_doctor(
    root: Path, facts, quiet: bool, required: bool = False, folder: Path | None = None, device: str | None = None
) -> None:
    where = folder or root / "examples"
    scripts = sorted(p for p in where.rglob("*.sh") if not (_SKIP_DIRS & set(p.parts)))
    t0 = time.perf_counter()
    reports, unreadable = [], []
    per_script: list[tuple[float, Path]] = []
    for p in scripts:
        t1 = time.perf_counter()
        try:
            stages = DOCTOR if required else Stage.STATIC
            reports.append(diagnose(p, facts, stages=stages, **({"device": device} if device else {})))
        except InputError as e:
            unreadable.append(f"{_rel(str(p), root)}: {e}")
        per_script.append((time.perf_counter() - t1, p))
    dt = time.perf_counter() - t0
    recognised = [r for r in reports if r.commands]
    findings = [(r, df) for r in reports for df in r.findings]
    by_rule = Counter(df.finding.rule for _r, df in findings)
    notes = Counter(_note_kind(n) for r in reports for n in r.notes)
    print(
        f"== doctor over {len(scripts)} launch scripts under {_rel(str(where), root)}/"
        + (" (with --required)" if required else "")
    )
    print(
        f"recognised: {len(recognised)}/{len(scripts)} scripts have a verl trainer command "
        f"({100 * len(recognised) / max(1, len(scripts)):.1f}%); {sum(r.commands for r in reports)} commands"
    )
    print(f"time: {dt:.2f} s in all, {1000 * dt / max(1, len(scripts)):.1f} ms per script")
    if per_script:
        times = sorted(t for t, _ in per_script)
        slowest_t, slowest = max(per_script)
        print(
            f"per script: median {1000 * times[len(times) // 2]:.1f} ms, "
            f"slowest {1000 * slowest_t:.1f} ms ({_rel(str(slowest), root)})"
        )
    print(f"findings: {len(findings)} in {len({r.path for r, _ in findings})} scripts; unreadable: {len(unreadable)}")
    for rule, n in by_rule.most_common():
        print(f"  {n:4d}  {rule}")
    print("notes (kind: count):")
    for kind, n in notes.most_common():
        print(f"  {n:4d}  {kind}")
    not_recognised = [r for r in reports if not r.commands]
    if not_recognised:
        print("not recognised:")
        for r in not_recognised:
            print(f"  {_rel(r.path, root)}")
    for u in unreadable:
        print(f"unreadable: {u}")
    foldings = {r.path: fold([df.finding for df in r.findings]) for r in reports}
    shown = sum(len(fg.shown) for fg in foldings.values())
    print(
        f"printed: {shown} of {len(findings)} findings; folded: {len(findings) - shown} under "
        f"{sum(fg.roots for fg in foldings.values())} causes"
    )
    print("per script (findings, printed, folded, causes):")
    for r in reports:
        fg = foldings[r.path]
        if r.findings:
            print(f"  {len(r.findings):4d} {len(fg.shown):4d} {fg.folded:4d} {fg.roots:3d}  {_rel(r.path, root)}")
    if not quiet:
        print("-- doctor findings (printed; the ones folded under each, indented)")
        for r in reports:
            fg = foldings[r.path]
            for i in fg.shown:
                df = r.findings[i]
                f = df.finding
                print(f"{_rel(f.path, root)}:{f.line}:{f.col}: {f.rule} {f.message}")
                if df.fix:
                    print(f"    fix: {df.fix}")
                for u in fg.under(i):
                    print(f"    <- {u.line}:{u.col}: {u.rule} {u.message}")


def markdown_targets(root: Path) -> list[Path]:
    out = [root / "docs"] if (root / "docs").is_dir() else []
    for p in sorted(root.rglob("README*.md")):
        rel = p.relative_to(root)
        if _SKIP_DIRS & set(rel.parts) or (rel.parts and rel.parts[0] == "docs"):
            continue
        out.append(p)
    return out


def run_lenient(root: Path, facts, quiet: bool) -> None:
    targets = markdown_targets(root)
    t0 = time.perf_counter()
    report = check_paths(targets, facts, root, {"lenient": True, "use_cache": False})
    dt = time.perf_counter() - t0
    findings = apply_rules_options(report.findings, files=report.files, off=QUOTING_ADVICE)  # as `check --lenient`
    places = {(f.path, f.line) for f in findings}
    by_rule = Counter(f.rule for f in findings)
    print(f"== check --lenient over docs/ and {len(targets) - 1} READMEs")
    print(
        f"{report.pages} pages, {report.blocks} code blocks ({report.checked} checked), {report.tables} tables; "
        f"time: {dt:.2f} s"
    )
    print(f"findings: {len(findings)} at {len(places)} places")
    for rule, n in by_rule.most_common():
        print(f"  {n:4d}  {rule}")
    if not quiet:
        print("-- lenient findings")
        for f in sorted(findings, key=lambda f: f.sort_key()):
            print(f"{_rel(f.path, root)}:{f.line}:{f.col}: {f.rule} {f.message}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("verl", type=Path, nargs="?", help="a verl checkout (git clone of verl-project/verl)")
    ap.add_argument("--scripts", type=Path, help="run doctor over this folder's *.sh instead of examples/")
    ap.add_argument("--release", help="judge against this covered verl release's facts, not a checkout's")
    ap.add_argument("--device", choices=("npu", "gpu"), help="passed to doctor (as its --device)")
    ap.add_argument("--only", choices=("doctor", "lenient"))
    ap.add_argument("--quiet", action="store_true", help="counts only, not every finding")
    ap.add_argument(
        "--no-required",
        dest="required",
        action="store_false",
        help="leave out doctor's static required and enumerated-value checks (the doctor command runs them)",
    )
    args = ap.parse_args(argv)
    if args.release and args.verl is not None:
        ap.error("give a verl checkout or --release, not both")
    if args.release and not args.scripts:
        ap.error("--release judges --scripts; the checkout's own passes need the checkout")
    if args.verl is None and not args.release:
        ap.error("give a verl checkout (or --scripts DIR with --release VERSION)")
    root: Path = args.verl or args.scripts
    if args.verl is not None and not (root / "verl").is_dir():
        print(f"realworld.py: error: {root} has no verl/ package folder: not a verl checkout", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    facts = load_facts(resolve(args.release, None if args.release else str(root)), use_cache=True)
    print(f"verl {facts.tree.label}: facts in {time.perf_counter() - t0:.2f} s")
    if args.only in (None, "doctor"):
        run_doctor(root, facts, args.quiet, args.required, args.scripts, args.device)
    if args.only in (None, "lenient") and not args.scripts:
        run_lenient(root, facts, args.quiet)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
