"""Run every declared check on a set of Markdown files (a site, a folder, another project's docs)."""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from verl_cookbook.findings import Finding, real_path
from verl_cookbook.fingerprints import tool_fingerprint
from verl_cookbook.releases import version_key
from verl_cookbook.rules import replay
from verl_cookbook.rules.claims import CLAIM_UNKNOWN_CHECK
from verl_cookbook.rules.config import VERL_CONFIG_DRIFT
from verl_cookbook.rules.pages import (
    FILE_MISSING,
    INCLUDE_MISSING,
    MARKDOWN_UNTERMINATED_FENCE,
    SNIPPET_EMPTY,
    SNIPPET_ORPHAN,
    SNIPPET_UNDECLARED,
    SNIPPET_UNKNOWN_ATTR,
    SNIPPET_UNKNOWN_CHECK,
    TABLE_ORPHAN_DECLARATION,
    TABLE_SKIP_WITHOUT_REASON,
    TABLE_UNDECLARED,
    TABLE_UNKNOWN_CHECK,
)
from verl_cookbook.verl_source import cache_dir, write_atomic

if TYPE_CHECKING:  # the checks (and the parsers they import) load only when a page is not in the page cache
    from verl_cookbook.checks import Context
    from verl_cookbook.facts import Facts
    from verl_cookbook.markdown import Page

MARKDOWN_SUFFIXES = (".md", ".markdown", ".rst")  # the pages doc_reader reads (.rst with docutils)


@dataclass
class Report:
    """The result of `check_paths`: the findings and how many pages, blocks, tables and claims were read."""

    findings: list[Finding] = field(default_factory=list)
    pages: int = 0
    blocks: int = 0
    tables: int = 0
    claims: int = 0
    checked: int = 0  # blocks, tables and claims a validator judged
    includes: set[str] = field(default_factory=set)  # snippet files the pages include
    depends: set[str] = field(default_factory=set)  # other files a page's result depends on (its twin): not checked
    files: list[Path] = field(default_factory=list)  # the pages, as ``collect`` found them


def find_site_root(start: Path) -> Path:
    """The nearest folder at or above ``start`` with a mkdocs.yml (includes resolve against it)."""
    start = start.resolve()
    for p in [start, *start.parents]:
        if (p / "mkdocs.yml").is_file():
            return p
    return start if start.is_dir() else start.parent


def collect(paths: list[Path]) -> tuple[list[Path], list[Finding]]:
    files: list[Path] = []
    errors: list[Finding] = []
    for p in paths:
        if p.is_dir():
            files.extend(sorted(f for f in p.rglob("*") if f.suffix in MARKDOWN_SUFFIXES and f.is_file()))
        elif p.is_file():
            files.append(p)
        else:
            errors.append(FILE_MISSING.at(str(p), 1, 1))
    seen: set[Path] = set()
    unique = []
    for f in files:  # a page named twice (a folder and a file in it) is checked, and reported, once
        key = Path(real_path(f))
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique, errors


def applies(attrs: dict[str, str], facts: Facts) -> bool:
    """``since``/``until`` declare the verl releases a snippet is for; a tree with no version gets every one."""
    version = facts.tree.version
    if not version:
        return True
    v = version_key(version)
    if "since" in attrs and v < version_key(attrs["since"]):
        return False
    if "until" in attrs and v >= version_key(attrs["until"]):
        return False
    return True


def _unless_clean_before(key: tuple, ctx: Context, check: Callable[[Any, Context], list[Finding]], what: Any) -> list:
    """``check(what, ctx)``'s findings, or none when the same input (``key``: all the check reads but where it sits) was
    checked clean before in this run: the 中文 page and its English twin include the same snippets and state the
    same claims. A check judges what it is given, never where it is (``checks.block_check``), so an input clean on
    one page is clean on the other; one with findings is checked again, so that each page gets its own."""
    clean = ctx.session.clean_checks
    # the site root too: a check reads files beside the page (includes, a diagram's drawings), and a session can
    # outlive one root (the tests check many temporary sites with one set of facts)
    key = (str(ctx.root), key)
    if key in clean:
        return []
    found = check(what, ctx)
    if not found:
        clean.add(key)
    return found


def _check_into(
    out: list[Finding], key: tuple, ctx: Context, check: Callable[[Any, Context], list[Finding]], what: Any
) -> None:
    """A check ``check_page`` left for later: its findings go to its page's list ``out``."""
    out.extend(_unless_clean_before(key, ctx, check, what))


def _lines_key(block) -> tuple:
    """Where each line of ``block`` comes from, as far as a check can tell twins apart: a line of the page itself by
    its distance from the fence (the 中文 page and its English twin hold the same fence at other lines), an included
    line by its file and line. Two blocks with the same key, code, language and attributes get the same judgement
    (``checks.block_check``); only the places their findings point to differ, and a block with findings is checked
    again (``_unless_clean_before``)."""
    return tuple(("", n - block.line) if f == block.page else (f, n) for f, n in block.line_map)


def check_page(page: Page, ctx: Context, report: Report, later: list[Callable[[], None]] | None = None) -> None:
    """Check one page into ``report``. ``later``: where the checks of its shell blocks go instead of running now
    (they wait for the ``bash -n`` and ShellCheck batches: ``_each_checked`` runs them after every page's other
    checks); each puts its findings into ``report`` when run."""
    from verl_cookbook import lenient
    from verl_cookbook.checks import BLOCK_CHECKS, CLAIM_CHECKS, COMMON_ATTRS, KIND_ATTRS, TABLE_CHECKS
    from verl_cookbook.checks.citations import check_citations
    from verl_cookbook.checks.coverage import check_coverage
    from verl_cookbook.checks.diagram import diagram_files
    from verl_cookbook.checks.param_table import default_column
    from verl_cookbook.checks.run_markers import marker_files

    out = report.findings
    report.pages += 1
    out.extend(check_citations(page, ctx))
    if ctx.options.get("coverage", True):  # off in the release matrix: coverage reads no facts (matrix.py)
        out.extend(check_coverage(page, ctx))
    report.depends.update(shown_path(p) for p in marker_files(page, ctx.root))  # the tests its run markers name
    report.depends.update(shown_path(p) for p in diagram_files(page, ctx.root))  # package.json and its SVGs
    out.extend(
        p.rule.at(p.path, p.line, p.col, **p.data) for p in page.problems
    )  # what reading it found (a declaration above no block)
    for block in page.blocks:
        report.blocks += 1
        report.includes.update(block.includes)
        if block.unterminated:
            out.append(MARKDOWN_UNTERMINATED_FENCE.at(page.path, block.line, block.col))
        for target, line in block.missing_includes:
            out.append(INCLUDE_MISSING.at(page.path, line, 1, target=target))
        kind = block.attrs.get("check")
        if kind is None and ctx.options.get("lenient"):
            guessed, notes = lenient.read_block(block, ctx)  # another project's docs: read as its readers do
            out.extend(notes)
            if guessed is not None:
                block.attrs = {**block.attrs, **guessed}
                kind = guessed["check"]
        if kind is None:
            if not ctx.options.get("lenient"):
                out.append(SNIPPET_UNDECLARED.at(page.path, block.line, block.col, lang=block.lang or ""))
            continue
        if kind not in BLOCK_CHECKS:
            out.append(
                SNIPPET_UNKNOWN_CHECK.at(page.path, block.line, block.col, kind=kind, known=sorted(BLOCK_CHECKS))
            )
            continue
        unknown = set(block.attrs) - COMMON_ATTRS - KIND_ATTRS.get(kind, set())
        if unknown:
            out.append(SNIPPET_UNKNOWN_ATTR.at(page.path, block.line, block.col, kind=kind, attrs=sorted(unknown)))
        if not applies(block.attrs, ctx.facts):
            continue
        if kind != "skip" and not block.code.strip() and not block.missing_includes:
            out.append(SNIPPET_EMPTY.at(page.path, block.line, block.col))
            continue
        if block.missing_includes:
            continue
        report.checked += 1
        key = ("block", kind, block.lang, block.code, _lines_key(block), tuple(sorted(block.attrs.items())))
        if later is not None and kind == "shell":
            later.append(functools.partial(_check_into, out, key, ctx, BLOCK_CHECKS[kind], block))
            continue
        out.extend(_unless_clean_before(key, ctx, BLOCK_CHECKS[kind], block))
    for table in page.tables:
        report.tables += 1
        d = table.directive
        if d is None:
            if ctx.options.get("lenient"):
                out.extend(lenient.backend_table_findings(table, ctx))
            if default_column(table) is not None and not ctx.options.get("lenient"):
                out.append(TABLE_UNDECLARED.at(page.path, table.line, 1))
            continue
        if d.kind == "skip":
            if not d.attrs.get("reason"):
                out.append(TABLE_SKIP_WITHOUT_REASON.at(page.path, d.line, 1))
            continue
        if d.kind not in TABLE_CHECKS:
            out.append(TABLE_UNKNOWN_CHECK.at(page.path, d.line, 1, kind=d.kind, known=sorted(TABLE_CHECKS)))
            continue
        if not applies(d.attrs, ctx.facts):
            continue
        report.checked += 1
        out.extend(TABLE_CHECKS[d.kind](table, ctx))
    table_directives = {id(t.directive) for t in page.tables if t.directive is not None}
    for d in page.directives:
        if id(d) in table_directives:
            continue
        report.claims += 1
        if d.kind in TABLE_CHECKS or d.kind == "skip":
            out.append(TABLE_ORPHAN_DECLARATION.at(page.path, d.line, 1, kind=d.kind))
            continue
        if d.kind not in CLAIM_CHECKS:
            out.append(CLAIM_UNKNOWN_CHECK.at(page.path, d.line, 1, kind=d.kind, known=sorted(CLAIM_CHECKS)))
            continue
        if not applies(d.attrs, ctx.facts):
            continue
        report.checked += 1
        claim_key: tuple = ("claim", d.kind, tuple(sorted(d.attrs.items())))
        out.extend(_unless_clean_before(claim_key, ctx, CLAIM_CHECKS[d.kind], d))
    if ctx.options.get("parity") and page.path.endswith(".md") and _in_docs(Path(page.path), ctx.root):
        from verl_cookbook import parity

        found, depends = parity.page_findings(page, Path(page.path), ctx.root)
        out.extend(found)
        report.depends.update(shown_path(p) for p in depends)


def check_paths(paths: list[Path], facts: Facts, root: Path | None = None, options: dict | None = None) -> Report:
    """Run every declared check on the Markdown files under ``paths``.

    Pages whose results are in the page cache are replayed; the checks are imported only for the others.

    Args:
        paths: Markdown files or folders.
        facts: the facts of the verl source to check against, from `load_facts`.
        root: the site root (the folder with ``mkdocs.yml``); ``None`` to find it from ``paths``.
        options: the command line's options as a dict, e.g. ``{"lenient": True, "use_cache": False}``;
            ``None`` for the defaults.

    Returns:
        A `Report` with the files read and the findings, sorted by file and line.
    """
    files, errors = collect(paths)
    report = Report(files=files)
    report.findings.extend(errors)
    root = root or find_site_root(paths[0] if paths else Path.cwd())
    options = options or {}
    if "parity" not in options:  # a bilingual site's pages need their twin (parity/…); another project's do not
        options = {**options, "parity": _bilingual(root)}
    cache = PageCache(facts, root, options)
    misses = [f for f in files if not cache.replay(f, report)]
    if misses:
        from verl_cookbook import checks
        from verl_cookbook.checks import Context

        checks.load_all()
        ctx = Context(facts=facts, root=root, options=options)
        # "checked clean before" holds within one run: files beside a page (an SVG, package.json) may change between
        # two runs of one process (an API caller, the tests), so a new run starts with none
        ctx.session.clean_checks.clear()
        for _f, part in _each_checked(misses, ctx, cache):
            _add(report, part)
    report.findings.sort(key=Finding.sort_key)
    return report


def _in_docs(path: Path, root: Path) -> bool:
    """Whether ``path`` is one of the site's pages (under ``root/docs``): a Markdown file elsewhere (a scratch page,
    a README) is checked but has no twin to be held to."""
    return (root / "docs").resolve() in path.resolve().parents


def _bilingual(root: Path) -> bool:
    """Whether the site at ``root`` has its pages in two languages (a ``docs/`` page with an English twin,
    ``page.en.md``, parity.EN_SUFFIX): only then does a page need its twin. Another project's docs are not judged
    for parity. Here, not in parity.py, so that a warm check (every page replayed) imports no Markdown parser."""
    docs = root / "docs"
    return docs.is_dir() and any(p.name.endswith(".en.md") for p in docs.rglob("*.md"))


def _each_checked(files: list[Path], ctx: Context, cache: PageCache) -> Iterator[tuple[Path, Report]]:
    """(file, its own report) for each of ``files``; a page that cannot be parsed comes first, with its one finding.
    ``bash -n`` and ShellCheck run once each for every shell block of ``files``, started before the first page is
    checked; the shell blocks are checked last, after every page's other checks, so that the tools have that long
    to finish (a cold site check waited 0.2-0.4 s for them when they came after the pages without shell blocks)."""
    from verl_cookbook.checks.shell_tools import finish_batches, start_batches
    from verl_cookbook.doc_reader import read_page
    from verl_cookbook.markdown import MarkdownError

    pages = []
    for f in files:
        try:
            pages.append((f, read_page(f, Path.cwd(), bases=[ctx.root])))
        except MarkdownError as e:
            yield f, Report(findings=[e.rule.at(shown_path(f), e.line, 1, **e.data)])
    start_batches([page for _, page in pages], ctx)
    try:
        later: list[Callable[[], None]] = []
        parts = []
        for f, page in pages:
            part = Report()
            check_page(page, ctx, part, later)
            parts.append((f, page, part))
        for check in later:
            check()
        for f, page, part in parts:  # the report is sorted: the order its findings came in is not seen
            cache.store(f, page, part, dict.fromkeys(_COUNTERS, 0), 0)
            yield f, part
    finally:
        finish_batches(ctx)


def _add(report: Report, part: Report) -> None:
    report.findings.extend(part.findings)
    for k in _COUNTERS:
        setattr(report, k, getattr(report, k) + getattr(part, k))
    report.includes.update(part.includes)


_COUNTERS = ("pages", "blocks", "tables", "claims", "checked")


def _counters(report: Report) -> dict[str, int]:
    return {k: getattr(report, k) for k in _COUNTERS}


class PageCache:
    """Findings per page, keyed by the page's path and bytes (two pages with the same bytes are two entries: each
    finding names its page), the bytes of what it includes, the facts key (which holds
    this package's code, ``fingerprints.package_fingerprint``), the options, the external tools the checks
    use and the site's coverage debt list. A warm run only hashes files."""

    def __init__(self, facts: Facts, root: Path, options: dict) -> None:
        self.enabled = bool(facts.key) and options.get("use_cache", True)
        self.dir = cache_dir() / "pages"
        if self.enabled:
            env = json.dumps(
                [facts.key, str(root.resolve()), str(Path.cwd().resolve()),
                 sorted((k, str(v)) for k, v in options.items()), tool_fingerprint("shellcheck"), _debt_digest(root)]
            )  # fmt: skip
            self.salt = hashlib.sha256(env.encode()).hexdigest()
        self._digests: dict[str, str] = {}  # a file's digest, once a run: pages share includes and twins

    def _key(self, f: Path) -> str | None:
        try:
            data = f.read_bytes()
        except OSError:
            return None
        return hashlib.sha256(f"{self.salt}\0{real_path(f)}\0".encode() + data).hexdigest()

    def replay(self, f: Path, report: Report) -> bool:
        if not self.enabled or not (key := self._key(f)):
            return False
        try:
            entry = json.loads((self.dir / f"{key}.json").read_text(encoding="utf-8"))
            for rel, digest in [*entry["includes"].items(), *entry["depends"].items()]:
                if self._digest(rel) != digest:
                    return False
            findings = [replay(d) for d in entry["findings"]]
        except (OSError, ValueError, KeyError, TypeError):
            return False
        for k in _COUNTERS:
            setattr(report, k, getattr(report, k) + entry["counters"][k])
        report.includes.update(entry["includes"])
        report.findings.extend(findings)
        return True

    def _digest(self, rel: str) -> str:
        if (known := self._digests.get(rel)) is None:
            known = self._digests[rel] = _digest(Path(rel))
        return known

    def store(self, f: Path, page: Page, report: Report, before: dict[str, int], start: int) -> None:
        if not self.enabled or not (key := self._key(f)):
            return
        includes = sorted({inc for b in page.blocks for inc in b.includes})
        try:
            entry = {
                "includes": {rel: hashlib.sha256(Path(rel).read_bytes()).hexdigest() for rel in includes},
                "depends": {rel: self._digest(rel) for rel in sorted(report.depends)},  # once a run: pages share them
                "counters": {k: getattr(report, k) - before[k] for k in _COUNTERS},
                "findings": [x.as_dict() for x in report.findings[start:]],
            }
            write_atomic(self.dir / f"{key}.json", json.dumps(entry, ensure_ascii=False))
        except OSError:
            pass  # a read-only cache only costs speed


def _digest(path: Path) -> str:
    """A file's bytes' digest, or ``absent``: a page's result that depends on a file's absence (a page without its
    twin) is stale once it is there."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "absent"


def _debt_digest(root: Path) -> str:
    """What the site's coverage debt list holds (its bytes' digest; empty when there is none)."""
    try:
        return hashlib.sha256((root / "coverage-debt.json").read_bytes()).hexdigest()
    except OSError:
        return ""


def shown_path(p: Path, cwd: Path | None = None) -> str:
    """``p`` relative to the working folder when it is under it (``cwd``: that folder resolved, for a caller that
    names many files), else as given."""
    base = str(cwd) if cwd is not None else os.path.realpath(os.getcwd())
    resolved = real_path(p)
    if resolved == base:
        return "."
    under = base.rstrip(os.sep) + os.sep
    return resolved[len(under) :] if resolved.startswith(under) else str(p)


def orphan_snippets(site_root: Path, included: set[str]) -> list[Finding]:
    """Files under snippets/ that no page includes: nothing declares how to check them. What Python writes beside a
    snippet it runs or imports (``__pycache__/``) is not a snippet."""
    out = []
    snippets = site_root / "snippets"
    if snippets.is_dir():
        cwd = Path.cwd().resolve()
        for f in sorted(p for p in snippets.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            shown = shown_path(f, cwd)
            if shown not in included:
                out.append(SNIPPET_ORPHAN.at(shown, 1, 1))
    return out


def consistency(facts: Facts) -> list[Finding]:
    """Where verl disagrees with itself: CheckpointEngineConfig's dataclass defaults vs its YAML block."""
    cfg = facts.data["config"]
    dc, block = cfg.get("checkpoint_engine_config"), cfg.get("checkpoint_engine_yaml")
    out: list[Finding] = []
    if not dc or not block:
        return out
    for name, fld in dc["fields"].items():
        y = block["fields"].get(name)
        if y is None:
            out.append(
                VERL_CONFIG_DRIFT.at(
                    block["file"],
                    block["line"] or 1,
                    1,
                    fact=f"dataclass default: {fld['default']!r}",
                    fact_source=fld["source"],
                    name=name,
                )
            )
        elif y["value"] != fld["default"]:
            file, _, line = y["source"].rpartition(":")
            out.append(
                VERL_CONFIG_DRIFT.at(
                    file,
                    int(line or 1),
                    1,
                    fact=f"dataclass default: {fld['default']!r}",
                    fact_source=fld["source"],
                    case="differs",
                    name=name,
                    yaml=y["value"],
                    default=fld["default"],
                )
            )
    for name, y in block["fields"].items():
        if name != "_target_" and name not in dc["fields"]:
            file, _, line = y["source"].rpartition(":")
            out.append(VERL_CONFIG_DRIFT.at(file, int(line or 1), 1, fact_source=dc["source"], case="extra", name=name))
    return out
