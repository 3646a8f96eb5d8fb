"""The run's order hint (SLOW_FILES in tests/conftest.py) names test files that exist: a renamed file would
silently lose its early start."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SLOW_FILES

TESTS = Path(__file__).resolve().parent


def test_every_slow_file_named_first_is_a_test_file_here() -> None:
    assert len(set(SLOW_FILES)) == len(SLOW_FILES)
    assert [name for name in SLOW_FILES if not (TESTS / name).is_file()] == []


def test_the_test_command_keeps_xdist_from_reordering_the_files() -> None:
    test_sh = (TESTS.parent / "scripts" / "test.sh").read_text(encoding="utf-8")
    assert "--dist loadfile --no-loadscope-reorder" in test_sh
