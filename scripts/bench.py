#!/usr/bin/env python3
"""Benchmark of `verl-cookbook check`: prints figures, asserts nothing.

Sections (one function each; run all by default, or name some: ``bench.py check facts``):

- ``check``: cold and warm `verl-cookbook check` of the whole site against the pinned verl, as a user
  runs it (a fresh process). Cold = an empty facts cache in a temporary VERL_COOKBOOK_CACHE, with the
  pinned wheel already downloaded and unpacked (linked in): it measures fact extraction, not pip.
  Warm = the same command again, facts read from the cache. Also the same two in-process.
- ``facts``: fact extraction alone, per family, against a griffe load of the same verl package
  (``allow_inspection=False``: griffe reads the source too; this is what mkdocstrings pays).
- ``scaling``: cost per snippet on 1x/10x/100x synthetic pages (generated in a temp dir), to show it is linear.
- ``site`` (only with ``--site``): ``scripts/bench_site.py``'s ``main()`` if that file exists
  (mkdocs build time, page weight).

Targets: warm check ≤ 0.5 s on a 2-core machine; cost per snippet flat across the scaling rows.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from verl_cookbook.verl_source import CACHE_ENV, VerlTree, cache_dir, from_release  # noqa: E402

REPEAT = 5


def timed(fn: Callable[[], object], repeat: int = REPEAT) -> tuple[float, float]:
    """(median, min) wall seconds of ``fn`` over ``repeat`` runs."""
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t)
    return statistics.median(runs), min(runs)


def row(label: str, seconds: float, extra: str = "") -> None:
    print(f"  {label:<58} {seconds * 1000:9.1f} ms  {extra}")


def _temp_cache(tree: VerlTree) -> tempfile.TemporaryDirectory:
    """A cache folder with no facts, and the pinned release's unpacked wheel linked in."""
    tmp = tempfile.TemporaryDirectory(prefix="verl-cookbook-bench-")
    releases = Path(tmp.name) / "releases"
    releases.mkdir()
    (releases / tree.label).symlink_to(tree.root, target_is_directory=True)
    return tmp


def section_check(tree: VerlTree) -> None:
    print("\n[check] `verl-cookbook check` of the whole site, pinned verl", tree.label)
    print("  (cold = empty facts and page-result caches; the wheel is already downloaded and unpacked, so no pip time)")
    cmd = [sys.executable, "-m", "verl_cookbook", "check"]
    with _temp_cache(tree) as tmp:
        env = {**os.environ, CACHE_ENV: tmp}

        def run() -> None:
            subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, check=False)

        def clear(*kinds: str) -> None:
            for kind in kinds:
                for f in (Path(tmp) / kind).glob("*.json"):
                    f.unlink()

        def cold() -> None:
            clear("facts", "pages")
            run()

        def pages_afresh() -> None:
            clear("pages")
            run()

        med, best = timed(cold, 3)
        row("cold, fresh process", med, f"(min {best * 1000:.0f} ms)")
        run()
        med, best = timed(pages_afresh, 3)
        row("facts cached, every page checked afresh", med, f"(min {best * 1000:.0f} ms)")
        run()
        med, best = timed(run)
        row("warm, fresh process", med, f"(min {best * 1000:.0f} ms; target ≤ 500 ms)")
        med, _ = timed(lambda: subprocess.run([sys.executable, "-c", "pass"], capture_output=True))
        row("  of which: bare interpreter start", med)
        med, _ = timed(
            lambda: subprocess.run(
                [sys.executable, "-c", "import verl_cookbook.cli, verl_cookbook.runner"], capture_output=True
            )
        )
        row("  of which: interpreter + importing the checker", med)

        # in-process: what pytest and a long-lived tool pay
        os.environ[CACHE_ENV] = tmp
        try:
            from verl_cookbook.cli import main

            def quiet_main() -> None:
                with open(os.devnull, "w") as devnull:
                    old = sys.stdout, sys.stderr
                    sys.stdout = sys.stderr = devnull
                    try:
                        main(["check", "--root", str(REPO)])
                    finally:
                        sys.stdout, sys.stderr = old

            quiet_main()
            med, _ = timed(quiet_main)
            row("warm, in-process (imports already paid)", med)
        finally:
            os.environ.pop(CACHE_ENV, None)


def section_facts(tree: VerlTree) -> None:
    from verl_cookbook.facts import FAMILIES, extract_all

    print("\n[facts] fact extraction alone vs a griffe load of the same package")
    med, best = timed(lambda: extract_all(tree), 3)
    row("extract_all (every family)", med, f"(min {best * 1000:.0f} ms)")
    for name, fn in FAMILIES.items():
        m, _ = timed(lambda fn=fn: fn(tree), 3)
        row(f"  family {name}", m)
    if importlib.util.find_spec("griffe") is None:
        print("  griffe is not installed: skipped (pip install -e '.[docs]')")
        return
    import griffe

    def load() -> None:
        griffe.load("verl", search_paths=[str(tree.root)], allow_inspection=False, resolve_aliases=False)

    med, best = timed(load, 2)
    row("griffe.load('verl', allow_inspection=False)", med, f"(min {best * 1000:.0f} ms)")


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


def section_scaling(tree: VerlTree) -> None:
    from verl_cookbook.facts import load_facts
    from verl_cookbook.releases import default_release
    from verl_cookbook.runner import check_paths

    print("\n[scaling] cost per snippet on synthetic pages (facts already loaded, page-result cache off)")
    facts = load_facts(tree)
    base_pages = 4
    for factor in (1, 10, 100):
        with tempfile.TemporaryDirectory(prefix="verl-cookbook-scale-") as tmp:
            root = Path(tmp)
            (root / "mkdocs.yml").write_text("site_name: synthetic\n")
            docs = root / "docs"
            docs.mkdir()
            n_pages = base_pages * factor
            for n in range(n_pages):
                (docs / f"p{n}.md").write_text(SYNTH_PAGE.format(n=n, version=default_release()))
            report = None

            def run(docs: Path = docs, root: Path = root) -> None:
                nonlocal report
                report = check_paths([docs], facts, root, {"use_cache": False})

            med, _ = timed(run, 3 if factor < 100 else 1)
            snippets = n_pages * SNIPPETS_PER_PAGE
            assert report is not None
            row(
                f"{factor:>3}x: {n_pages} pages, {snippets} snippets, {len(report.findings)} findings",
                med,
                f"{med / snippets * 1e6:8.1f} µs/snippet",
            )


def section_site(_tree: VerlTree) -> None:
    path = REPO / "scripts" / "bench_site.py"
    if not path.is_file():
        print("\n[site] scripts/bench_site.py does not exist: nothing to run")
        return
    spec = importlib.util.spec_from_file_location("bench_site", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    print("\n[site] scripts/bench_site.py")
    mod.main()


SECTIONS: dict[str, Callable[[VerlTree], None]] = {
    "check": section_check,
    "facts": section_facts,
    "scaling": section_scaling,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sections", nargs="*", choices=[*SECTIONS, []], help="default: all")
    parser.add_argument("--site", action="store_true", help="also run scripts/bench_site.py (mkdocs build, weight)")
    args = parser.parse_args(argv)
    tree = from_release()
    print(
        f"verl {tree.label} at {tree.root}; cache {cache_dir()}; {os.cpu_count()} CPUs; Python {sys.version.split()[0]}"
    )
    for name in args.sections or list(SECTIONS):
        SECTIONS[name](tree)
    if args.site:
        section_site(tree)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
