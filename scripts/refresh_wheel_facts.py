"""Rebuild ``verl_cookbook/snapshots/wheel_facts.json`` from the package index, or check it is current.

    python scripts/refresh_wheel_facts.py            # rewrite the snapshot
    python scripts/refresh_wheel_facts.py --check    # exit 1 (and say what moved) when the index disagrees
    python scripts/refresh_wheel_facts.py --only vllm==0.32.0   # add or renew one wheel, keep the others

Every fact comes from pip itself, never from a web page: ``pip download --no-deps`` of the wheel the pages
name (METADATA's Requires-Dist and Requires-Python, WHEEL's tags, top_level.txt, RECORD's paths) and, for the
platform question, ``pip install --dry-run --no-deps --report`` with ``--platform``/``--python-version``: which
file pip would pick for a manylinux level, or that it finds none. The wheels chosen are the ones for this
machine's Python (cp311 x86_64 in CI); paths inside a pure-Python or a platform wheel do not depend on that.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import hashlib
import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "verl_cookbook" / "snapshots" / "wheel_facts.json"

VLLM_PATCH_MODULE = "vllm/model_executor/model_loader/checkpoint_weight_patch.py"
# dist==version -> whether to keep the full RECORD path list (big wheels keep only the paths the pages name)
WHEELS: dict[str, list[str] | None] = {
    "mooncake-transfer-engine==0.3.13.post1": None,
    "mooncake-transfer-engine-npu==0.3.13.post1": None,
    "checkpoint-engine==0.4.2": None,
    "verl==0.9.1": ["tests/checkpoint_engine/test_correctness_on_npu.py", "tests/__init__.py"],
    # rev50b-2: the 0.9.0 -> 0.9.1 upgrade with --no-deps relies on the two declaring the same base requirements
    "verl==0.9.0": [],
    "vllm-ascend==0.13.0": [],
    "vllm-ascend==0.18.0": [],
    "vllm-ascend==0.23.0": [],
    "torch-npu==2.10.0.post4": [],
    # delta-sync: verl 0.9.1's vLLM delta path imports this module; 0.29.0 is the first release that ships it (the
    # release before it and the 0.24.0 that verl[vllm]==0.9.1 pins do not)
    "vllm==0.24.0": [VLLM_PATCH_MODULE],
    "vllm==0.28.0": [VLLM_PATCH_MODULE],
    "vllm==0.29.0": [VLLM_PATCH_MODULE],
    # delta-sync: the first vLLM release verl 0.9.1 cannot be installed with (its transformers pin)
    "vllm==0.32.0": [VLLM_PATCH_MODULE],
}
# Wheels too big to download on every check (~300 MB each): --check asks pip which file it would pick and its sha256
# (`pip install --dry-run --report`, no download); the same file with the same hash has the same contents, so the
# facts read from it still hold. A full refresh downloads and reads them like the others, and records the hash.
CHECK_BY_HASH = {"vllm==0.24.0", "vllm==0.28.0", "vllm==0.29.0", "vllm==0.32.0"}
# (dist==version, python versions, machines, manylinux levels): which level the index has a wheel for; the lowest
# level with a wheel is what a `min_glibc` claim states, so the list goes one level below it
PLATFORM_PROBES = [
    ("mooncake-transfer-engine-npu==0.3.13.post1", ["3.10", "3.11", "3.12"], ["x86_64", "aarch64"], None),
    # rev50a-7: the install page says the vllm-ascend 0.23.0 wheel needs glibc 2.34 or later
    ("vllm-ascend==0.23.0", ["3.10", "3.11", "3.12"], ["x86_64", "aarch64"], ["manylinux_2_33", "manylinux_2_34"]),
]
PROBE_LEVELS = ["manylinux_2_34", "manylinux_2_35"]  # the levels of an entry that names none


def pip(*args: str, timeout: int = 240) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "pip", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)


def read_wheel(path: Path, keep: list[str] | None) -> dict:
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
        meta = z.read(f"{info}/METADATA").decode()
        wheel = z.read(f"{info}/WHEEL").decode()
        top = z.read(f"{info}/top_level.txt").decode().split() if f"{info}/top_level.txt" in names else []
        record = [line.split(",")[0] for line in z.read(f"{info}/RECORD").decode().splitlines() if line]
    requires = [line.split(":", 1)[1].strip() for line in meta.splitlines() if line.startswith("Requires-Dist:")]
    rps = [line.split(":", 1)[1].strip() for line in meta.splitlines() if line.startswith("Requires-Python:")]
    rp = rps[0] if rps else None
    tags = [line.split(":", 1)[1].strip() for line in wheel.splitlines() if line.startswith("Tag:")]
    package_paths = sorted(p for p in record if ".dist-info/" not in p)
    needed = needed_libraries(path, record)
    entry = {
        "file": path.name,
        "requires_python": rp,
        "requires_dist": requires,
        "tags": tags,
        "top_level": top,
        "record_count": len(record),
    }
    if needed:
        entry["needs"] = needed
    build_info = read_build_info(path, record)
    if build_info:
        entry["build_info"] = build_info
    if keep is None:
        entry["record"] = package_paths
    else:
        entry["record"] = sorted(p for p in keep if p in record)
        entry["record_absent"] = sorted(p for p in keep if p not in record)
    return entry


def read_build_info(path: Path, record: list[str]) -> dict[str, dict[str, object]]:
    """The string and number constants of each ``<package>/_build_info.py`` the wheel holds, with their lines: what
    the build wrote into the wheel (vllm-ascend's ``__device_type__``, the chip family the wheel was compiled for)."""
    out: dict[str, dict[str, object]] = {}
    with zipfile.ZipFile(path) as z:
        for name in record:
            if name.count("/") == 1 and name.endswith("/_build_info.py"):
                tree = ast.parse(z.read(name).decode())
                for node in tree.body:
                    if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                        for target in node.targets:
                            if isinstance(target, ast.Name):
                                out[f"{name}:{node.lineno}"] = {"name": target.id, "value": node.value.value}
    return out


def needed_libraries(path: Path, record: list[str]) -> dict[str, list[str]]:
    """For each shared object in the wheel, the NEEDED libraries it does not bundle (``readelf -d``)."""
    bundled = {p.rsplit("/", 1)[-1] for p in record}
    system = ("libc.so", "libm.so", "libgcc_s.so", "libstdc++.so", "libpthread.so", "libdl.so", "librt.so", "ld-linux")
    out: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory() as tmp, zipfile.ZipFile(path) as z:
        for name in record:
            if not name.endswith(".so") or ".so." in name:
                continue
            target = Path(z.extract(name, tmp))
            r = subprocess.run(["readelf", "-d", str(target)], capture_output=True, text=True, check=False, timeout=60)
            libs = [line.split("[", 1)[1].rstrip("]") for line in r.stdout.splitlines() if "(NEEDED)" in line]
            libs = [x for x in libs if x not in bundled and not x.startswith(system)]
            if libs:
                out[name] = libs
    return out


def probe(spec: str, python: str, machine: str, level: str) -> str | None:
    """The file name pip picks for ``spec`` on that platform, or None when the index has none."""
    with tempfile.TemporaryDirectory() as tmp:
        r = pip(
            "install", "--dry-run", "--no-deps", "--ignore-installed", "--quiet", "--report", "-",
            "--only-binary=:all:", "--platform", f"{level}_{machine}", "--python-version", python,
            "--target", tmp, spec,
        )  # fmt: skip
    if r.returncode != 0:
        if "No matching distribution" in r.stderr:
            return None
        raise SystemExit(f"pip failed on {spec} ({python}, {level}_{machine}):\n{r.stderr}")
    report = json.loads(r.stdout)
    return report["install"][0]["download_info"]["url"].rsplit("/", 1)[1]


def picked(spec: str) -> tuple[str, str]:
    """(file name, sha256) of the wheel pip picks for ``spec`` on this machine, read from its dry-run report: the
    index's hash, without downloading the wheel."""
    with tempfile.TemporaryDirectory() as tmp:
        r = pip(
            "install", "--dry-run", "--no-deps", "--ignore-installed", "--quiet", "--report", "-",
            "--only-binary=:all:", "--target", tmp, spec,
        )  # fmt: skip
    if r.returncode != 0:
        raise SystemExit(f"pip could not pick a wheel for {spec}:\n{r.stderr}")
    info = json.loads(r.stdout)["install"][0]["download_info"]
    return info["url"].rsplit("/", 1)[1], info["archive_info"]["hashes"]["sha256"]


def read_one(spec: str) -> dict:
    """The entry of one wheel of WHEELS, downloaded and read as a full refresh reads it."""
    with tempfile.TemporaryDirectory() as tmp:
        r = pip("download", "--no-deps", "--only-binary=:all:", "-q", "-d", tmp, spec)
        if r.returncode != 0:
            raise SystemExit(f"pip download {spec} failed:\n{r.stderr}")
        (whl,) = Path(tmp).glob("*.whl")
        entry = read_wheel(whl, WHEELS[spec])
        if spec in CHECK_BY_HASH:
            entry["sha256"] = hashlib.sha256(whl.read_bytes()).hexdigest()
        return entry


def build(old: dict | None = None) -> dict:
    """The snapshot as the index serves it today. With ``old`` (a check), the wheels of CHECK_BY_HASH are not
    downloaded: their entry is the old one with the file name and hash pip picks today, so any change shows."""
    wheels: dict[str, dict] = {}
    by_hash = [s for s in WHEELS if old is not None and s in CHECK_BY_HASH and s in old.get("wheels", {})]
    with concurrent.futures.ThreadPoolExecutor(max(1, len(by_hash))) as pool:  # pip waits on the index, not the CPU
        picks = dict(zip(by_hash, pool.map(picked, by_hash), strict=True))
    for spec in WHEELS:
        if spec in picks:
            name, sha = picks[spec]
            wheels[spec] = {**old["wheels"][spec], "file": name, "sha256": sha}  # type: ignore[index]
        else:
            wheels[spec] = read_one(spec)
    platforms: dict[str, dict] = {}
    for spec, pythons, machines, levels in PLATFORM_PROBES:
        rows = {}
        for py in pythons:
            for m in machines:
                rows[f"{py} {m}"] = {lvl: probe(spec, py, m, lvl) for lvl in levels or PROBE_LEVELS}
        platforms[spec] = rows
    return {
        "about": "Read from the package index by scripts/refresh_wheel_facts.py; do not edit by hand.",
        "source": "https://pypi.org/simple/",
        "wheels": wheels,
        "platforms": platforms,
    }


def diff(old: dict, new: dict) -> list[str]:
    out = []
    for section in ("wheels", "platforms"):
        for key in sorted(set(old.get(section, {})) | set(new.get(section, {}))):
            a, b = old.get(section, {}).get(key), new.get(section, {}).get(key)
            if a == b:
                continue
            if a is None or b is None:
                out.append(f"{section}/{key}: {'added' if a is None else 'gone from the index'}")
                continue
            for field in sorted(set(a) | set(b)):
                if a.get(field) != b.get(field):
                    out.append(f"{section}/{key}/{field}: snapshot {a.get(field)!r} != index {b.get(field)!r}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed snapshot instead of writing")
    ap.add_argument("--only", action="append", help="read just this wheel of WHEELS into the snapshot (repeatable)")
    args = ap.parse_args(argv)
    if args.only and not args.check:  # add or renew these wheels, keep the rest of the snapshot as it is
        unknown = [s for s in args.only if s not in WHEELS]
        if unknown:
            raise SystemExit(f"not in WHEELS: {unknown}")
        snap = json.loads(OUT.read_text(encoding="utf-8"))
        snap["wheels"].update({spec: read_one(spec) for spec in args.only})
        OUT.write_text(json.dumps(snap, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {', '.join(args.only)} into {OUT}")
        return 0
    if args.check:
        old = json.loads(OUT.read_text(encoding="utf-8"))
        moved = diff(old, build(old))
        for line in moved:
            print(line)
        return 1 if moved else 0
    OUT.write_text(json.dumps(build(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
