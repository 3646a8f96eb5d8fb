"""Run markers name tests that exist: each ``<!-- run: FILE::TEST -->`` of a page (and a generated page's
``<!-- generated: FILE::TEST -->``) must name a test function that ``tests/FILE`` of the site defines, read statically
(``coverage/unknown-test``). Claim coverage (:mod:`.coverage`) counts a statement with a run marker as held by that
test; a marker left behind by a renamed test would hold nothing."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from verl_cookbook.checks.coverage import GENERATED
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import Page
from verl_cookbook.rules.coverage import COVERAGE_UNKNOWN_TEST
from verl_cookbook.statements import RUN, read_statements

_TEST_DEF = re.compile(r"^(?:async[ \t]+)?def[ \t]+(test_\w+)", re.MULTILINE)


@functools.lru_cache(maxsize=256)
def _tests_defined(path: Path, stamp: tuple[int, int]) -> frozenset[str]:
    """The test functions a test file defines at its top level (``def test_…`` at the start of a line; ``stamp``: its
    size and mtime, so an edit is read)."""
    try:
        return frozenset(_TEST_DEF.findall(path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError):
        return frozenset()


def marker_refs(page: Page) -> list[tuple[str, int]]:
    """(``FILE::TEST``, line) of each run marker of ``page`` and of its generated-page marker (markers shown inside
    code are examples, not markers)."""
    refs = [(m.name, m.line) for st in read_statements(page) for m in st.markers if m.kind == "run"]
    refs += [(m.group(1), page.text.count("\n", 0, m.start()) + 1) for m in GENERATED.finditer(page.text)]
    return refs


def marker_files(page: Page, root: Path) -> set[Path]:
    """The test files ``page``'s markers may name (any ``run:``/``generated:`` comment, code included): a page's
    cached result depends on them, so renaming a test checks the page again."""
    text = page.text
    refs = [m.group(1) for m in RUN.finditer(text)] + [m.group(1) for m in GENERATED.finditer(text)]
    return {root / "tests" / ref.partition("::")[0] for ref in refs}


def check_run_markers(page: Page, root: Path) -> tuple[list[Finding], set[Path]]:
    """``coverage/unknown-test`` for each marker of ``page`` naming no test of the site at ``root``, and the test
    files read (a cached page result depends on them)."""
    out: list[Finding] = []
    read: set[Path] = set()
    if not (root / "tests").is_dir():
        return out, read  # a site without tests (another project's docs) has no markers to hold
    seen: set[tuple[str, int]] = set()
    for ref, line in marker_refs(page):
        if (ref, line) in seen:
            continue
        seen.add((ref, line))
        file, _, test = ref.partition("::")
        path = root / "tests" / file
        read.add(path)
        try:
            st = path.stat()
        except OSError:
            out.append(COVERAGE_UNKNOWN_TEST.at(page.path, line, 1, case="no-file", ref=ref, file=file))
            continue
        if test not in _tests_defined(path, (st.st_size, st.st_mtime_ns)):
            out.append(COVERAGE_UNKNOWN_TEST.at(page.path, line, 1, ref=ref, file=file, test=test))
    return out, read
