"""Fuzz every target of tests/fuzz_targets.py with Hypothesis and print the figures.

    python scripts/fuzz.py                      # 10,000 examples per target
    python scripts/fuzz.py --examples 500 --target shell --target json

An internal error is any exception a target raises (the checker breaking its promise: a traceback, or a
malformed finding). The run does not stop at the first one: each distinct error (its type and the line
of verl_cookbook it was raised from) is counted with the first input that hit it, so one run reports
them all. Exit status 1 when there is any internal error. Each one found belongs in a regression test
(tests/test_fuzz_regressions.py).
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from fuzz_targets import TARGETS, Target  # noqa: E402
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402


@dataclass
class Result:
    target: str
    examples: int = 0
    errors: dict[str, tuple[int, str, str]] = field(default_factory=dict)  # signature -> (hits, input, trace)
    seconds: float = 0.0


def _signature(e: BaseException) -> str:
    frames = [f for f in traceback.extract_tb(e.__traceback__) if "verl_cookbook" in f.filename]
    where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "(outside verl_cookbook)"
    return f"{type(e).__name__} at {where}"


def fuzz(target: Target, examples: int, seed: int | None) -> Result:
    result = Result(target.name)

    def run(value: object) -> None:
        result.examples += 1
        try:
            target.run(value)
        except Exception as e:  # an internal error: count it, keep going
            sig = _signature(e)
            hits, first, trace = result.errors.get(sig, (0, repr(value), traceback.format_exc()))
            result.errors[sig] = (hits + 1, first, trace)

    test = settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.generate],  # no failure to shrink: errors are caught and counted above
        suppress_health_check=list(HealthCheck),
    )(given(target.strategy())(run))
    if seed is not None:
        from hypothesis import seed as hseed

        test = hseed(seed)(test)
    start = time.perf_counter()
    test()
    result.seconds = time.perf_counter() - start
    return result


def main(argv: list[str] | None = None) -> int:
    names = [t.name for t in TARGETS]
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=int, default=10_000, help="examples per target (default 10000)")
    ap.add_argument("--target", action="append", choices=names, help="only these targets (default: all)")
    ap.add_argument("--seed", type=int, help="a fixed seed, to repeat a run")
    ap.add_argument("--show", action="store_true", help="print each internal error's traceback")
    args = ap.parse_args(argv)
    chosen = [t for t in TARGETS if not args.target or t.name in args.target]
    print(f"{'target':<14} {'examples':>9} {'internal errors':>16} {'hits':>6} {'time s':>8} {'ex/s':>7}")
    results = []
    for t in chosen:
        r = fuzz(t, args.examples, args.seed)
        results.append(r)
        hits = sum(h for h, _i, _t in r.errors.values())
        rate = r.examples / r.seconds if r.seconds else 0.0
        row = f"{r.target:<14} {r.examples:>9} {len(r.errors):>16} {hits:>6} {r.seconds:>8.1f} {rate:>7.0f}"
        print(row, flush=True)
    total_errors = sum(len(r.errors) for r in results)
    total = sum(r.examples for r in results)
    print(f"{'all':<14} {total:>9} {total_errors:>16} {'':>6} {sum(r.seconds for r in results):>8.1f}")
    for r in results:
        for sig, (hits, first, trace) in r.errors.items():
            print(f"\n{r.target}: {sig} ({hits} examples); first input:\n  {first[:500]}")
            if args.show:
                print(trace)
    return 1 if total_errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
