"""Fuzzing the Markdown extractor and the page checks: arbitrary text, fences, containers, includes,
tables and claim directives never raise (a small budget here; scripts/fuzz.py runs 10,000 per target)."""

from __future__ import annotations

from fuzz_targets import fuzz_in_tests


def test_any_markdown_gives_blocks_tables_and_directives_inside_the_page() -> None:
    fuzz_in_tests("markdown")


def test_every_check_of_any_page_ends_in_findings_not_an_internal_error() -> None:
    fuzz_in_tests("page")
