"""Version combinations as pip's own resolver answers them.

``resolve(pins)`` runs ``pip install --dry-run --ignore-installed --report`` with ``--only-binary=:all:`` for a
target (Linux, glibc 2.35, CPython 3.11, x86_64 by default; ``--target`` because pip allows ``--platform`` only
there), so platform wheels the host could not install still resolve. pip's answer is one of:

- ``ok``: it found a set of versions (the report's ``install`` list, kept as ``name==version``);
- ``conflict``: ``ResolutionImpossible``; the lines under "The conflict is caused by:" are kept verbatim;
- ``missing``: a requirement has no matching distribution on the index (pip's line kept verbatim).

A resolution takes 2-65 s here (pip downloads whole wheels when the index gives no separate metadata), so the
``combo`` claims read pip's answers from the committed ``snapshots/resolver.json``, rebuilt and proven current by
``scripts/refresh_resolver.py`` (``--check``), which the scheduled stack-facts workflow runs.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from verl_cookbook.processes import run

RESOLVE_S = 600.0  # one resolution (2-65 s seen); the expiry is processes.Overdue, with what did not finish
VERSION_S = 60.0


def snapshot_dir() -> Path:  # as stack_facts.snapshot_dir (a sibling module: the layers forbid importing it)
    return Path(os.environ.get("VERL_COOKBOOK_SNAPSHOTS") or Path(__file__).resolve().parent / "snapshots")


GLIBC = (2, 35)
PYTHON = "3.11"
ARCH = "x86_64"


def key(pins: list[str]) -> str:
    """The snapshot's key for a combination: its requirements, normalised and sorted, joined by ``; ``."""
    reqs = [Requirement(p) for p in pins]
    return "; ".join(sorted(f"{canonicalize_name(r.name)}{r.specifier}" for r in reqs))


@dataclass(frozen=True)
class Resolution:
    verdict: str  # ok | conflict | missing
    lines: tuple[str, ...]  # pip's own words for a conflict or a missing distribution
    installs: tuple[str, ...] = ()


def platforms(glibc: tuple[int, int] = GLIBC, arch: str = ARCH) -> list[str]:
    """Every manylinux tag a glibc ``glibc`` host accepts, newest first (pip 23 does not expand ``--platform``)."""
    tags = [f"manylinux_{glibc[0]}_{minor}_{arch}" for minor in range(glibc[1], 16, -1)]
    return [*tags, f"manylinux2014_{arch}"]


def command(pins: list[str], target: str, report: str) -> list[str]:
    py = PYTHON.replace(".", "")
    cmd = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--target", target]
    cmd += ["--report", report, "--only-binary=:all:", "--python-version", PYTHON, "--implementation", "cp"]
    cmd += ["--abi", f"cp{py}", "--disable-pip-version-check"]
    for tag in platforms():
        cmd += ["--platform", tag]
    return [*cmd, *pins]


def interpret(returncode: int, output: str, report: dict | None) -> Resolution:
    """pip's exit status, output and JSON report as a :class:`Resolution`."""
    if returncode == 0 and report is not None:
        installs = sorted(f"{i['metadata']['name']}=={i['metadata']['version']}" for i in report.get("install", []))
        return Resolution("ok", (), tuple(installs))
    lines = [ln.rstrip() for ln in output.splitlines()]
    if "The conflict is caused by:" in lines:
        start = lines.index("The conflict is caused by:") + 1
        cause = []
        for ln in lines[start:]:
            if not ln.strip():
                break
            cause.append(ln.strip())
        return Resolution("conflict", tuple(cause))
    missing = [ln.removeprefix("ERROR: ").strip() for ln in lines if "No matching distribution found for" in ln]
    if missing:
        return Resolution("missing", tuple(missing))
    tail = [ln for ln in lines if ln.startswith("ERROR:")] or lines[-1:] or ["(pip said nothing)"]
    raise RuntimeError(f"pip failed without a resolver answer: {tail[-1]}")


def resolve(pins: list[str]) -> Resolution:
    """Ask pip (this Python's) whether the pins install together on the target platform."""
    with tempfile.TemporaryDirectory(prefix="verl-cookbook-resolve-") as tmp:
        report = Path(tmp) / "report.json"
        cmd = command(pins, str(Path(tmp) / "target"), str(report))
        done = run(cmd, timeout=RESOLVE_S, what=f"pip's resolution of {'; '.join(pins)}")
        data = json.loads(report.read_text(encoding="utf-8")) if report.is_file() else None
        return interpret(done.returncode, done.stdout + "\n" + done.stderr, data)  # pip logs the cause on stdout


# -- the snapshot ---------------------------------------------------------------------------------------------


@cache
def _snapshot(folder: str) -> dict:
    path = Path(folder) / "resolver.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"combinations": {}}


def snapshot() -> dict:
    return _snapshot(str(snapshot_dir()))


def answer(pins: list[str]) -> Resolution | None:
    """pip's recorded answer for a combination, or None when the snapshot has not resolved it."""
    entry = snapshot()["combinations"].get(key(pins))
    if entry is None:
        return None
    return Resolution(entry["verdict"], tuple(entry.get("pip_says", ())), tuple(entry.get("installs", ())))


def target_label() -> str:
    s = snapshot()
    return f"pip {s.get('pip', '?')}, {s.get('target', '?')}"


def pip_version() -> str:
    done = run([sys.executable, "-m", "pip", "--version"], timeout=VERSION_S, what="pip --version")
    m = re.match(r"pip (\S+)", done.stdout)
    return m.group(1) if m else "?"
