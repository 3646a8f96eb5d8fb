#!/usr/bin/env python3
"""Benchmark of `verl-cookbook`: prints figures as ratios against references measured in the same run.

Asserts nothing (timings on a shared machine drift); each figure is printed next to its target.

Sections (one function each; ``bench.py`` runs ``targets``; name others: ``bench.py facts scaling``):

- ``targets``: the figures of issue 13, whole processes; each ratio is the median over ``--repeat``
  pairs of runs made back to back (reference, then ours), since the load of a shared machine drifts:
  1. cold fact extraction (a process running ``load_facts`` with an empty cache; the whole
     ``verl-cookbook facts`` command is printed too) against a process running
     ``griffe.load('verl', allow_inspection=False)`` on the same tree (target: ours ≥ 10× faster);
  2. cold check of the whole site (empty facts and page caches; the pinned wheel already unpacked, so
     no pip time) against that griffe load (target: ≤ 0.5×); and, reported below it, the CPU time of the
     same pairs (all processes of the check, against griffe's one: on two cores the wall time cannot go
     under half the CPU time); the CPU time of the same work done in one process (``VERL_COOKBOOK_JOBS=1``:
     nothing done twice, no second process) against griffe's, and what it bounds: that CPU time shared
     perfectly over the machine's cores, against griffe's wall time (no split of the work can do better); and
     the floor a check that composes configs with Hydra cannot go under: a process doing only the
     compositions a cold site check does (found by tracing one);
  3. warm check (everything cached) against a bare ``python -c pass`` (target: ≤ 5×);
  4. cost per snippet on 1x/10x/100x synthetic pages, each snippet checked (none answered as a repeat of an
     earlier one; target: flat, the 100x cost ≤ 1.2× the 1x cost);
  5. the release-matrix test's time (``pytest tests/test_matrix.py``; reported, no target).
- ``facts``: fact extraction per family, each family's first call in a fresh process.
- ``check``: the check's own figures (cold, facts cached with every page afresh, warm; in-process).
- ``scaling``: the cost-per-snippet rows alone.
- ``site`` (only with ``--site``): ``scripts/bench_site.py`` (mkdocs build time, page weight).

``--repo DIR`` measures another checkout of this project (e.g. an older commit exported with
``git archive``) with this script, against the same verl tree, for before/after figures.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

REPEAT = 5
CACHE_ENV = "VERL_COOKBOOK_CACHE"

# Targets of issue 13 (the comparison each one uses is in the docstring above).
TARGET_FACTS_SPEEDUP = 10.0  # griffe load time / our cold extraction time, at least
TARGET_COLD_CHECK = 0.5  # cold site check / griffe load, at most
TARGET_WARM_CHECK = 5.0  # warm check / bare interpreter, at most
TARGET_FLAT = 1.2  # cost per snippet at 100x / at 1x, at most


class Bench:
    """Where and how to run: the project checkout measured, the verl tree, the repeat count.

    Measured processes keep their bytecode in a private folder (``PYTHONPYCACHEPREFIX``), written on
    the first run, as an installed package has it: with ``PYTHONDONTWRITEBYTECODE`` set (some CI
    images, this machine) every process would compile this package's modules again."""

    def __init__(self, repo: Path, repeat: int) -> None:
        self.repo = repo
        self.repeat = repeat
        self.last_cpu = 0.0
        self.pycache = tempfile.mkdtemp(prefix="verl-cookbook-bench-pyc-")
        sys.path.insert(0, str(repo))
        from verl_cookbook.verl_source import from_release

        self.tree = from_release()  # the pinned release, from the user's cache (downloaded once)

    def env(self, cache: str | None = None) -> dict[str, str]:
        env = {**os.environ, "PYTHONPATH": str(self.repo), "PYTHONPYCACHEPREFIX": self.pycache}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        if cache is not None:
            env[CACHE_ENV] = cache
        return env

    def run(self, args: list[str], env: dict[str, str]) -> float:
        """Seconds of wall time of one process; its CPU seconds (user and system, with the processes it waited for:
        its forked children, ShellCheck) are left in ``last_cpu``."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(args, cwd=self.repo, env=env, capture_output=True, check=False)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.last_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return wall


def median_of(fn: Callable[[], float], repeat: int) -> float:
    """Median of ``repeat`` calls of ``fn``, which returns the seconds it measured."""
    return statistics.median(fn() for _ in range(repeat))


def timed(fn: Callable[[], object], repeat: int) -> float:
    def once() -> float:
        t = time.perf_counter()
        fn()
        return time.perf_counter() - t

    return median_of(once, repeat)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def row(label: str, seconds: float, extra: str = "") -> None:
    print(f"  {label:<58} {ms(seconds)}  {extra}")


class TempCache:
    """An empty cache folder with the pinned release's unpacked wheel linked in (no pip time)."""

    def __init__(self, bench: Bench) -> None:
        self.dir = tempfile.mkdtemp(prefix="verl-cookbook-bench-")
        releases = Path(self.dir) / "releases"
        releases.mkdir()
        (releases / bench.tree.label).symlink_to(bench.tree.root, target_is_directory=True)

    def clear(self, *kinds: str) -> None:
        for kind in kinds:
            shutil.rmtree(Path(self.dir) / kind, ignore_errors=True)

    def __enter__(self) -> TempCache:
        return self

    def __exit__(self, *exc: object) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


# -- the measurements --------------------------------------------------------------------------------


def griffe_runner(bench: Bench) -> Callable[[], float] | None:
    """A function timing one fresh process loading verl with griffe; None if griffe is not installed."""
    if importlib.util.find_spec("griffe") is None:
        return None
    code = (
        "import griffe, sys; griffe.load('verl', search_paths=[sys.argv[1]], allow_inspection=False,"
        " resolve_aliases=False)"
    )
    args = [sys.executable, "-c", code, str(bench.tree.root)]
    bench.run(args, bench.env())  # writes the bytecode
    return lambda: bench.run(args, bench.env())


LOAD_FACTS = (
    "import sys; from verl_cookbook.facts import load_facts; from verl_cookbook.verl_source import from_checkout;"
    " load_facts(from_checkout(sys.argv[1]))"
)


def cold_facts_once(bench: Bench, cli: bool = False) -> float:
    """Seconds of a fresh process extracting (and caching) the pinned tree's facts with an empty cache:
    ``load_facts`` alone, the counterpart of the griffe process; ``cli=True``: the whole
    ``verl-cookbook facts --format json`` command (argument parsing, the catalog, printing)."""
    root = str(bench.tree.root)
    if cli:
        args = [sys.executable, "-m", "verl_cookbook", "facts", "--format", "json", "--verl-src", root]
    else:
        args = [sys.executable, "-c", LOAD_FACTS, root]
    with TempCache(bench) as cache:
        return bench.run(args, bench.env(cache.dir))


def cold_facts(bench: Bench, cli: bool = False) -> float:
    """Median of ``cold_facts_once`` (after a first run that writes the bytecode)."""
    cold_facts_once(bench, cli)
    return median_of(lambda: cold_facts_once(bench, cli), bench.repeat)


def site_checks(bench: Bench) -> dict[str, float]:
    """Fresh-process ``verl-cookbook check`` of the whole site: cold, facts cached but every page
    afresh, warm; and a bare interpreter start for reference."""
    args = [sys.executable, "-m", "verl_cookbook", "check"]
    out: dict[str, float] = {}
    with TempCache(bench) as cache:
        env = bench.env(cache.dir)

        def cold() -> float:
            cache.clear("facts", "pages", "compose")
            return bench.run(args, env)

        cold()  # writes the bytecode

        def pages_afresh() -> float:
            cache.clear("pages")
            return bench.run(args, env)

        out["cold"] = median_of(cold, bench.repeat)
        bench.run(args, env)
        out["pages_afresh"] = median_of(pages_afresh, bench.repeat)
        bench.run(args, env)
        out["warm"] = median_of(lambda: bench.run(args, env), bench.repeat)
    out["bare"] = median_of(lambda: bench.run([sys.executable, "-c", "pass"], bench.env()), bench.repeat)
    out["imports"] = median_of(
        lambda: bench.run([sys.executable, "-c", "import verl_cookbook.cli, verl_cookbook.runner"], bench.env()),
        bench.repeat,
    )
    return out


SYNTH_PAGE = """# Synthetic page {n}

<!-- check: verl-version version="{version}" -->

``` {{ .yaml check="config" device="npu" }}
actor_rollout_ref:
  rollout:
    checkpoint_engine:
      backend: nccl
      update_weights_bucket_megabytes: 1024
      engine_kwargs:
        nccl:
          rebuild_group: true
```

``` {{ .yaml check="defaults" root="actor_rollout_ref.rollout.checkpoint_engine" }}
backend: naive
update_weights_bucket_megabytes: 2048
```

<!-- check: params engine="nccl" device="npu" -->
| Argument | Default |
|---|---|
| `group_name` | `"default"` |
| `rebuild_group` | `false` |

Claim. <!-- check: contains file="verl/checkpoint_engine/base.py" match="engine_kwargs.get(backend, {{}})" -->
"""
SNIPPETS_PER_PAGE = 5  # two blocks, one table, two claims
BASE_PAGES = 4


def per_snippet(bench: Bench) -> dict[int, tuple[int, int, float]]:
    """{factor: (pages, findings, seconds per snippet)} for 1x/10x/100x synthetic pages, in-process,
    facts already loaded and the page-result cache off.

    The synthetic pages repeat the same snippets, which a run answers from the first one it checked
    (``verl_cookbook.repeats``); here every snippet is checked, so the figure is what checking one costs."""
    with every_snippet_checked():
        return _per_snippet(bench)


@contextlib.contextmanager
def every_snippet_checked() -> Iterator[None]:
    """While inside, a repeated block, claim or table is checked again (in a checkout that has ``repeats``)."""
    if importlib.util.find_spec("verl_cookbook.repeats") is None:
        yield
        return
    from verl_cookbook.repeats import Repeats

    real = Repeats.run
    Repeats.run = lambda self, got, check: check()  # type: ignore[method-assign]
    try:
        yield
    finally:
        Repeats.run = real  # type: ignore[method-assign]


def _per_snippet(bench: Bench) -> dict[int, tuple[int, int, float]]:
    from verl_cookbook.facts import load_facts
    from verl_cookbook.releases import default_release
    from verl_cookbook.runner import check_paths

    facts = load_facts(bench.tree)
    out = {}
    for factor in (1, 10, 100):
        with tempfile.TemporaryDirectory(prefix="verl-cookbook-scale-") as tmp:
            root = Path(tmp)
            (root / "mkdocs.yml").write_text("site_name: synthetic\n")
            docs = root / "docs"
            docs.mkdir()
            n_pages = BASE_PAGES * factor
            for n in range(n_pages):
                (docs / f"p{n}.md").write_text(SYNTH_PAGE.format(n=n, version=default_release()))
            findings: list = []

            def run(docs: Path = docs, root: Path = root, findings: list = findings) -> None:
                findings[:] = check_paths([docs], facts, root, {"use_cache": False}).findings

            run()  # warm-up: imports, compiled patterns
            seconds = timed(run, 3 if factor < 100 else 1)
            out[factor] = (n_pages, len(findings), seconds / (n_pages * SNIPPETS_PER_PAGE))
    return out


def matrix_test(bench: Bench) -> float:
    """Seconds of one ``pytest tests/test_matrix.py`` run (facts of every release from the user's cache)."""
    from verl_cookbook.facts import load_facts
    from verl_cookbook.releases import covered_releases
    from verl_cookbook.verl_source import from_release

    for release in covered_releases():  # as after any earlier run of the suite: facts cached
        load_facts(from_release(release))
    args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_matrix.py"]
    return bench.run(args, bench.env())


# What a cold site check composes, found by running one with Hydra's compose traced; then a process doing only those
# compositions (Hydra's import included): the floor of figure 2 for a check that judges configs with Hydra itself.
TRACE_COMPOSITIONS = """
import json, sys
from verl_cookbook.facts import compose
real = compose._compose
asked = []
def traced(tree, config_dir, name, choices):
    asked.append([str(config_dir), name, list(choices)])
    return real(tree, config_dir, name, choices)
compose._compose = traced
from verl_cookbook.cli import main
try:
    main(["check", "--format", "json"])
except SystemExit:
    pass
print("COMPOSED " + json.dumps(asked))
"""
COMPOSE_ONLY = """
import json, sys
from pathlib import Path
from verl_cookbook.facts.compose import _compose
from verl_cookbook.verl_source import from_checkout
tree = from_checkout(sys.argv[1])
for config_dir, name, choices in json.loads(sys.argv[2]):
    _compose(tree, Path(config_dir), name, tuple(choices))
"""


def compositions_only(bench: Bench, env: dict[str, str]) -> tuple[Callable[[], float], int]:
    """(a function timing a process that composes only what a cold site check composes, how many)."""
    traced = {**env, "VERL_COOKBOOK_JOBS": "1"}  # composed in this process, where the trace sees it
    out = subprocess.run(
        [sys.executable, "-c", TRACE_COMPOSITIONS],
        cwd=bench.repo,
        env=traced,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    line = next((ln for ln in out.splitlines() if ln.startswith("COMPOSED ")), "COMPOSED []")
    asked = line.removeprefix("COMPOSED ")
    args = [sys.executable, "-c", COMPOSE_ONLY, str(bench.tree.root), asked]
    return (lambda: bench.run(args, bench.env())), len(json.loads(asked))


# -- sections ----------------------------------------------------------------------------------------


def target_row(label: str, measured: str, target: str, met: bool | None) -> None:
    verdict = "reported" if met is None else ("met" if met else "NOT met")
    print(f"  {label:<46} {measured:>26}   {target:<16} {verdict}")


def with_cpu(bench: Bench, fn: Callable[[], float], into: list[float]) -> Callable[[], float]:
    """``fn`` (which times one ``bench.run``), also keeping that process's CPU seconds in ``into``."""

    def run() -> float:
        seconds = fn()
        into.append(bench.last_cpu)
        return seconds

    return run


def paired(reference: Callable[[], float], subject: Callable[[], float], repeat: int) -> tuple[float, float, float]:
    """(median subject/reference ratio, median reference s, median subject s) over ``repeat`` pairs run
    back to back: on a shared machine the load drifts over minutes, so each ratio compares neighbours. The
    lowest and highest ratio of the pairs are kept in ``LAST_SPREAD`` (see :func:`spread`)."""
    pairs = [(reference(), subject()) for _ in range(repeat)]
    ratios = [s / r for r, s in pairs]
    LAST_SPREAD[:] = [min(ratios), max(ratios)]
    return (
        statistics.median(ratios),
        statistics.median(r for r, _ in pairs),
        statistics.median(s for _, s in pairs),
    )


LAST_SPREAD: list[float] = []


def spread(invert: bool = False, digits: int = 2) -> str:
    """The range of the last :func:`paired` call's ratios (inverted for a speed-up), for the measured column: on
    this machine a single median hides how far the pairs disagree."""
    low, high = (1 / LAST_SPREAD[1], 1 / LAST_SPREAD[0]) if invert else tuple(LAST_SPREAD)
    return f"pairs {low:.{digits}f}-{high:.{digits}f}x"


def section_targets(bench: Bench) -> None:
    print(f"\n[targets] issue 13, whole processes, median of {bench.repeat} back-to-back pairs (bytecode cached)")
    griffe = griffe_runner(bench)
    bare_args = [sys.executable, "-c", "pass"]
    check_args = [sys.executable, "-m", "verl_cookbook", "check"]
    target_row("figure", "measured", "target", None)
    with TempCache(bench) as cache:
        env = bench.env(cache.dir)

        def cold_check(one_process: bool = False) -> float:
            cache.clear("facts", "pages", "compose")
            return bench.run(check_args, {**env, "VERL_COOKBOOK_JOBS": "1"} if one_process else env)

        cold_check()  # writes the bytecode
        if griffe:
            ratio, ref, facts = paired(griffe, lambda: cold_facts_once(bench), bench.repeat)
            target_row(
                "1. cold fact extraction vs griffe load",
                f"{1 / ratio:.1f}x faster ({facts * 1000:.0f} vs {ref * 1000:.0f} ms; {spread(invert=True, digits=1)})",
                f">= {TARGET_FACTS_SPEEDUP:.0f}x faster",
                1 / ratio >= TARGET_FACTS_SPEEDUP,
            )
            cpu: dict[str, list[float]] = {"griffe": [], "cold": []}
            ratio, ref, cold = paired(
                with_cpu(bench, griffe, cpu["griffe"]), with_cpu(bench, cold_check, cpu["cold"]), bench.repeat
            )
            target_row(
                "2. cold site check / griffe load",
                f"{ratio:.2f}x ({cold * 1000:.0f} vs {ref * 1000:.0f} ms; {spread()})",
                f"<= {TARGET_COLD_CHECK}x",
                ratio <= TARGET_COLD_CHECK,
            )
            cpu_ratio = statistics.median(c / g for g, c in zip(cpu["griffe"], cpu["cold"], strict=True))
            target_row(
                "   its CPU time / griffe's (all its processes)",
                f"{cpu_ratio:.2f}x ({statistics.median(cpu['cold']) * 1000:.0f} vs "
                f"{statistics.median(cpu['griffe']) * 1000:.0f} ms)",
                "-",
                None,
            )
            walls: list[float] = []
            cpu_one: dict[str, list[float]] = {"griffe": [], "one": []}

            def griffe_wall() -> float:
                walls.append(with_cpu(bench, griffe, cpu_one["griffe"])())
                return walls[-1]

            paired(griffe_wall, with_cpu(bench, partial(cold_check, one_process=True), cpu_one["one"]), bench.repeat)
            cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
            one_ratio = statistics.median(c / g for g, c in zip(cpu_one["griffe"], cpu_one["one"], strict=True))
            best = statistics.median(c / cores / w for w, c in zip(walls, cpu_one["one"], strict=True))
            target_row(
                "   its work in one process: CPU / griffe's CPU",
                f"{one_ratio:.2f}x; on {cores} cores at best {best:.2f}x",
                "-",
                None,
            )
            cache.clear("facts", "pages", "compose")
            compose_only, n = compositions_only(bench, env)
            ratio, ref, floor = paired(griffe, compose_only, bench.repeat)
            target_row(
                f"   its floor: the {n} Hydra compositions alone",
                f"{ratio:.2f}x ({floor * 1000:.0f} vs {ref * 1000:.0f} ms)",
                "-",
                None,
            )
        else:
            print("  1. and 2. need griffe (pip install -e '.[docs]'): not measured")
        bench.run(check_args, env)  # every cache filled
        ratio, ref, warm = paired(
            lambda: bench.run(bare_args, bench.env()), lambda: bench.run(check_args, env), bench.repeat
        )
        target_row(
            "3. warm site check / python -c pass",
            f"{ratio:.1f}x ({warm * 1000:.0f} vs {ref * 1000:.0f} ms)",
            f"<= {TARGET_WARM_CHECK:.0f}x",
            ratio <= TARGET_WARM_CHECK,
        )
    scaling = per_snippet(bench)
    flat = scaling[100][2] / scaling[1][2]
    costs = "/".join(f"{scaling[f][2] * 1e3:.2f}" for f in (1, 10, 100))
    label = "4. per snippet, 100x / 1x (ms at 1x/10x/100x)"
    target_row(label, f"{flat:.2f} ({costs})", f"<= {TARGET_FLAT}", flat <= TARGET_FLAT)
    target_row("5. release-matrix test (tests/test_matrix.py)", f"{matrix_test(bench):.1f} s", "-", None)
    print(f"  also: `verl-cookbook facts --format json`, empty cache {ms(cold_facts(bench, cli=True)).strip()}")


FAMILY_TIMES = """
import json, sys, time
t = time.perf_counter()
from verl_cookbook.facts import families
from verl_cookbook.verl_source import from_checkout
out = {"(imports)": time.perf_counter() - t}
tree = from_checkout(sys.argv[1])
for name, fn in families().items():
    t = time.perf_counter()
    fn(tree)
    out[name] = time.perf_counter() - t
print(json.dumps(out))
"""


def section_facts(bench: Bench) -> None:
    print(f"\n[facts] each family's first call in a fresh process (median of {bench.repeat}), verl {bench.tree.label}")
    runs: list[dict[str, float]] = []
    for _ in range(bench.repeat):
        proc = subprocess.run(
            [sys.executable, "-c", FAMILY_TIMES, str(bench.tree.root)],
            cwd=bench.repo,
            env=bench.env(),
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            print("  failed:", proc.stderr.strip().splitlines()[-1:])
            return
        runs.append(json.loads(proc.stdout))
    total = 0.0
    for name in runs[0]:
        med = statistics.median(r[name] for r in runs)
        total += med if name != "(imports)" else 0.0
        row(f"family {name}", med)
    row("all families", total)


def section_check(bench: Bench) -> None:
    print(f"\n[check] `verl-cookbook check` of the whole site, verl {bench.tree.label} (median of {bench.repeat})")
    checks = site_checks(bench)
    row("cold (empty facts and page caches; wheel already unpacked)", checks["cold"])
    row("facts cached, every page checked afresh", checks["pages_afresh"])
    row("warm", checks["warm"])
    row("  bare interpreter start", checks["bare"])
    row("  interpreter + importing the checker", checks["imports"])
    from verl_cookbook.cli import main

    with TempCache(bench) as cache:
        os.environ[CACHE_ENV] = cache.dir
        try:

            def quiet_main() -> None:
                with open(os.devnull, "w") as devnull:
                    old = sys.stdout, sys.stderr
                    sys.stdout = sys.stderr = devnull
                    try:
                        main(["check", "--root", str(bench.repo)])
                    finally:
                        sys.stdout, sys.stderr = old

            quiet_main()
            row("warm, in-process (imports already paid)", timed(quiet_main, bench.repeat))
        finally:
            os.environ.pop(CACHE_ENV, None)


def section_scaling(bench: Bench) -> None:
    print("\n[scaling] cost per snippet on synthetic pages (facts loaded, page-result cache off)")
    for factor, (pages, findings, seconds) in per_snippet(bench).items():
        snippets = pages * SNIPPETS_PER_PAGE
        label = f"{factor:>3}x: {pages} pages, {snippets} snippets, {findings} findings"
        print(f"  {label:<58} {seconds * 1e6:8.1f} µs/snippet")


def section_site(bench: Bench) -> None:
    path = bench.repo / "scripts" / "bench_site.py"
    if not path.is_file():
        print("\n[site] scripts/bench_site.py does not exist: nothing to run")
        return
    spec = importlib.util.spec_from_file_location("bench_site", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    print("\n[site] scripts/bench_site.py")
    mod.main()


SECTIONS: dict[str, Callable[[Bench], None]] = {
    "targets": section_targets,
    "facts": section_facts,
    "check": section_check,
    "scaling": section_scaling,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sections", nargs="*", choices=[*SECTIONS, []], help="default: targets")
    parser.add_argument("--site", action="store_true", help="also run scripts/bench_site.py (mkdocs build, weight)")
    parser.add_argument("--repeat", type=int, default=REPEAT, help=f"runs per median (default {REPEAT})")
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout of this project to measure")
    args = parser.parse_args(argv)
    bench = Bench(args.repo.resolve(), max(1, args.repeat))
    print(
        f"project {bench.repo}; verl {bench.tree.label} at {bench.tree.root}; "
        f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}"
    )
    try:
        for name in args.sections or ["targets"]:
            SECTIONS[name](bench)
        if args.site:
            section_site(bench)
    finally:
        shutil.rmtree(bench.pycache, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
