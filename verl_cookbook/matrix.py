"""The release matrix: the site checked against every covered verl release, and its version labels verified.

Two questions, one function each:

- ``release_findings``: on release R, what do the pages get wrong? Blocks, tables and claims whose
  ``since``/``until`` exclude R are not judged (``runner.applies``).
- ``verify_labels``: is every "available since X" true? A block or claim that declares ``since="X"``
  is checked, its bounds ignored, against the newest covered release before X and must FAIL there;
  one that declares ``until="Y"`` must fail on the oldest covered release from Y on. A label that
  holds on the release it excludes is wrong (or needless), and one with no covered release to test it
  against is unverified.

Everything here takes parsed pages and per-release facts, so it is testable on a throwaway site.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from verl_cookbook import checks
from verl_cookbook.checks import BLOCK_CHECKS, CLAIM_CHECKS, TABLE_CHECKS, Context
from verl_cookbook.facts import Facts, load_facts
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import MarkdownError, Page, parse_page
from verl_cookbook.releases import version_key
from verl_cookbook.runner import check_paths, collect, find_site_root
from verl_cookbook.verl_source import from_release

BOUNDS = ("since", "until")


@dataclass
class Label:
    """One ``since=``/``until=`` on a block, table or claim, and what the release it excludes says about it."""

    path: str
    line: int
    what: str  # 'block check="config"', 'table params', 'claim raises'
    bound: str  # "since" | "until"
    version: str
    against: str | None  # the covered release where it must fail (None: no such release)
    findings: list[Finding]  # what the check reports there, bounds ignored

    @property
    def verified(self) -> bool:
        return self.against is not None and bool(self.findings)

    def explain(self) -> str:
        where = f'{self.path}:{self.line}: {self.what} {self.bound}="{self.version}"'
        if self.against is None:
            side = "before" if self.bound == "since" else "at or after"
            return f"{where}: no covered release {side} {self.version} to verify it against"
        if not self.findings:
            return f"{where}: it also holds on verl {self.against}, so the label is wrong or needless"
        return f"{where}: fails on verl {self.against} as it should ({self.findings[0].rule})"


def parse_pages(paths: list[Path], root: Path | None = None) -> list[Page]:
    """Every Markdown page under ``paths``, parsed (pages that cannot be read are left to the site check)."""
    files, _ = collect(paths)
    root = root or find_site_root(paths[0] if paths else Path.cwd())
    pages = []
    for f in files:
        try:
            pages.append(parse_page(f, Path.cwd(), bases=[root]))
        except MarkdownError:
            continue
    return pages


def release_findings(paths: list[Path], facts: Facts, root: Path | None = None) -> tuple[list[Finding], int]:
    """Findings of the pages on the release ``facts`` was read from, and how many items were judged.

    Blocks, tables and claims whose since/until exclude that release are not judged. The pages'
    ``verl-version`` claims are judged against the pin, not the tree, so they hold on every release.
    """
    # what does not depend on the release is judged once, by the site check on the pin, not once per release:
    # claim coverage and run markers (they read the page and the tests, never the facts) and 中文/English parity
    report = check_paths(paths, facts, root, options={"coverage": False, "parity": False})
    return report.findings, report.checked


def _release_worker(release: str, paths: list[Path], root: Path | None) -> tuple[list[Finding], int, float]:
    start = time.perf_counter()
    findings, checked = release_findings(paths, load_facts(from_release(release)), root)
    return findings, checked, time.perf_counter() - start


def findings_on_releases(
    paths: list[Path], releases: list[str], root: Path | None = None, jobs: int = 2
) -> dict[str, tuple[list[Finding], int, float]]:
    """``release_findings`` on each release, with its seconds: ``jobs`` releases at a time, each in a fresh
    process (spawned, not forked: the caller may have threads running), which reads or extracts that release's
    facts and leaves them in the cache. One release, or ``jobs=1``: in this process."""
    if jobs <= 1 or len(releases) <= 1:
        return {r: _release_worker(r, paths, root) for r in releases}
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    workers = min(jobs, len(releases))
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {r: pool.submit(_release_worker, r, paths, root) for r in releases}
        return {r: f.result() for r, f in futures.items()}


def _excluding_release(bound: str, version: str, releases: list[str]) -> str | None:
    """For ``since=X`` the newest release before X; for ``until=Y`` the oldest release from Y on."""
    key = version_key(version)
    ordered = sorted(releases, key=version_key)
    if bound == "since":
        before = [r for r in ordered if version_key(r) < key]
        return before[-1] if before else None
    after = [r for r in ordered if version_key(r) >= key]
    return after[0] if after else None


def _unbounded(attrs: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in attrs.items() if k not in BOUNDS}


def _labelled(page: Page) -> Iterable[tuple[str, int, dict[str, str], Callable[[Context], list[Finding]]]]:
    """(what, line, attrs, run) for every item carrying since/until; ``run(ctx)`` checks it with bounds ignored."""
    for block in page.blocks:
        kind = block.attrs.get("check")
        if kind is not None and kind in BLOCK_CHECKS and kind != "skip" and not block.missing_includes:
            stripped = dataclasses.replace(block, attrs=_unbounded(block.attrs))
            yield f'block check="{kind}"', block.line, block.attrs, functools.partial(BLOCK_CHECKS[kind], stripped)
    tables = {id(t.directive): t for t in page.tables if t.directive is not None}
    for d in page.directives:
        stripped_d = dataclasses.replace(d, attrs=_unbounded(d.attrs))
        if id(d) in tables and d.kind in TABLE_CHECKS:
            table = dataclasses.replace(tables[id(d)], directive=stripped_d)
            yield f"table {d.kind}", d.line, d.attrs, functools.partial(TABLE_CHECKS[d.kind], table)
        elif id(d) not in tables and d.kind in CLAIM_CHECKS:
            yield f"claim {d.kind}", d.line, d.attrs, functools.partial(CLAIM_CHECKS[d.kind], stripped_d)


def verify_labels(pages: list[Page], facts_by_release: dict[str, Facts], root: Path) -> list[Label]:
    """Check every since/until label against the covered release it excludes (see the module docstring)."""
    checks.load_all()
    releases = list(facts_by_release)
    out: list[Label] = []
    for page in pages:
        for what, line, attrs, run in _labelled(page):
            for bound in BOUNDS:
                if bound not in attrs:
                    continue
                against = _excluding_release(bound, attrs[bound], releases)
                found: list[Finding] = []
                if against is not None:
                    ctx = Context(facts=facts_by_release[against], root=root, options={})
                    found = list(run(ctx))
                out.append(Label(page.path, line, what, bound, attrs[bound], against, found))
    return out


def suggest_bounds(findings_by_release: dict[str, list[Finding]]) -> dict[tuple[str, int], str]:
    """For each failing place (file, line), the label that would make the matrix hold, from where it fails.

    Fails on a run of the oldest releases only → ``since="<first release where it holds>"``; on a run of
    the newest only → ``until="<first release where it fails>"``; anything else needs a closer look.
    """
    releases = sorted(findings_by_release, key=version_key)
    failing: dict[tuple[str, int], set[str]] = {}
    for release, findings in findings_by_release.items():
        for f in findings:
            failing.setdefault((f.path, f.line), set()).add(release)
    out = {}
    for place, bad in failing.items():
        flags = [r in bad for r in releases]
        n = sum(flags)
        if n == len(releases):
            out[place] = "fails on every covered release"
        elif flags[:n] == [True] * n:
            out[place] = f'since="{releases[n]}"'
        elif flags[len(releases) - n :] == [True] * n:
            out[place] = f'until="{releases[len(releases) - n]}"'
        else:
            out[place] = "fails on " + ", ".join(r for r in releases if r in bad)
    return out
