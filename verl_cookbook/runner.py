"""Run every declared check on a set of Markdown files (a site, a folder, another project's docs)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from verl_cookbook.findings import Finding
from verl_cookbook.fingerprints import tool_fingerprint
from verl_cookbook.releases import version_key
from verl_cookbook.rules import replay
from verl_cookbook.rules.pages import FILE_MISSING
from verl_cookbook.verl_source import cache_dir, write_atomic

if TYPE_CHECKING:  # the checks (and the parsers they import) load only when a page is not in the page cache
    from verl_cookbook.checks import Context
    from verl_cookbook.facts import Facts
    from verl_cookbook.markdown import Page

MARKDOWN_SUFFIXES = (".md", ".markdown", ".rst")  # the pages doc_reader reads (.rst with docutils)


@dataclass
class Report:
    findings: list[Finding] = field(default_factory=list)
    pages: int = 0
    blocks: int = 0
    tables: int = 0
    claims: int = 0
    checked: int = 0  # blocks, tables and claims a validator judged
    includes: set[str] = field(default_factory=set)  # snippet files the pages include
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
        key = f.resolve()
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


def check_page(page: Page, ctx: Context, report: Report) -> None:
    """Check one page into ``report``."""
    from verl_cookbook import lenient
    from verl_cookbook.checks import BLOCK_CHECKS, CLAIM_CHECKS, COMMON_ATTRS, KIND_ATTRS, TABLE_CHECKS
    from verl_cookbook.checks.citations import check_citations
    from verl_cookbook.checks.coverage import check_coverage
    from verl_cookbook.checks.param_table import default_column

    out = report.findings
    report.pages += 1
    out.extend(check_citations(page, ctx))
    out.extend(check_coverage(page, ctx))
    out.extend(
        p.rule.at(p.path, p.line, p.col, **p.data) for p in page.problems
    )  # what reading it found (a declaration above no block)
    for block in page.blocks:
        report.blocks += 1
        report.includes.update(block.includes)
        if block.unterminated:
            out.append(
                Finding(
                    page.path,
                    block.line,
                    block.col,
                    "markdown/unterminated-fence",
                    "code fence is never closed: the rest of the page is swallowed into it",
                )
            )
        for target, line in block.missing_includes:
            out.append(Finding(page.path, line, 1, "include/missing", f"--8<-- include `{target}` does not exist"))
        kind = block.attrs.get("check")
        if kind is None and ctx.options.get("lenient"):
            guessed, notes = lenient.read_block(block, ctx)  # another project's docs: read as its readers do
            out.extend(notes)
            if guessed is not None:
                block.attrs = {**block.attrs, **guessed}
                kind = guessed["check"]
        if kind is None:
            if not ctx.options.get("lenient"):
                out.append(
                    Finding(
                        page.path,
                        block.line,
                        block.col,
                        "snippet/undeclared",
                        f'```{block.lang or " "} block declares no check: add check="<kind>" to the '
                        f'fence, or check="skip" reason="…"',
                    )
                )
            continue
        if kind not in BLOCK_CHECKS:
            out.append(
                Finding(
                    page.path,
                    block.line,
                    block.col,
                    "snippet/unknown-check",
                    f'check="{kind}" is not a check kind; known: {", ".join(sorted(BLOCK_CHECKS))}',
                )
            )
            continue
        unknown = set(block.attrs) - COMMON_ATTRS - KIND_ATTRS.get(kind, set())
        if unknown:
            out.append(
                Finding(
                    page.path,
                    block.line,
                    block.col,
                    "snippet/unknown-attr",
                    f'unknown fence attribute(s) {", ".join(sorted(unknown))} for check="{kind}"',
                )
            )
        if not applies(block.attrs, ctx.facts):
            continue
        if kind != "skip" and not block.code.strip() and not block.missing_includes:
            out.append(Finding(page.path, block.line, block.col, "snippet/empty", "code block is empty"))
            continue
        if block.missing_includes:
            continue
        report.checked += 1
        out.extend(BLOCK_CHECKS[kind](block, ctx))
    for table in page.tables:
        report.tables += 1
        d = table.directive
        if d is None:
            if ctx.options.get("lenient"):
                out.extend(lenient.backend_table_findings(table, ctx))
            if default_column(table) is not None and not ctx.options.get("lenient"):
                out.append(
                    Finding(
                        page.path,
                        table.line,
                        1,
                        "table/undeclared",
                        "this table has a default column but no <!-- check: params … --> declaration "
                        'above it (or <!-- check: skip reason="…" -->)',
                    )
                )
            continue
        if d.kind == "skip":
            if not d.attrs.get("reason"):
                out.append(Finding(page.path, d.line, 1, "table/skip-without-reason", 'check: skip needs reason="…"'))
            continue
        if d.kind not in TABLE_CHECKS:
            out.append(Finding(page.path, d.line, 1, "table/unknown-check", f"unknown table check `{d.kind}`"))
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
            out.append(
                Finding(
                    page.path,
                    d.line,
                    1,
                    "table/orphan-declaration",
                    f"<!-- check: {d.kind} --> is not directly above a table",
                )
            )
            continue
        if d.kind not in CLAIM_CHECKS:
            out.append(
                Finding(
                    page.path,
                    d.line,
                    1,
                    "claim/unknown-check",
                    f"unknown claim kind `{d.kind}`; known: {', '.join(sorted(CLAIM_CHECKS)) or 'none'}",
                )
            )
            continue
        if not applies(d.attrs, ctx.facts):
            continue
        report.checked += 1
        out.extend(CLAIM_CHECKS[d.kind](d, ctx))


def check_paths(paths: list[Path], facts: Facts, root: Path | None = None, options: dict | None = None) -> Report:
    """Check every Markdown file under ``paths``. ``root``: the site root (default: found from the paths).

    Pages whose results are in the page cache are replayed; the checks are imported only for the others."""
    files, errors = collect(paths)
    report = Report(files=files)
    report.findings.extend(errors)
    root = root or find_site_root(paths[0] if paths else Path.cwd())
    options = options or {}
    cache = PageCache(facts, root, options)
    misses = [f for f in files if not cache.replay(f, report)]
    if misses:
        from verl_cookbook import checks
        from verl_cookbook.checks import Context

        checks.load_all()
        ctx = Context(facts=facts, root=root, options=options)
        for _f, part in _each_checked(misses, ctx, cache):
            _add(report, part)
    report.findings.sort(key=Finding.sort_key)
    return report


def _each_checked(files: list[Path], ctx: Context, cache: PageCache) -> Iterator[tuple[Path, Report]]:
    """(file, its own report) for each of ``files``, as each is checked; a page that cannot be parsed comes first,
    with its one finding. ``bash -n`` and ShellCheck run once each for every shell block of ``files``, started
    before the first page is checked; the pages with shell blocks are checked last, while the tools run."""
    from verl_cookbook.checks.shell_tools import finish_batches, has_shell_blocks, start_batches
    from verl_cookbook.doc_reader import read_page
    from verl_cookbook.markdown import MarkdownError

    pages = []
    for f in files:
        try:
            pages.append((f, read_page(f, Path.cwd(), bases=[ctx.root])))
        except MarkdownError as e:
            yield f, Report(findings=[e.rule.at(shown_path(f), e.line, 1, **e.data)])
    start_batches([page for _, page in pages], ctx)
    pages.sort(key=lambda fp: has_shell_blocks(fp[1], ctx))  # the report is sorted: the order is not seen
    try:
        for f, page in pages:
            part = Report()
            check_page(page, ctx, part)
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

    def _key(self, f: Path) -> str | None:
        try:
            data = f.read_bytes()
        except OSError:
            return None
        return hashlib.sha256(f"{self.salt}\0{f.resolve()}\0".encode() + data).hexdigest()

    def replay(self, f: Path, report: Report) -> bool:
        if not self.enabled or not (key := self._key(f)):
            return False
        try:
            entry = json.loads((self.dir / f"{key}.json").read_text(encoding="utf-8"))
            for rel, digest in entry["includes"].items():
                if hashlib.sha256(Path(rel).read_bytes()).hexdigest() != digest:
                    return False
            findings = [replay(d) for d in entry["findings"]]
        except (OSError, ValueError, KeyError, TypeError):
            return False
        for k in _COUNTERS:
            setattr(report, k, getattr(report, k) + entry["counters"][k])
        report.includes.update(entry["includes"])
        report.findings.extend(findings)
        return True

    def store(self, f: Path, page: Page, report: Report, before: dict[str, int], start: int) -> None:
        if not self.enabled or not (key := self._key(f)):
            return
        includes = sorted({inc for b in page.blocks for inc in b.includes})
        try:
            entry = {
                "includes": {rel: hashlib.sha256(Path(rel).read_bytes()).hexdigest() for rel in includes},
                "counters": {k: getattr(report, k) - before[k] for k in _COUNTERS},
                "findings": [x.as_dict() for x in report.findings[start:]],
            }
            write_atomic(self.dir / f"{key}.json", json.dumps(entry, ensure_ascii=False))
        except OSError:
            pass  # a read-only cache only costs speed


def _debt_digest(root: Path) -> str:
    """What the site's coverage debt list holds (its bytes' digest; empty when there is none)."""
    try:
        return hashlib.sha256((root / "coverage-debt.json").read_bytes()).hexdigest()
    except OSError:
        return ""


def shown_path(p: Path, cwd: Path | None = None) -> str:
    """``p`` relative to the working folder when it is under it (``cwd``: that folder resolved, for a caller that
    names many files), else as given."""
    try:
        return str(p.resolve().relative_to(cwd or Path.cwd().resolve()))
    except ValueError:
        return str(p)


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
                out.append(
                    Finding(shown, 1, 1, "snippet/orphan", "no page includes this snippet, so nothing checks it")
                )
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
                Finding(
                    block["file"],
                    block["line"] or 1,
                    1,
                    "verl/config-drift",
                    f"CheckpointEngineConfig.{name} has no entry in the checkpoint_engine YAML block",
                    f"dataclass default: {fld['default']!r}",
                    fld["source"],
                )
            )
        elif y["value"] != fld["default"]:
            file, _, line = y["source"].rpartition(":")
            out.append(
                Finding(
                    file,
                    int(line or 1),
                    1,
                    "verl/config-drift",
                    f"checkpoint_engine.{name}: YAML says {y['value']!r}, the dataclass says {fld['default']!r}",
                    f"dataclass default: {fld['default']!r}",
                    fld["source"],
                )
            )
    for name, y in block["fields"].items():
        if name != "_target_" and name not in dc["fields"]:
            file, _, line = y["source"].rpartition(":")
            out.append(
                Finding(
                    file,
                    int(line or 1),
                    1,
                    "verl/config-drift",
                    f"checkpoint_engine.{name} is in the YAML block but not a CheckpointEngineConfig field",
                    fact_source=dc["source"],
                )
            )
    return out
