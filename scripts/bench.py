#!/usr/bin/env python3
"""Benchmark of `verl-cookbook` against the figures of issue 24: ratios against a reference measured in the same run.

Asserts nothing (timings on a shared machine drift); each figure is printed next to its target. Each ratio is the
median over ``--repeat`` pairs of processes run back to back (reference, then ours), so a drifting load hits both.

1. live fact extraction, what verl's CI runs on every pull request (``facts --verl-src TREE --format json``, no facts
   cached), against a process loading the same tree with griffe; target: at least 4 times faster (a ratio of at most
   0.25). TREE is ``--verl-src`` (a verl checkout), by default the pinned release's unpacked source.
2. cold site check on the pinned (covered) release, in one process, against a process loading the same release with
   griffe (``griffe.load('verl', allow_inspection=False)``); target: at most 0.7. "Cold": a cache holding only the
   unpacked release (no facts, compositions or page results), as on a CI runner after ``scripts/install.sh``. Wall
   time and CPU time (with every process the check waited for: ShellCheck, bash) are both given.
3. warm site check (everything cached) against a bare ``python -c pass``; target: at most 5.
4. ``doctor`` per launch script: one process over the scripts given (``--scripts``, default the doctor test data),
   facts and compositions cached, divided by their number; target: at most 0.15 s.
5. ``doctor --startup`` on one launch script (verl's own startup checks, in a separate process under a Python that has
   verl: ``--startup-python``, default the environment ``scripts/startup_env.sh`` builds) against static ``doctor`` on
   the same script; no target (issue 29 asks for the figure). Skipped, saying so, when no such Python exists.
6. lines of Python in the package and in the tests.

``--repo DIR`` measures another checkout of this project (e.g. ``git worktree add /tmp/before main``) with this script,
against the same verl release, for before/after figures. ``--env NAME=VALUE`` adds to the measured processes'
environment (``VERL_COOKBOOK_JOBS=1`` made an older checkout work in one process).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
REPEAT = 5
CACHE_ENV = "VERL_COOKBOOK_CACHE"
TARGET_LIVE = 0.25  # live facts / griffe load, at most (4 times faster)
TARGET_COLD = 0.7  # cold site check / griffe load, at most
TARGET_WARM = 5.0  # warm site check / bare interpreter, at most
TARGET_DOCTOR_S = 0.15  # doctor, seconds per script, at most
TIMEOUT_S = 900  # one measured process (a cold --startup builds nothing; this is far above any run's time)


class Bench:
    """The checkout measured, its environment, and a private cache holding only the unpacked releases."""

    def __init__(self, repo: Path, extra_env: dict[str, str]) -> None:
        self.repo = repo
        self.extra_env = extra_env
        self.tmp = Path(tempfile.mkdtemp(prefix="verl-cookbook-bench-"))
        sys.path.insert(0, str(REPO))
        from verl_cookbook.releases import default_release
        from verl_cookbook.verl_source import cache_dir, from_release

        self.version = default_release()
        self.release = from_release(self.version).root  # downloaded once into the user's cache
        self.cache = self.tmp / "cache"
        (self.cache / "releases").mkdir(parents=True)
        os.symlink(cache_dir() / "releases" / self.version, self.cache / "releases" / self.version)
        self.cpu = 0.0

    def env(self) -> dict[str, str]:
        env = {**os.environ, "PYTHONPATH": str(self.repo), "PYTHONPYCACHEPREFIX": str(self.tmp / "pyc")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode
        env[CACHE_ENV] = str(self.cache)
        return {**env, **self.extra_env}

    def empty_cache(self) -> None:
        for sub in ("facts", "compose", "pages"):
            shutil.rmtree(self.cache / sub, ignore_errors=True)

    def run(self, args: list[str]) -> float:
        """Wall seconds of one process; its CPU seconds (with the processes it waited for) go to ``self.cpu``."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(args, cwd=self.repo, env=self.env(), capture_output=True, check=False, timeout=TIMEOUT_S)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return wall


def paired(bench: Bench, reference: Callable[[], None], subject: Callable[[], None], repeat: int) -> dict:
    """Medians of wall and CPU ratios (subject / reference) over ``repeat`` back-to-back pairs, and their ranges."""
    walls, cpus, subject_walls = [], [], []
    for _ in range(repeat):
        t0 = reference()
        c0 = bench.cpu
        t1 = subject()
        walls.append(t1 / t0)
        cpus.append(bench.cpu / c0)
        subject_walls.append(t1)
    return {
        "wall": statistics.median(walls),
        "cpu": statistics.median(cpus),
        "range": (min(walls), max(walls)),
        "seconds": statistics.median(subject_walls),
    }


def check_args() -> list[str]:
    return [sys.executable, "-m", "verl_cookbook", "check"]


def griffe_args(tree: Path) -> list[str] | None:
    """A process loading verl's package from ``tree`` with griffe, statically; None when griffe is not installed."""
    try:
        import griffe  # noqa: F401
    except ImportError:
        return None
    code = "import griffe, sys; griffe.load('verl', search_paths=[sys.argv[1]], allow_inspection=False)"
    return [sys.executable, "-c", code, str(tree)]


def live_vs_griffe(bench: Bench, tree: Path, repeat: int) -> dict | None:
    reference = griffe_args(tree)
    if reference is None:
        return None
    facts = [sys.executable, "-m", "verl_cookbook", "facts", "--verl-src", str(tree), "--format", "json"]
    bench.run(reference)
    bench.run(facts)  # bytecode written before any pair

    def live() -> float:
        bench.empty_cache()
        return bench.run(facts)

    return paired(bench, lambda: bench.run(reference), live, repeat)


def cold_vs_griffe(bench: Bench, repeat: int) -> dict | None:
    griffe_args_ = griffe_args(bench.release)
    if griffe_args_ is None:
        return None
    bench.run(griffe_args_)  # bytecode of griffe and of this package written before any pair
    bench.run(check_args())

    def griffe_load() -> float:
        return bench.run(griffe_args_)

    def cold() -> float:
        bench.empty_cache()
        return bench.run(check_args())

    return paired(bench, griffe_load, cold, repeat)


def warm_vs_bare(bench: Bench, repeat: int) -> dict:
    bench.run(check_args())  # fill every cache
    bare = [sys.executable, "-c", "pass"]
    return paired(bench, lambda: bench.run(bare), lambda: bench.run(check_args()), repeat)


def doctor_per_script(bench: Bench, scripts: list[Path], repeat: int) -> float:
    args = [sys.executable, "-m", "verl_cookbook", "doctor", *map(str, scripts)]
    bench.run(args)  # facts and compositions cached
    return statistics.median(bench.run(args) for _ in range(repeat)) / len(scripts)


def startup_vs_static(bench: Bench, script: Path, python: str, repeat: int) -> dict:
    static = [sys.executable, "-m", "verl_cookbook", "doctor", str(script)]
    staged = [*static, "--startup-python", python]
    bench.run(static)
    return paired(bench, lambda: bench.run(static), lambda: bench.run(staged), repeat)


def lines(root: Path) -> int:
    return sum(len(p.read_text(encoding="utf-8").splitlines()) for p in root.rglob("*.py"))


def _startup_python(version: str) -> str | None:
    from verl_cookbook.startup import default_env_python

    py = default_env_python(version)
    return str(py) if py.exists() else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=REPEAT, help=f"pairs per median (default {REPEAT})")
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout of this project to measure")
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE", help="for the measured processes")
    parser.add_argument("--scripts", type=Path, nargs="+", help="launch scripts for doctor (default: test data)")
    parser.add_argument("--startup-python", help="a Python with verl for figure 5 (default: startup_env.sh's)")
    parser.add_argument("--verl-src", type=Path, help="the verl tree of figure 1 (default: the pinned release)")
    args = parser.parse_args(argv)
    extra = dict(item.split("=", 1) for item in args.env)
    bench = Bench(args.repo.resolve(), extra)
    scripts = args.scripts or sorted((REPO / "tests" / "data" / "doctor").glob("*.sh"))
    try:
        print(f"checkout {bench.repo}, verl {bench.version}, {args.repeat} pairs, env {extra or '-'}")
        tree = (args.verl_src or bench.release).resolve()
        live = live_vs_griffe(bench, tree, args.repeat)
        if live is None:
            print("1. live facts / griffe load: griffe is not installed")
        else:
            met = "met" if live["wall"] <= TARGET_LIVE else "NOT met"
            print(
                f"1. live facts / griffe load of {tree}: {live['wall']:.2f}x wall ({1 / live['wall']:.1f} times "
                f"faster; range {live['range'][0]:.2f}-{live['range'][1]:.2f}), {live['cpu']:.2f}x CPU; facts "
                f"{live['seconds']:.2f} s  [target <= {TARGET_LIVE}: {met}]"
            )
        cold = cold_vs_griffe(bench, args.repeat)
        if cold is None:
            print("2. cold site check / griffe load: griffe is not installed")
        else:
            met = "met" if cold["wall"] <= TARGET_COLD else "NOT met"
            print(
                f"2. cold site check / griffe load: {cold['wall']:.2f}x wall (range {cold['range'][0]:.2f}-"
                f"{cold['range'][1]:.2f}), {cold['cpu']:.2f}x CPU; check {cold['seconds']:.2f} s"
                f"  [target <= {TARGET_COLD}: {met}]"
            )
        warm = warm_vs_bare(bench, args.repeat)
        met = "met" if warm["wall"] <= TARGET_WARM else "NOT met"
        print(
            f"3. warm site check / python -c pass: {warm['wall']:.2f}x (range {warm['range'][0]:.2f}-"
            f"{warm['range'][1]:.2f}); check {warm['seconds'] * 1000:.0f} ms  [target <= {TARGET_WARM}: {met}]"
        )
        per = doctor_per_script(bench, scripts, args.repeat)
        met = "met" if per <= TARGET_DOCTOR_S else "NOT met"
        print(f"4. doctor: {per * 1000:.0f} ms per script over {len(scripts)}  [target <= {TARGET_DOCTOR_S} s: {met}]")
        python = args.startup_python or _startup_python(bench.version)
        if python is None:
            print("5. doctor --startup / static doctor: not measured (no Python with verl; run scripts/startup_env.sh)")
        else:
            script = REPO / "snippets" / "doctor" / "run_grpo_npu.sh"
            staged = startup_vs_static(bench, script, python, max(1, args.repeat // 2))
            print(
                f"5. doctor --startup / static doctor, {script.name}: {staged['wall']:.1f}x (range "
                f"{staged['range'][0]:.1f}-{staged['range'][1]:.1f}); --startup {staged['seconds']:.1f} s"
            )
        print(f"6. lines of Python: package {lines(bench.repo / 'verl_cookbook')}, tests {lines(bench.repo / 'tests')}")
    finally:
        shutil.rmtree(bench.tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
