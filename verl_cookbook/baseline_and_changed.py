"""``check``'s options for adopting the checker in a repository that already has findings: ``--baseline`` and
``--write-baseline`` (:mod:`verl_cookbook.baseline`), ``--changed`` (:mod:`verl_cookbook.changed`). The command line
calls the functions here; each does nothing unless its option was given."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the command line builds its options from here on every run, `facts` too: no rules loaded for it
    from verl_cookbook.findings import Finding


class BaselineOrChangedError(Exception):
    """A usage or environment error of these options (exit 2)."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument(
        "--baseline",
        metavar="FILE",
        type=Path,
        help="report only findings not recorded in FILE (written by --write-baseline), and say which recorded ones "
        "are fixed",
    )
    g.add_argument(
        "--write-baseline",
        metavar="FILE",
        type=Path,
        help="record every finding of this run in FILE and exit 0",
    )
    p.add_argument(
        "--changed",
        metavar="REV",
        nargs="?",
        const="HEAD",
        help="check only pages changed since REV (default HEAD: uncommitted changes), or whose included files or "
        "cited files changed; in CI, the target branch (e.g. origin/main)",
    )


def take_path_back(args: argparse.Namespace) -> None:
    """``check --changed docs/``: argparse gives ``docs/`` to ``--changed`` as its REV. A value that is an existing
    path and not a git revision is a PATH: it goes back to the paths, and REV is ``HEAD``."""
    rev = getattr(args, "changed", None)
    if rev is None or rev == "HEAD" or not Path(rev).exists():
        return
    from verl_cookbook.changed import is_revision

    if not is_revision(rev, Path.cwd()):
        args.paths = [Path(rev), *args.paths]
        args.changed = "HEAD"


def narrow(args: argparse.Namespace, paths: list[Path], root: Path | None) -> list[Path]:
    """``paths`` as given, or (``--changed``) the pages under them that the change can affect."""
    if args.changed is None:
        return paths
    from verl_cookbook.changed import ChangedError, changed_files, select
    from verl_cookbook.runner import collect, find_site_root

    try:
        changed = changed_files(args.changed, Path.cwd())
    except ChangedError as e:
        raise BaselineOrChangedError(str(e)) from None
    files, _missing = collect(paths)
    site = root or find_site_root(paths[0] if paths else Path.cwd())
    chosen = select(files, changed, site)
    print(
        f"--changed {args.changed}: {len(chosen)} of {len(files)} page(s) affected by {len(changed)} changed file(s)",
        file=sys.stderr,
    )
    return chosen


def checked_files(pages: list[Path], includes: set[str]) -> set[str]:
    """The files a run looked at (its ``pages`` and what they include), named as its findings name them
    (relative to the working folder)."""
    from verl_cookbook.runner import shown_path

    cwd = Path.cwd().resolve()
    return {shown_path(f, cwd) for f in pages} | set(includes)


def finish(args: argparse.Namespace, findings: list[Finding], checked: set[str]) -> list[Finding]:
    """The findings to report: all, none (``--write-baseline`` records them), or those not in ``--baseline``.
    ``checked``: the files the run looked at, as the findings name them."""
    from verl_cookbook import baseline

    if args.write_baseline is not None:
        n = baseline.write(args.write_baseline, findings)
        print(
            f"baseline: recorded {len(findings)} finding(s) ({n} distinct) in {args.write_baseline}; run with "
            f"--baseline {args.write_baseline} to see only new ones",
            file=sys.stderr,
        )
        return []
    if args.baseline is None:
        return findings
    try:
        entries = baseline.read(args.baseline)
    except baseline.BaselineError as e:
        raise BaselineOrChangedError(str(e)) from None
    applied = baseline.apply(entries, findings, checked)  # a file this run did not look at is not "fixed"
    for line in baseline.summary(applied, args.baseline):
        print(line, file=sys.stderr)
    return applied.new
