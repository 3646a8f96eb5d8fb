"""Fuzzing the shell reader and the override handling: shell-like text, launch scripts and Hydra
overrides never raise (a small budget here; scripts/fuzz.py runs 10,000 per target)."""

from __future__ import annotations

from fuzz_targets import fuzz_in_tests


def test_any_shell_text_reads_as_a_script() -> None:
    fuzz_in_tests("shell")


def test_any_override_is_parsed_or_refused_with_override_error() -> None:
    fuzz_in_tests("override")


def test_any_launch_script_goes_through_doctor_without_an_internal_error() -> None:
    fuzz_in_tests("launch-script")
