"""Run every declared check on a set of Markdown files (a site, a folder, another project's docs)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from verl_cookbook.findings import Finding
from verl_cookbook.releases import version_key
from verl_cookbook.verl_source import cache_dir, write_atomic

if TYPE_CHECKING:  # the checks (and the parsers they import) load only when a page is not in the page cache
    from verl_cookbook.checks import Context
    from verl_cookbook.facts import Facts
    from verl_cookbook.markdown import Page
    from verl_cookbook.repeats import Repeats
    from verl_cookbook.verl_source import VerlTree

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
            errors.append(Finding(str(p), 1, 1, "file/missing", "no such file or folder"))
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


def check_page(page: Page, ctx: Context, report: Report, repeats: Repeats | None = None) -> None:
    """Check one page into ``report``. ``repeats``: what this run has checked so far, so that a block, claim or table
    checked before (the same input on the page's mirror) is not checked again (see ``repeats``)."""
    from verl_cookbook import lenient
    from verl_cookbook.checks import BLOCK_CHECKS, CLAIM_CHECKS, COMMON_ATTRS, KIND_ATTRS, TABLE_CHECKS
    from verl_cookbook.checks.citations import check_citations
    from verl_cookbook.checks.param_table import default_column
    from verl_cookbook.repeats import block_input, claim_input, table_input

    out = report.findings
    report.pages += 1
    out.extend(check_citations(page, ctx))
    out.extend(page.problems)  # what reading it found (a declaration above no block)
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
            guessed = lenient.guess_attrs(block, ctx)  # another project's docs: guess from the language
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
        out.extend(_judged(repeats, block_input(kind, block), partial(BLOCK_CHECKS[kind], block, ctx)))
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
        out.extend(_judged(repeats, table_input(table), partial(TABLE_CHECKS[d.kind], table, ctx)))
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
        out.extend(_judged(repeats, claim_input(d), partial(CLAIM_CHECKS[d.kind], d, ctx)))


def _judged(repeats: Repeats | None, got: Any, check: Callable[[], list[Finding]]) -> list[Finding]:
    """``check()``, or (with ``repeats``) the findings of the same input checked before in this run; ``got``: the
    input's key and places (``repeats.block_input`` and its kin; None: not one a repeat can answer)."""
    return check() if repeats is None or got is None else repeats.run(got, check)


# The primary configs of verl's PPO trainer (main_ppo), in the order a site check asks for them: most config
# blocks, and most launch scripts, are judged on one of them, and each costs a cold check ~0.4 s to compose. This
# only decides what is composed early: a name the tree lacks is skipped, and the checks compose what they need.
PREFETCHED_CONFIGS = ("ppo_trainer", "ppo_megatron_trainer")

# The share of the pages (by bytes, whole mirror pairs) the composing child checks once it has composed: it starts on
# them 0.6-1 s after this process starts on its own, and the mirror of a page it checks is mostly repeats. Measured
# on a cold site check of this site (verl 0.9.1, 2 cores), 14 paired runs each: with the child forked here, 0.87x wall
# at 0.1 and 0.91x at 0.15 against 0.2, 0.05 and none slower than 0.1 (1.09x, 1.07x); with the facts' helper, 0.15
# the same as 0.1 (1.01x), 0.05 and none slower (1.06x, 1.10x).
CHILD_SHARE = 0.1


def check_paths(paths: list[Path], facts: Facts, root: Path | None = None, options: dict | None = None) -> Report:
    """Check every Markdown file under ``paths``. ``root``: the site root (default: found from the paths).

    Pages whose results are in the page cache are replayed; the checks are imported only for the others."""
    report = Report()
    files, errors = collect(paths)
    report.findings.extend(errors)
    root = root or find_site_root(paths[0] if paths else Path.cwd())
    options = options or {}
    cache = PageCache(facts, root, options)
    misses = [f for f in files if not cache.replay(f, report)]
    if misses:
        _check_afresh(misses, facts, root, options, cache, report)
    elif facts.helper is not None:  # every page replayed: the helper's work is not needed
        facts.helper.stop()
        facts.helper = None
    report.findings.sort(key=Finding.sort_key)
    return report


def _check_afresh(files: list[Path], facts: Facts, root: Path, options: dict, cache: PageCache, report: Report) -> None:
    """Check ``files`` afresh. A child composes verl's main configs meanwhile, then checks a share of the pages and
    sends each page's report; whatever it does not send (it failed, or none could be forked) is checked here. Each
    page is checked on its own, so where it is checked changes nothing. The child is the facts' ``helper`` when the
    facts were just extracted (it has composed while this process extracted its own families: see :func:`helper`),
    else one forked now."""
    from verl_cookbook import checks
    from verl_cookbook.checks import Context
    from verl_cookbook.checks.shell import finish
    from verl_cookbook.facts import SECOND_PROCESS
    from verl_cookbook.facts.compose import adopt, rest, stop_prefetching
    from verl_cookbook.repeats import Repeats

    checks.load_all()  # before the fork: both processes use them
    ctx = Context(facts=facts, root=root, options=options)
    repeats = Repeats()  # each process fills its own
    theirs = _child_share(files) if len(files) > 1 else []
    child, facts.helper = facts.helper, None
    if child is not None:  # the child that extracted facts has composed meanwhile (``helper``): it checks a share
        adopt(child, facts.tree, _prefetched(facts.tree, facts.data["entry_points"]), facts.key, later=True)
        work = (_not_in(facts.data, SECOND_PROCESS), list(facts.data), facts.key, theirs, root, options, os.getcwd())
        if not child.send(work):
            theirs = []
    else:
        child = facts.prefetch_compositions(PREFETCHED_CONFIGS, then=lambda: _each_checked(theirs, ctx, cache, repeats))
    if child is None:
        theirs = []
    try:
        for _f, part in _each_checked([f for f in files if f not in theirs], ctx, cache, repeats):
            _add(report, part)
        sent: set[Path] = set()
        if child is not None:
            for f, part in rest(child, facts.key):
                _add(report, part)
                sent.add(f)
        for _f, part in _each_checked([f for f in theirs if f not in sent], ctx, cache, repeats):
            _add(report, part)
    finally:
        finish()
        stop_prefetching()


def helper(tree: VerlTree, extracted: dict, receive: Callable[[], Any]) -> Iterator[Any]:
    """The work of the child that extracts some of verl's facts for a check (``load_facts(..., then=helper)``), once it
    has sent them: it composes ``PREFETCHED_CONFIGS`` from the entry points it extracted (while this process extracts
    its own families and reads its pages), then checks the pages the parent gives it (with the whole facts, the root
    and the options; None: no pages) and sends each page's report, as the child of ``_check_afresh`` does."""
    from verl_cookbook import checks
    from verl_cookbook.checks import Context
    from verl_cookbook.facts import Facts, compose
    from verl_cookbook.repeats import Repeats

    yield from compose.composing(tree, _prefetched(tree, extracted.get("entry_points") or {}))
    work = receive()
    if work is None:
        return
    sent, order, key, files, root, options, cwd = work  # the facts it has not extracted itself, and their order
    if not files:
        return
    os.chdir(cwd)  # pages are shown relative to the working folder, which may have changed since the fork
    compose.keep_composed(tree, key)
    facts = Facts({name: sent[name] if name in sent else extracted[name] for name in order}, tree, key)
    checks.load_all()
    ctx = Context(facts=facts, root=root, options=options)
    yield from _each_checked(files, ctx, PageCache(facts, root, options), Repeats())


def _not_in(data: dict, names: tuple[str, ...]) -> dict:
    """``data`` without the families ``names`` (those the helper extracted: sent back, the pipe would fill up and this
    process wait until the helper reads, which is only once it has composed)."""
    return {k: v for k, v in data.items() if k not in names}


def _prefetched(tree: VerlTree, entry_points: dict) -> list[tuple[Path, str]]:
    """(folder, name) of the ``PREFETCHED_CONFIGS`` the tree's entry points have, in that order."""
    from verl_cookbook.facts.compose import config_dirs

    dirs = config_dirs(tree, entry_points)
    return [(dirs[name], name) for name in PREFETCHED_CONFIGS if name in dirs]


def _child_share(files: list[Path]) -> list[Path]:
    """About ``CHILD_SHARE`` of ``files`` by bytes, in the order given: whole mirror pairs (``x.md`` with
    ``x.en.md``, which mostly hold the same blocks and claims: checked in one process, the second of the pair is
    mostly repeats), chosen largest first without going over."""
    sizes: dict[Path, int] = {}
    for f in files:
        try:
            sizes[f] = f.stat().st_size
        except OSError:
            sizes[f] = 0
    pairs: dict[Path, list[Path]] = {}
    for f in files:
        pairs.setdefault(_unmirrored(f), []).append(f)
    budget, chosen = CHILD_SHARE * sum(sizes.values()), set()
    for group in sorted(pairs.values(), key=lambda g: (-sum(sizes[f] for f in g), str(g[0]))):
        size = sum(sizes[f] for f in group)
        if size <= budget:
            chosen.update(group)
            budget -= size
    return [f for f in files if f in chosen]


def _unmirrored(f: Path) -> Path:
    """The page a mirror translates: ``x.en.md`` -> ``x.md`` (any two-letter language); others are themselves."""
    parts = f.name.split(".")
    if len(parts) >= 3 and len(parts[-2]) == 2 and parts[-2].isalpha() and parts[-2].islower():
        return f.with_name(".".join(parts[:-2] + parts[-1:]))
    return f


def _each_checked(
    files: list[Path], ctx: Context, cache: PageCache, repeats: Repeats | None = None
) -> Iterator[tuple[Path, Report]]:
    """(file, its own report) for each of ``files``, as each is checked; a page that cannot be parsed comes first,
    with its one finding."""
    from verl_cookbook.checks.shell import finish, has_shell_blocks, prefetch  # one bash -n, one ShellCheck
    from verl_cookbook.doc_reader import read_page
    from verl_cookbook.markdown import MarkdownError

    pages = []
    for f in files:
        try:
            pages.append((f, read_page(f, Path.cwd(), bases=[ctx.root])))
        except MarkdownError as e:
            yield f, Report(findings=[Finding(_shown(f), e.line, 1, e.rule, str(e))])
    prefetch([page for _, page in pages], ctx)
    # the pages with shell blocks last: the tools run meanwhile (the report is sorted, so the order is not seen)
    pages.sort(key=lambda fp: has_shell_blocks(fp[1], ctx))
    try:
        for f, page in pages:
            part = Report()
            check_page(page, ctx, part, repeats)
            cache.store(f, page, part, dict.fromkeys(_COUNTERS, 0), 0)
            yield f, part
    finally:
        finish()


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
    this package's code, ``verl_source.package_fingerprint``), the options and the external tools the checks
    use. A warm run only hashes files."""

    def __init__(self, facts: Facts, root: Path, options: dict) -> None:
        self.enabled = bool(facts.key) and options.get("use_cache", True)
        self.dir = cache_dir() / "pages"
        if self.enabled:
            env = json.dumps(
                [facts.key, str(root.resolve()), str(Path.cwd().resolve()),
                 sorted((k, str(v)) for k, v in options.items()), shutil.which("shellcheck") or ""]
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
            findings = [Finding(**d) for d in entry["findings"]]
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
                "findings": [asdict(x) for x in report.findings[start:]],
            }
            write_atomic(self.dir / f"{key}.json", json.dumps(entry, ensure_ascii=False))
        except OSError:
            pass  # a read-only cache only costs speed


def _shown(p: Path) -> str:
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)


def orphan_snippets(site_root: Path, included: set[str]) -> list[Finding]:
    """Files under snippets/ that no page includes: nothing declares how to check them. What Python writes beside a
    snippet it runs or imports (``__pycache__/``) is not a snippet."""
    out = []
    snippets = site_root / "snippets"
    if snippets.is_dir():
        for f in sorted(p for p in snippets.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            shown = _shown(f)
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
