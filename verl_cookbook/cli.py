"""``verl-cookbook``: check docs against verl's source, print the facts.

Exit codes: 0 no findings, 1 findings, 2 usage or environment error. No traceback on any input.
"""

from __future__ import annotations

import argparse
import atexit
import gc
import json
import os
import sys
import textwrap
from pathlib import Path

from verl_cookbook import gcpause
from verl_cookbook.facts import Facts, Then, load_facts
from verl_cookbook.findings import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, format_github, format_json, format_text, plural
from verl_cookbook.verl_source import VerlSourceError, resolve


def exit_codes_help(findings: str, errors: str) -> str:
    """The ``--help`` epilog every subcommand shows: the one exit-code contract, with what ``1`` and ``2``
    mean for that command."""
    rows = [
        (EXIT_OK, "no findings"),
        (EXIT_FINDINGS, f"findings: {findings}"),
        (EXIT_ERROR, f"usage or environment error: {errors}"),
    ]
    lines = ["exit codes (every verl-cookbook command):"]
    for code, text in rows:
        lines += textwrap.wrap(text, 96, initial_indent=f"  {code}  ", subsequent_indent="     ")
    return "\n".join(lines)


_SOURCE_ERRORS = "verl's source out of reach or not a whole verl tree"
CHECK_EXIT_HELP = exit_codes_help(
    "at least one (a page that cannot be read as Markdown, e.g. binary, is a finding on that page)",
    f"a bad option, a PATH that does not exist, {_SOURCE_ERRORS}",
)
FACTS_EXIT_HELP = exit_codes_help("never (facts has nothing to judge)", f"a bad option, {_SOURCE_ERRORS}")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # usage errors exit 2 without a traceback
        self.print_usage(sys.stderr)
        print(f"verl-cookbook: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_ERROR)


def _add_source_args(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument(
        "--verl", metavar="VERSION", help="a verl release (default: the pinned one); 'latest' for the newest"
    )
    g.add_argument("--verl-src", metavar="DIR", help="a verl checkout or unpacked source tree")
    p.add_argument("--no-cache", action="store_true", help="extract facts afresh instead of reading the cache")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="verl-cookbook",
        description=__doc__.splitlines()[0],
        epilog="exit codes: 0 no findings, 1 findings, 2 usage or environment error (see COMMAND --help)",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    c = sub.add_parser(
        "check",
        help="check Markdown pages and snippets against verl's source",
        description="Check Markdown pages and snippets against verl's source.",
        epilog=CHECK_EXIT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    c.add_argument("paths", nargs="*", type=Path, help="Markdown files or folders (default: the site's docs/)")
    _add_source_args(c)
    c.add_argument("--format", choices=("text", "json", "github"), default="text")
    c.add_argument("--root", type=Path, help="the site root that includes resolve against (default: found)")
    c.add_argument(
        "--lenient",
        action="store_true",
        help="for docs that declare no checks (another project's): guess each block's kind from its language",
    )
    f = sub.add_parser(
        "facts",
        help="print the facts extracted from verl's source",
        description="Print the facts extracted from verl's source, each with its file:line.",
        epilog=FACTS_EXIT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_source_args(f)
    f.add_argument("--format", choices=("text", "json"), default="text")
    _add_doctor(sub)
    return parser


PRODUCTS = ("A2", "A3", "950")


def _add_doctor(sub: argparse._SubParsersAction) -> None:
    """``doctor``'s options; the module itself is imported only when the command runs (a fast ``check``)."""
    p = sub.add_parser(
        "doctor",
        help="check your own launch scripts and verl configs",
        description="Check a user's launch script or verl config before it burns cluster hours.",
        epilog=exit_codes_help(
            "at least one",
            "a bad option, a FILE that does not exist or is not a launch script or config (a folder, binary, "
            "not UTF-8, YAML that is not a mapping), verl's source out of reach or not a whole verl tree",
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("files", nargs="+", type=Path, metavar="FILE", help="launch scripts (.sh) or verl configs (.yaml)")
    p.add_argument("--device", choices=("npu", "gpu"), help="the hardware the job runs on (default: guessed)")
    p.add_argument("--cann", metavar="VERSION", help="the CANN version on the cluster, e.g. 8.5.0 (default: guessed)")
    p.add_argument("--product", choices=PRODUCTS, help="the Ascend product: A2, A3 or 950 (default: guessed)")
    p.add_argument(
        "--startup",
        nargs="?",
        const="",
        metavar="PYTHON",
        help="also run verl's own startup checks, "
        "in a Python that has verl (default: found; see verl_cookbook/startup/)",
    )
    _add_source_args(p)
    p.add_argument("--format", choices=("text", "json", "github"), default="text")
    p.set_defaults(func=cmd_doctor)


def cmd_doctor(args: argparse.Namespace) -> int:
    from verl_cookbook import doctor

    if not doctor.valid_cann(args.cann):
        print(f"verl-cookbook doctor: error: --cann {args.cann!r}: expected a version such as 8.5.0", file=sys.stderr)
        return EXIT_ERROR
    return doctor.run(args, _facts(args))


def _facts(args: argparse.Namespace, then: Then | None = None):
    tree = resolve(getattr(args, "verl", None), getattr(args, "verl_src", None))
    return load_facts(tree, use_cache=not args.no_cache, then=then)


def cmd_check(args: argparse.Namespace) -> int:
    from verl_cookbook.runner import helper

    missing = [p for p in args.paths if not p.exists()]
    if missing:  # before verl is fetched: a usage error, not a finding
        for p in missing:
            print(f"verl-cookbook: error: {p}: no such file or folder", file=sys.stderr)
        return EXIT_ERROR
    facts = _facts(args, then=helper)  # the child extracting facts composes meanwhile, then checks some pages
    try:
        return _check(args, facts)
    finally:
        if facts.helper is not None:  # not taken (no page was checked): end it
            facts.helper.stop()


def _check(args: argparse.Namespace, facts: Facts) -> int:
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
    report = check_paths(paths, facts, root, options)
    findings = report.findings
    if site_mode:
        findings = sorted(
            findings + orphan_snippets(root, report.includes) + consistency(facts), key=lambda f: f.sort_key()
        )
    out = {"text": format_text, "json": format_json, "github": format_github}[args.format](findings)
    if out:
        print(out)
    if args.format == "text":
        print(
            f"verl {facts.tree.label}: {plural(report.pages, 'page')}, {plural(report.blocks, 'code block')}, "
            f"{plural(report.tables, 'table')}, {plural(report.claims, 'claim')}; {report.checked} checked; "
            f"{plural(len(findings), 'finding')}",
            file=sys.stderr,
        )
    return EXIT_FINDINGS if findings else EXIT_OK


def cmd_facts(args: argparse.Namespace) -> int:
    facts = _facts(args)
    if args.format == "json":
        from verl_cookbook import catalog

        # verl's own facts, plus the curated ones (not from verl; each entry names its public source)
        out = {**facts.data, "catalog": catalog.as_jsonable()}
        print(json.dumps(out, ensure_ascii=False, indent=2, default=str))
        return EXIT_OK
    from verl_cookbook.facts_text import render

    print(render(facts))
    return EXIT_OK


def run() -> None:
    """The ``verl-cookbook`` program (and ``python -m verl_cookbook``): :func:`main` on the command line, then a
    quick exit.

    Once ``main`` has returned, only the exit remains. A normal interpreter exit frees every object one by one, and
    after a cold site check that took 0.4-0.65 s (measured: the time from ``main`` returning to the process
    ending), against about 10 ms now. So the exit handlers run (temporary folders, logging), standard output and
    error are flushed, and the process ends with ``os._exit``, as mypy's ``--fast-exit`` does. The cyclic
    collector stays paused to the end, because resuming it would first walk every object the run made.
    ``main([...])`` called in a process that goes on (tests, the MkDocs plugin) is unaffected.
    """
    gc.disable()
    code = main()  # argparse's own exits (--help, a bad option) leave as SystemExit, the usual way
    exit_now(code)


def exit_now(code: int) -> None:
    """Run the exit handlers, flush standard output and error, and end the process with ``code`` without
    tearing the interpreter down."""
    run_exitfuncs = getattr(atexit, "_run_exitfuncs", None)
    if run_exitfuncs is None:  # not CPython: the ordinary exit
        raise SystemExit(code)
    run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe or stream: nothing more can be said on it
            pass
    os._exit(code)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        with gcpause.paused():  # one command is a short run: see gcpause
            if args.command == "check":
                return cmd_check(args)
            if args.command == "facts":
                return cmd_facts(args)
            return args.func(args)
    except VerlSourceError as e:
        print(f"verl-cookbook: error: {e}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as e:  # never a traceback for the user; say what broke and where to report it
        print(f"verl-cookbook: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        return EXIT_ERROR
