"""``verl-cookbook check``: what the command does once its arguments are parsed and verl's facts are loaded
(``cli.py`` owns the command line, its usage errors and the exit-code contract)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from verl_cookbook import baseline_and_changed, github_output
from verl_cookbook.facts import Facts
from verl_cookbook.findings import (
    Finding,
    apply_rules_options,
    count_text,
    default_lang,
    fails,
    format_json,
    format_text,
)
from verl_cookbook.interface import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, plural


def run(args: argparse.Namespace, facts: Facts) -> int:
    """``verl-cookbook check`` with its parsed ``args`` against ``facts``: the pages checked, the findings filtered
    (``--select/--ignore``, suppressions, ``--baseline``/``--changed``) and printed, or fixed (``--diff/--fix``);
    returns the exit code."""
    from verl_cookbook import coverage_debt
    from verl_cookbook.runner import check_paths, consistency, find_site_root, orphan_snippets

    site_mode = not args.paths
    if site_mode:
        root = args.root or find_site_root(Path.cwd())
        if not (root / "docs").is_dir():
            print(f"verl-cookbook: error: no PATH given and no docs/ folder at {root}", file=sys.stderr)
            return EXIT_ERROR
        paths = [root / "docs"]
    else:
        paths = args.paths
        root = args.root
    options = {"lenient": args.lenient, "use_cache": not args.no_cache}
    paths = baseline_and_changed.narrow(args, paths, root)  # --changed: the pages the change can affect
    report = check_paths(paths, facts, root, options)
    findings = report.findings
    if site_mode:
        orphans = orphan_snippets(root, report.includes) if args.changed is None else []  # some pages: not known
        debt = coverage_debt.problems(root) if not args.lenient else []
        findings = sorted(findings + orphans + debt + consistency(facts), key=lambda f: f.sort_key())
    base = root or (find_site_root(paths[0]) if paths else Path.cwd())  # includes are named relative to the site root
    checked = [*report.files, *(base / p for p in report.includes)]  # where suppression comments may be
    findings = sorted(findings + install_runs(args, report.files, base), key=lambda f: f.sort_key())
    off: tuple[str, ...] = ()
    if args.lenient:
        from verl_cookbook.lenient import QUOTING_ADVICE as off  # style advice: another project's docs keep theirs
    findings = apply_rules_options(findings, args.select or (), args.ignore or (), checked, off)
    findings = baseline_and_changed.finish(
        args, findings, baseline_and_changed.checked_files(report.files, report.includes)
    )
    lang = args.lang or default_lang()
    if args.diff or args.fix:
        from verl_cookbook import fixes

        return fixes.run(findings, [base], lang, write=args.fix)
    formats: dict[str, Callable[[list[Finding]], str]] = {
        "text": lambda fs: format_text(fs, lang=lang),
        "json": lambda fs: format_json(fs, lang),
        "github": lambda fs: github_output.emit(fs, lang=lang),
    }
    out = formats[args.format](findings)
    if out:
        print(out)
    if args.format == "text":
        print(
            f"verl {facts.tree.label}: {plural(report.pages, 'page')}, {plural(report.blocks, 'code block')}, "
            f"{plural(report.tables, 'table')}, {plural(report.claims, 'claim')}; {report.checked} checked; "
            f"{count_text(findings)}",
            file=sys.stderr,
        )
    return EXIT_FINDINGS if fails(findings) else EXIT_OK


def install_runs(args: argparse.Namespace, checked: list[Path], root: Path) -> list[Finding]:
    """The install stage: with --run-install, the declared runs of the snippets the ``checked`` pages include (skips
    reported on stderr with their reason); without it, a note per page that has such snippets, saying they were
    not run. An entry of the manifest that cannot be run is a finding either way."""
    from verl_cookbook.install_manifest import load_manifest
    from verl_cookbook.runner import shown_path

    runs, bad = load_manifest(root)
    declared = {r.snippet for r in runs}
    pages = {}
    for page in checked if declared else []:
        text = page.read_text(encoding="utf-8", errors="replace")
        if hit := sorted(s for s in declared if f'"{s}"' in text):
            pages[page] = hit
    if not getattr(args, "run_install", False) or not pages:
        for page, snippets in sorted(pages.items()):
            print(
                f"{shown_path(page)}: install runs not run ({', '.join(snippets)}; --run-install runs them)",
                file=sys.stderr,
            )
        return bad
    from verl_cookbook import install_run

    found: list[Finding] = []
    for outcome in install_run.run_all(root, only={s for v in pages.values() for s in v}):  # with ``bad``
        for line in outcome.skipped:
            print(f"skipped: {line}", file=sys.stderr)
        found += outcome.findings
        if outcome.run.snippet != install_run.MANIFEST:
            state = "failed" if outcome.findings else "passed"
            print(f"install run {state}: {outcome.run.name} ({outcome.run.snippet})", file=sys.stderr)
    return found
