#!/usr/bin/env python3
"""The shell reader, measured on a verl checkout's launch scripts: printed, asserts nothing.

    python scripts/bench_shell.py PATH_TO_VERL_CHECKOUT [--reference COMMIT]

For every ``examples/**/*.sh`` it counts the scripts whose verl trainer command is recognised (a command
that runs a ``verl.trainer.*`` / ``verl.experimental.*`` module), against the scripts that name such a
module on a line that is not a comment (what a person reading them would call a launch script), and
times each reader over all scripts (median of 5 runs, same process, same machine, same run):

- ``hand-written``: the lexer this package had before tree-sitter, loaded from git (``--reference``,
  default: the last commit before the switch); skipped when git or that commit is not at hand;
- ``tree-sitter parse``: tree-sitter-bash's parse alone;
- ``tree-sitter + evaluation``: ``verl_cookbook.shell.evaluate.parse_script`` (parse, then the static
  evaluation of arrays, defaults, functions and branches).

Ratios are against the hand-written reader measured in this run.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from verl_cookbook.shell import evaluate  # noqa: E402

REFERENCE = "c2ff6f6"  # the last commit with the hand-written lexer
_ENTRY = re.compile(r"^verl\.(trainer|experimental)\.")
_MENTION = re.compile(r"verl[./](trainer|experimental)[./]\w+")


def _reference_reader(commit: str):
    try:
        text = subprocess.run(
            ["git", "-C", str(REPO), "show", f"{commit}:verl_cookbook/shellparse.py"],
            capture_output=True,
            text=True,
            check=True,
            timeout=30,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    tmp = Path(tempfile.mkdtemp()) / "shellparse_reference.py"
    tmp.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("shellparse_reference", tmp)
    if spec is None or spec.loader is None:
        return None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def _recognised(parse, texts: list[str]) -> list[bool]:
    out = []
    for t in texts:
        script = parse(t)
        out.append(any(_ENTRY.match(c.module or "") for c in script.commands))
    return out


def _median_time(fn, texts: list[str], repeat: int = 5) -> float:
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for t in texts:
            fn(t)
        runs.append(time.perf_counter() - t0)
    return statistics.median(runs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("verl", type=Path)
    ap.add_argument("--reference", default=REFERENCE, help="git commit of the hand-written reader")
    args = ap.parse_args(argv)
    files = sorted((args.verl / "examples").rglob("*.sh"))
    if not files:
        print(f"bench_shell.py: error: no examples/**/*.sh under {args.verl}", file=sys.stderr)
        return 2
    texts = [f.read_text(encoding="utf-8", errors="replace") for f in files]
    truth = [
        bool(_MENTION.search("\n".join(ln for ln in t.splitlines() if not ln.lstrip().startswith("#")))) for t in texts
    ]
    print(f"{len(files)} scripts under {args.verl}/examples; {sum(truth)} name a verl trainer module")
    rows = []
    ref = _reference_reader(args.reference)
    if ref is not None:
        rows.append(("hand-written", ref.parse_script))
    parser = evaluate.bash_parser()
    rows.append(("tree-sitter parse", lambda t: parser.parse(t.encode("utf-8", "surrogateescape"))))
    rows.append(("tree-sitter + evaluation", evaluate.parse_script))
    base = None
    print(f"{'reader':28} {'recognised':>12} {'missed':>7} {'time (s)':>9} {'ms/script':>10} {'ratio':>6}")
    for name, fn in rows:
        t = _median_time(fn, texts)
        base = t if base is None else base
        if name == "tree-sitter parse":
            rec = "-"
            missed = "-"
        else:
            got = _recognised(fn, texts)
            rec = f"{sum(g and w for g, w in zip(got, truth, strict=True))}/{sum(truth)}"
            missed = str(sum(w and not g for g, w in zip(got, truth, strict=True)))
        print(f"{name:28} {rec:>12} {missed:>7} {t:9.3f} {1000 * t / len(texts):10.2f} {t / base:6.2f}")
    errs = sum(1 for t in texts if parser.parse(t.encode()).root_node.has_error)
    print(f"tree-sitter parse errors on scripts bash -n accepts: {errs} (read around by the evaluator)")
    if ref is None:
        print(f"(hand-written reader not measured: git commit {args.reference} not available)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
