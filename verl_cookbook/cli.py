"""``verl-cookbook``: check docs against verl's source, print the facts.

Exit codes: 0 no findings (or only info notes), 1 findings, 2 usage or environment error, 3 internal error (a bug
in verl-cookbook: one line saying so; ``VERL_COOKBOOK_DEBUG=1`` prints the traceback). No traceback on any input
otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import textwrap
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

from verl_cookbook import baseline_and_changed, gcpause
from verl_cookbook.facts import Facts, load_facts
from verl_cookbook.interface import EXIT_ERROR, EXIT_FINDINGS, EXIT_INTERNAL, EXIT_OK, LANGS, plural
from verl_cookbook.verl_source import VerlSourceError, resolve_source

DEBUG_ENV = "VERL_COOKBOOK_DEBUG"  # set to 1: an internal error prints its traceback
REPORT_URL = "https://github.com/verl-cookbook/verl-cookbook/issues"
INTERNAL_HELP = f"internal error: a bug in verl-cookbook; {DEBUG_ENV}=1 prints the traceback, report it at {REPORT_URL}"


def exit_codes_help(findings: str, errors: str, ok: str = "no findings") -> str:
    """The ``--help`` epilog every subcommand shows: the one exit-code contract, with what ``0``, ``1`` and ``2``
    mean for that command."""
    rows = [
        (EXIT_OK, ok),
        (EXIT_FINDINGS, f"findings: {findings}"),
        (EXIT_ERROR, f"usage or environment error: {errors}"),
        (EXIT_INTERNAL, INTERNAL_HELP),
    ]
    lines = ["exit codes (every verl-cookbook command):"]
    for code, text in rows:
        lines += textwrap.wrap(text, 96, initial_indent=f"  {code}  ", subsequent_indent="     ")
    return "\n".join(lines)


_SOURCE_ERRORS = "verl's source out of reach, not a whole verl tree, or holding a file Python cannot parse"
_OK_WITH_INFO = "no findings, or only info notes"
CHECK_EXIT_HELP = exit_codes_help(
    "at least one error or warning (a page that cannot be read as text, binary or not UTF-8, is a finding on that "
    "page; an empty page has none)",
    f"a bad option, a PATH that does not exist, {_SOURCE_ERRORS}",
    _OK_WITH_INFO,
)
FACTS_EXIT_HELP = exit_codes_help("never (facts has nothing to judge)", f"a bad option, {_SOURCE_ERRORS}")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # usage errors exit 2 without a traceback
        self.print_usage(sys.stderr)
        print(f"verl-cookbook: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_ERROR)


def _add_source_args(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument(
        "--verl",
        metavar="VERSION",
        help="a verl release, 'installed' for the verl this Python has, 'latest' for the newest (default: the "
        "installed verl if any, else the pinned release; a covered release works offline)",
    )
    g.add_argument("--verl-src", metavar="DIR", help="a verl checkout or unpacked source tree")
    g.add_argument("--wheel", metavar="PATH", help="a verl wheel file (verl-VERSION-….whl), e.g. copied in offline")
    p.add_argument("--no-cache", action="store_true", help="extract facts afresh instead of reading the cache")


def _rule_patterns(value: str) -> list[str]:
    """``--select/--ignore``: comma-separated rule codes or prefixes (``config``, ``engine/unknown-``), each naming
    at least one declared rule (``verl-cookbook`` docs/tools/rules.md lists them)."""
    from verl_cookbook.rules import known_pattern

    patterns = [p.strip() for p in value.split(",") if p.strip()]
    unknown = [p for p in patterns if not known_pattern(p)]
    if unknown:
        raise argparse.ArgumentTypeError(f"no rule code starts with {', '.join(unknown)}")
    return patterns


def _add_lang_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lang", choices=LANGS, help="the language of the findings: zh (中文) or en (default: zh when the "
                   "locale's LC_ALL, LC_MESSAGES or LANG starts with zh, else en)")  # fmt: skip


def _add_rule_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--select", type=_rule_patterns, action="extend", metavar="CODES", help="report only these rules "
                   "(codes or prefixes, comma-separated: config,engine/unknown-backend)")  # fmt: skip
    p.add_argument("--ignore", type=_rule_patterns, action="extend", metavar="CODES", help="never report these "
                   "rules (codes or prefixes); a `verl-cookbook: ignore[CODE]` comment silences one line")  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="verl-cookbook",
        description=__doc__.splitlines()[0],
        epilog="exit codes: 0 no findings, 1 findings, 2 usage or environment error, 3 internal error "
        "(see COMMAND --help)",
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
    _add_lang_arg(c)
    _add_rule_args(c)
    c.add_argument("--root", type=Path, help="the site root that includes resolve against (default: found)")
    c.add_argument(
        "--lenient",
        action="store_true",
        help="for docs that declare no checks (another project's): guess each block's kind from its language",
    )
    c.add_argument(
        "--run-install",
        action="store_true",
        help="also run the install snippets declared in install-runs.yaml, each in a throwaway virtualenv with the "
        "real wheels from the package index (needs the index; see verl_cookbook/install_run.py)",
    )
    _add_fix_args(c)
    baseline_and_changed.add_arguments(c)
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
    _add_coverage(sub)
    _add_stack(sub)
    _add_cache(sub)
    return parser


PRODUCTS = ("A2", "A3", "950")


def _add_fix_args(p: argparse.ArgumentParser) -> None:
    group = p.add_mutually_exclusive_group()
    group.add_argument(
        "--diff",
        action="store_true",
        help="print the mechanical fixes as a unified diff and change nothing (exit 1 when there is one)",
    )
    group.add_argument(
        "--fix",
        action="store_true",
        help="apply the mechanical fixes to the files, then report the findings that have none",
    )


def _add_doctor(sub: argparse._SubParsersAction) -> None:
    """``doctor``'s options; the module itself is imported only when the command runs (a fast ``check``)."""
    p = sub.add_parser(
        "doctor",
        help="check your own launch scripts and verl configs",
        description="Check a user's launch script or verl config before it burns cluster hours.",
        epilog=exit_codes_help(
            "at least one error or warning",
            f"a bad option, a FILE that does not exist or is a folder, {_SOURCE_ERRORS} (a FILE that cannot be read "
            "as text, binary or not UTF-8, is a finding on that file; an empty file has none)",
            _OK_WITH_INFO,
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("files", nargs="+", type=Path, metavar="FILE", help="launch scripts (.sh) or verl configs (.yaml)")
    p.add_argument("--device", choices=("npu", "gpu"), help="the hardware the job runs on (default: guessed)")
    p.add_argument("--cann", metavar="VERSION", help="the CANN version on the cluster, e.g. 8.5.0 (default: guessed)")
    p.add_argument("--product", choices=PRODUCTS, help="the Ascend product: A2, A3 or 950 (default: guessed)")
    p.add_argument(
        "--startup",
        action="store_true",
        help="also run verl's own startup checks in a separate process, in a Python that has verl",
    )
    p.add_argument(
        "--startup-python",
        metavar="PYTHON",
        help="the Python --startup runs verl in (implies --startup; default: $VERL_COOKBOOK_STARTUP_PYTHON, then "
        "python3 on PATH, then the environment scripts/startup_env.sh builds)",
    )
    _add_source_args(p)
    p.add_argument("--format", choices=("text", "json", "github"), default="text")
    p.add_argument("--quiet", "-q", action="store_true", help="print only the findings (no guesses, notes or summary)")
    _add_fix_args(p)
    _add_lang_arg(p)
    _add_rule_args(p)
    p.set_defaults(func=cmd_doctor)


def _add_coverage(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "coverage",
        help="how many factual statements of each page are held by a check, a run, a citation or ※",
        description="Claim coverage, per page and for the site: statements, factual ones, and how each factual one "
        "is held (a check, a run of the real code, a verified citation, a ※ mark) or unbound, and how many of the "
        "unbound ones the site's coverage-debt.json records. `check` reports the unbound statements it does not "
        "record (coverage/unbound).",
        epilog=exit_codes_help(
            "the total is below --fail-under", "a bad option, a PATH that does not exist, no docs/ folder"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("paths", nargs="*", type=Path, help="Markdown files or folders (default: the site's docs/)")
    p.add_argument("--root", type=Path, help="the site root (where coverage-debt.json is; default: found)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--show-unbound", action="store_true", help="list each unbound statement: page:line and its words")
    p.add_argument("--fail-under", type=float, metavar="PERCENT", help="exit 1 when less of the site is bound")
    p.add_argument(
        "--write-debt",
        action="store_true",
        help="rewrite the site's coverage-debt.json from the pages as they are (every statement `check` reports as "
        "unbound, history-unbound or blanket-checked) and exit 0",
    )
    p.set_defaults(func=cmd_coverage)


def cmd_coverage(args: argparse.Namespace) -> int:
    from verl_cookbook import coverage_report
    from verl_cookbook.runner import find_site_root

    missing = [p for p in args.paths if not p.exists()]
    for p in missing:
        print(f"verl-cookbook: error: {p}: no such file or folder", file=sys.stderr)
    if missing:
        return EXIT_ERROR
    root = args.root or find_site_root(args.paths[0] if args.paths else Path.cwd())
    paths = args.paths or [root / "docs"]
    if not args.paths and not paths[0].is_dir():
        print(f"verl-cookbook: error: no PATH given and no docs/ folder at {root}", file=sys.stderr)
        return EXIT_ERROR
    results = coverage_report.measure(paths, root)
    if args.write_debt:
        n = coverage_report.write_debt(results, root)
        print(f"coverage: wrote {n} entries to {root / 'coverage-debt.json'}", file=sys.stderr)
        return EXIT_OK
    if args.format == "json":
        print(coverage_report.as_json(results))
    else:
        print(coverage_report.format_text(results, args.show_unbound))
    total = coverage_report.total(results)
    if args.fail_under is not None and total.percent < args.fail_under:
        print(f"coverage: {total.percent:.1f}% bound, under --fail-under {args.fail_under:g}", file=sys.stderr)
        return EXIT_FINDINGS
    return EXIT_OK


def _add_stack(sub: argparse._SubParsersAction) -> None:
    """``stack``'s options; the modules load only when the command runs."""
    p = sub.add_parser(
        "stack",
        help="the Ascend software stack for a verl release: an install plan pip's resolver accepts",
        description="Print the install plan for verl on an Ascend product: every package pinned with the requirement "
        "that forces it, the install order and build commands, the CANN/driver and glibc the wheels need. Resolved "
        "by pip over the index's metadata; covered releases work offline from the committed resolutions.",
        epilog=exit_codes_help(
            "the combination cannot install (pip's conflicting requirements quoted) or has no plan",
            "a bad option, a combination not resolved offline (add --refresh), the index out of reach with --refresh",
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--verl", required=True, metavar="VERSION", help="the verl release, e.g. 0.9.1")
    p.add_argument("--product", required=True, choices=PRODUCTS, help="the Ascend product")
    p.add_argument("--python", default="3.11", metavar="X.Y", help="the Python of the target (default: 3.11)")
    p.add_argument("--arch", default="aarch64", choices=("aarch64", "x86_64"), help="default: aarch64")
    p.add_argument("--glibc", default="2.35", metavar="X.Y", help="the target's glibc (default: 2.35)")
    p.add_argument("--cann", metavar="VERSION", help="the CANN installed, compared with the plan's")
    p.add_argument("--backend", default="nccl", choices=("nccl", "kimi_ckpt_engine", "mooncake"),
                   help="the checkpoint-engine backend (default: nccl, HCCL on NPU)")  # fmt: skip
    p.add_argument("--pin", action="append", default=[], metavar="NAME==VERSION", help="a version you must keep")
    p.add_argument("--format", choices=("text", "requirements", "json"), default="text")
    p.add_argument("--refresh", action="store_true", help="resolve now with pip over the index (needs the network)")
    p.add_argument("--index-url", default=None, metavar="URL", help="the index --refresh reads (default: PyPI)")
    p.set_defaults(func=cmd_stack)


def cmd_stack(args: argparse.Namespace) -> int:
    from verl_cookbook import stack_command

    return stack_command.run(args)


def _add_cache(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "cache",
        help="show or empty the cache folder (verl releases and the results derived from them)",
        description="Show where the cache is and how big (info), or empty it (clean). Results derived from verl's "
        "source are kept below a size limit, least recently used evicted first; verl releases are kept until "
        "`cache clean --all`. The folder is $VERL_COOKBOOK_CACHE, else $XDG_CACHE_HOME/verl-cookbook, else "
        "~/.cache/verl-cookbook.",
        epilog=exit_codes_help(
            "never (cache has nothing to judge)", "a bad option, a cache folder that cannot be read or emptied"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = p.add_subparsers(dest="action", required=True, parser_class=_Parser)
    actions.add_parser("info", help="where the cache is, and the files and bytes in each of its folders")
    clean = actions.add_parser("clean", help="remove the derived results (facts, compositions, page results)")
    clean.add_argument("--all", action="store_true", help="also remove the unpacked verl releases")
    p.set_defaults(func=cmd_cache)


def cmd_cache(args: argparse.Namespace) -> int:
    from verl_cookbook import cache
    from verl_cookbook.verl_source import cache_dir

    root = cache_dir()
    if args.action == "clean":
        try:
            removed = cache.clean(root, releases=args.all)
        except OSError as e:
            print(f"verl-cookbook: error: cannot empty the cache {root}: {e}", file=sys.stderr)
            return EXIT_ERROR
        files = sum(r.files for r in removed)
        print(f"{root}: removed {plural(files, 'file')}, {cache.human(sum(r.size for r in removed))}")
        return EXIT_OK
    rows = cache.usage(root)
    print(f"{root}" + ("" if root.is_dir() else " (not created yet)"))
    for r in rows:
        print(f"  {r.name + '/':<12} {plural(r.files, 'file'):>12}  {cache.human(r.size):>9}")
    derived = sum(r.size for r in rows if r.name in cache.DERIVED)  # what the limit bounds (not jieba/ or others)
    print(
        f"  total {cache.human(sum(r.size for r in rows))}; derived results {cache.human(derived)} of a "
        f"{cache.human(cache.LIMIT_BYTES)} limit (least recently used evicted first)"
    )
    return EXIT_OK


def _bound_the_cache() -> None:
    """After a command: keep the cache's derived results below their limit (see ``cache.prune``). A cache that
    cannot be read or written only costs speed, never the command's result."""
    from verl_cookbook import cache

    try:
        cache.prune()
    except OSError:
        pass


def cmd_doctor(args: argparse.Namespace) -> int:
    from verl_cookbook import doctor

    if not doctor.valid_cann(args.cann):
        print(f"verl-cookbook doctor: error: --cann {args.cann!r}: expected a version such as 8.5.0", file=sys.stderr)
        return EXIT_ERROR
    return doctor.run(args, _facts(args))


def _facts(args: argparse.Namespace, installed_default: bool = True) -> Facts:
    """The facts of the verl the options name (``verl_source.resolve_source``): a covered release from what ships
    with this package, no network; its other files only when a check needs them."""
    source = resolve_source(args.verl, args.verl_src, args.wheel, installed_default)
    if args.no_cache and source.whole is not None:  # extracting afresh needs the release's source
        return load_facts(source.whole("--no-cache (facts extracted afresh from the release's source)"), False)
    return load_facts(source.tree, use_cache=not args.no_cache, whole=source.whole)


def cmd_check(args: argparse.Namespace) -> int:
    baseline_and_changed.take_path_back(args)  # `--changed docs/`: docs/ is a PATH, not a revision
    missing = [p for p in args.paths if not p.exists()]
    if missing:  # before verl is fetched: a usage error, not a finding
        for p in missing:
            print(f"verl-cookbook: error: {p}: no such file or folder", file=sys.stderr)
        return EXIT_ERROR
    if not args.paths:  # the site's own check: before verl is read, and against the release its pages pin
        from verl_cookbook.runner import find_site_root

        root = args.root or find_site_root(Path.cwd())
        if not (root / "docs").is_dir():
            print(f"verl-cookbook: error: no PATH given and no docs/ folder at {root}", file=sys.stderr)
            return EXIT_ERROR
    from verl_cookbook import check_command

    return check_command.run(args, _facts(args, installed_default=bool(args.paths)))


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
    """The ``verl-cookbook`` program (and ``python -m verl_cookbook``): :func:`main` on the command line."""
    raise SystemExit(main(exiting=True))  # argparse's own exits (--help, a bad option) leave as SystemExit


class _ReaderGone:
    """Standard output that outlives its reader: once the other end of a pipe has closed (``| head``), what is
    left to write goes to ``/dev/null`` and the command runs to the end, so its exit code is the one it computed,
    not a ``BrokenPipeError``. The usual cure (Python's ``signal`` docs, "Note on SIGPIPE") points the file
    descriptor at ``/dev/null``; here the command then carries on instead of exiting."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._to_devnull()
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._to_devnull()

    def _to_devnull(self) -> None:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, self._stream.fileno())  # the bytes still buffered are now written there
        finally:
            os.close(devnull)
        try:
            self._stream.flush()
        except OSError:
            pass

    def __getattr__(self, name: str):  # fileno, isatty, encoding, ... are the stream's
        return getattr(self._stream, name)


@contextlib.contextmanager
def _outputs_outlive_their_readers() -> Iterator[None]:
    """Standard output and error as :class:`_ReaderGone` while the command runs, so that neither a reader that left
    (``| head``, ``2>&1 | head``) nor a stream closed from the start (``2>&-``: Python then has ``None`` there, and
    ``print(file=None)`` would write to standard output instead) changes the exit code or what the other stream
    carries."""
    saved = sys.stdout, sys.stderr
    guarded = []
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None:
            stream = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives as long as the command
        if hasattr(stream, "fileno"):
            stream = _ReaderGone(stream)
            guarded.append(stream)
        setattr(sys, name, stream)
    try:
        yield
    finally:
        for stream in guarded:
            stream.flush()  # a reader that left after the last write: caught here, not at interpreter exit
        sys.stdout, sys.stderr = saved


def internal_error(e: BaseException) -> int:
    """An exception nothing expected: a bug in verl-cookbook, never the input's fault. One line on stderr that says
    so, names the switch that prints the traceback and where to report it; exit 3, not the usage-error code."""
    debug = os.environ.get(DEBUG_ENV, "") not in ("", "0")
    if debug:
        traceback.print_exception(type(e), e, e.__traceback__, file=sys.stderr)
    where = "" if debug else f"rerun with {DEBUG_ENV}=1 for the traceback, "
    print(
        f"verl-cookbook: internal error (a bug in verl-cookbook): {type(e).__name__}: {e}; {where}"
        f"please report it at {REPORT_URL}",
        file=sys.stderr,
    )
    return EXIT_INTERNAL


def main(argv: list[str] | None = None, *, exiting: bool = False) -> int:
    """The command line ``argv`` run; its exit code. ``exiting``: the process ends right after (see gcpause)."""
    with _outputs_outlive_their_readers():  # a usage error too: its message may have no reader
        return _main(argv, exiting)


def _main(argv: list[str] | None, exiting: bool = False) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # an option the command does not have: that command's usage, not the top level's
        commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        commands.choices[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        with gcpause.paused(exiting):  # one command is a short run: see gcpause
            if args.command == "check":
                code = cmd_check(args)
            elif args.command == "facts":
                code = cmd_facts(args)
            else:
                code = args.func(args)
        if args.command != "cache":
            _bound_the_cache()
        return code
    except (VerlSourceError, baseline_and_changed.BaselineOrChangedError) as e:
        print(f"verl-cookbook: error: {e}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # never a traceback unasked: say it is our bug, how to see more, where to report it
        return internal_error(e)
