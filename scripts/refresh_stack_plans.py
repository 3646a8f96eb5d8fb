"""Rebuild ``verl_cookbook/snapshots/stack_plans.json``, pip's resolution of every plan the version-matrix pages show
(``verl_cookbook.stack_plan.covered``) and of the guide's own pins, or check it is current; and the index's upload
times (``index_uploads.json``).

    python scripts/refresh_stack_plans.py            # resolve every plan with pip, rewrite the snapshot
    python scripts/refresh_stack_plans.py --check    # exit 1, saying what moved, when pip now answers otherwise
    python scripts/refresh_stack_plans.py --only "verl==0.9.1 guide=a3"   # the plans whose key contains this
    python scripts/refresh_stack_plans.py --uploads [--check]             # the upload times only
    python scripts/refresh_stack_plans.py --accepts --only "verl==0.9.1"  # pip takes each plan's requirements file
    python scripts/refresh_stack_plans.py --lowest [--check]   # only each pinned wheel's oldest-glibc file

Each platform wheel a plan pins also records ``lowest_file``: the file of that version, from the index's file list,
that installs on the oldest glibc (the plan's glibc floor is the highest of those, ``stack_plan.Plan.glibc_floor``).

Each plan is ``stack_plan.compute``: pip's dry run for the target (CPython 3.11, aarch64, glibc 2.35) over the
index, nothing from this machine's pip configuration. A plan takes 10-120 s (pip reads whole wheels where the
index serves no separate metadata); ``--jobs`` runs several at once.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from verl_cookbook import resolver  # noqa: E402
from verl_cookbook import stack_resolve as stack_plan  # noqa: E402

OUT = ROOT / "verl_cookbook" / "snapshots" / "stack_plans.json"
UPLOADS = ROOT / "verl_cookbook" / "snapshots" / "index_uploads.json"
# besides the pages' plans: the 950 guide's transformers asked of the A2/A3 stack (the issue's example)
EXTRA = [stack_plan.Ask("0.9.1", "A3", pins=("transformers==4.57.6",))]


def asks() -> list[stack_plan.Ask]:
    """Every plan the pages show (A2 and A3 share one resolution, as they share verl's guide)."""
    seen, out = set(), []
    for ask in sorted([*stack_plan.covered(), *EXTRA], key=lambda a: a.verl, reverse=True):
        if ask.key not in seen:
            seen.add(ask.key)
            out.append(ask)
    return out


def pins_of(record: dict) -> dict[str, str]:
    return {i["name"]: i["version"] for i in record.get("installs", [])}


def guide_pins(ask: stack_plan.Ask, record: dict) -> list[stack_plan.Ask]:
    """The guide's own versions the resolved plan does not pin, each asked as a ``--pin`` of that plan."""
    if record["verdict"] != "ok" or ask.backend != "nccl" or ask.pins:
        return []
    names = {stack_plan.canonicalize_name(n): v for n, v in pins_of(record).items()}
    out = []
    for pin in stack_plan.pins_of_guide(ask):
        name, _, version = pin.partition("==")
        if names.get(stack_plan.canonicalize_name(name)) != version:
            out.append(stack_plan.Ask(ask.verl, ask.product, backend=ask.backend, pins=(pin,)))
    return out


def resolve_all(todo: list[stack_plan.Ask], jobs: int, snapshot: dict | None = None) -> list[dict]:
    """``stack_plan.compute`` for each ask (``jobs`` at a time; on a shared link one at a time is fastest), each
    resolution computed once; with ``snapshot``, each written to the snapshot file as soon as pip answers, so an
    interrupted refresh keeps what it resolved."""
    done: dict[str, dict] = {}

    def one(ask: stack_plan.Ask) -> dict:
        if ask.key in done:
            return done[ask.key]
        started = time.monotonic()
        rec = done[ask.key] = stack_plan.compute(ask)
        print(f"{time.monotonic() - started:5.1f} s  {rec['verdict']:11}  {ask.key}", file=sys.stderr, flush=True)
        if snapshot is not None:
            write([*(stack_plan.recorded_in(snapshot, k) for k in snapshot["plans"] if k not in done), *done.values()])
        return rec

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(one, todo))


def write(records: list) -> None:
    data = {
        "about": "pip's resolution of each plan `verl-cookbook stack` prints offline; scripts/refresh_stack_plans.py, "
        "do not edit",
        "pip": resolver.pip_version(),
        "read_at": datetime.date.today().isoformat(),
        **stack_plan.compact([r for r in records if r]),
    }
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def accepted(ask: stack_plan.Ask) -> list[str]:
    """pip's dry run of the plan's requirements file (``stack --format requirements``) for the target: [] when pip
    takes it as it is (nothing added, nothing changed, but what only the resolving machine's markers add)."""
    from verl_cookbook.stack_plan import build

    record = stack_plan.recorded(ask)
    if record is None or record["verdict"] != "ok":
        return []
    plan = build(ask, record)
    pins = [p.spec for p in plan.pins]
    r = resolver.resolve(pins, ask.target)
    if r.verdict != "ok":
        return [f"{ask.key}: pip does not accept the requirements file: {r.verdict} {list(r.lines)}"]
    want = {stack_plan.canonicalize_name(p.name): p.version for p in plan.pins}
    got = {stack_plan.canonicalize_name(n): v for n, _, v in (i.partition("==") for i in r.installs)}
    pruned = {stack_plan.canonicalize_name(n) for n in plan.pruned}
    return [f"{ask.key}: {n} {want.get(n)} -> {got.get(n)}" for n in sorted(set(want) | set(got) - pruned)
            if want.get(n) != got.get(n)]  # fmt: skip


def uploads() -> dict:
    """When each release of the dists the pages date reached the index (its first file's upload time)."""
    out: dict[str, dict[str, str]] = {}
    for name in stack_plan.DATED:
        first: dict[str, str] = {}
        for f in resolver.index_files(name):
            version = stack_plan.file_version(f["filename"])
            if version and f.get("upload-time"):
                first[version] = min(first.get(version, f["upload-time"]), f["upload-time"])
        out[name] = dict(sorted(first.items(), key=lambda kv: kv[1]))
    return {
        "about": "first upload time of each release on the index (PEP 691 JSON); scripts/refresh_stack_plans.py "
        "--uploads, do not edit",
        "index": resolver.INDEX_URL,
        "read_at": datetime.date.today().isoformat(),
        "dists": out,
    }


def check_uploads(fresh: dict) -> list[str]:
    old = json.loads(UPLOADS.read_text(encoding="utf-8"))["dists"]
    return [
        f"{n} {v}: was {t}, now {fresh['dists'].get(n, {}).get(v)}"
        for n, vs in old.items()
        for v, t in vs.items()
        if fresh["dists"].get(n, {}).get(v) != t
    ]


def target_of(key: str) -> stack_plan.resolver.Target:
    """The target a plan key names (``python=3.11 arch=aarch64 glibc=2.35``)."""
    f = dict(part.split("=", 1) for part in key.split() if part.split("=", 1)[0] in ("python", "arch", "glibc"))
    major, minor = (int(x) for x in f["glibc"].split("."))
    return stack_plan.resolver.Target(f["python"], f["arch"], (major, minor))


def with_lowest(old: dict) -> list[dict]:
    """The committed records, each platform wheel given its ``lowest_file`` from the index's file list now."""
    records = [stack_plan.recorded_in(old, k) for k in old["plans"]]
    listed: dict[str, list[str]] = {}

    def files(name: str) -> list[str]:
        if name not in listed:
            listed[name] = [f["filename"] for f in resolver.index_files(name) if not f.get("yanked")]
        return listed[name]

    for rec in records:
        if rec is not None:
            stack_plan.add_lowest_files(rec, target_of(rec["key"]), files)
    return [r for r in records if r]


def lowest_of(record: dict) -> dict[str, str | None]:
    items = [*record.get("installs", []), *([record["vllm_ascend"]] if record.get("vllm_ascend") else [])]
    return {i["file"]: i.get("lowest_file") for i in items}


def moved(old: dict, records: list[dict]) -> list[str]:
    out = []
    for rec in records:
        was = stack_plan.recorded_in(old, rec["key"])
        if was is None:
            out.append(f"{rec['key']}: not in the snapshot (pip now says {rec['verdict']})")
            continue
        a_low, b_low = lowest_of(was), lowest_of(rec)
        for file in sorted(set(a_low) & set(b_low)):
            if a_low[file] != b_low[file]:
                out.append(f"{rec['key']}: {file}: oldest-glibc file {a_low[file]} -> {b_low[file]}")
        if (was["verdict"], was.get("pip_says")) != (rec["verdict"], rec.get("pip_says")):
            out.append(
                f"{rec['key']}: was {was['verdict']} {was.get('pip_says')}, now {rec['verdict']} {rec.get('pip_says')}"
            )
        a, b = pins_of(was), pins_of(rec)
        for name in sorted(set(a) | set(b)):
            if a.get(name) != b.get(name):
                out.append(f"{rec['key']}: {name} {a.get(name, '(none)')} -> {b.get(name, '(none)')}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed snapshot instead of writing")
    ap.add_argument("--only", action="append", help="resolve only the plans whose key contains this (repeatable)")
    ap.add_argument("--jobs", type=int, default=3, help="resolutions at a time (default 3)")
    ap.add_argument("--uploads", action="store_true", help="only the upload times (index_uploads.json)")
    ap.add_argument("--accepts", action="store_true", help="only: pip accepts each committed plan's requirements")
    ap.add_argument("--lowest", action="store_true", help="only each pinned wheel's oldest-glibc file (no resolving)")
    args = ap.parse_args()
    if args.lowest:
        old = json.loads(OUT.read_text(encoding="utf-8"))
        fresh_records = with_lowest(json.loads(OUT.read_text(encoding="utf-8")))
        if args.check:
            changed = [
                f"{r['key']}: {f}: oldest-glibc file {lowest_of(stack_plan.recorded_in(old, r['key']) or {}).get(f)} "
                f"-> {low}"
                for r in fresh_records
                for f, low in lowest_of(r).items()
                if lowest_of(stack_plan.recorded_in(old, r["key"]) or {}).get(f) != low
            ]
            print("\n".join(changed))
            return 1 if changed else 0
        write(fresh_records)
        return 0
    if args.uploads:
        fresh = uploads()
        if args.check:
            changed = check_uploads(fresh)
            print("\n".join(changed))
            return 1 if changed else 0
        UPLOADS.write_text(json.dumps(fresh, indent=1) + "\n", encoding="utf-8")
        return 0
    todo = [a for a in asks() if not args.only or any(o in a.key for o in args.only)]
    if args.accepts:
        plans = [
            a
            for a in {a.key: a for a in todo if not a.pins}.values()
            if (r := stack_plan.recorded(a)) and r["verdict"] == "ok"
        ]
        problems = [line for ask in plans for line in accepted(ask)]
        print("\n".join(problems) or f"pip accepts the requirements file of each of the {len(plans)} plans as it is")
        return 1 if problems else 0
    old = json.loads(OUT.read_text(encoding="utf-8")) if OUT.is_file() else {"plans": {}, "dists": {}}
    records = resolve_all(todo, args.jobs, None if args.check else old)
    pins = {a.key: a for ask, rec in zip(todo, records, strict=True) for a in guide_pins(ask, rec)}
    records += resolve_all(list(pins.values()), args.jobs, None if args.check else old)
    if args.check:
        changes = moved(old, records)
        changes += [line for ask in todo if not ask.pins for line in accepted(ask)]
        print("\n".join(changes))
        return 1 if changes else 0
    keep = set(stack_plan.recorded_in(old, k)["key"] for k in old["plans"]) if args.only else set()
    fresh = {r["key"] for r in records}
    write([*(stack_plan.recorded_in(old, k) for k in keep - fresh), *records])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
