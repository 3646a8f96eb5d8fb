"""Fuzzing the YAML and JSON checks: config fragments with real keys and random values, YAML-looking and
JSON-looking text never raise (a small budget here; scripts/fuzz.py runs 10,000 per target)."""

from __future__ import annotations

from fuzz_targets import fuzz_in_tests


def test_any_yaml_config_is_judged_without_an_internal_error() -> None:
    fuzz_in_tests("yaml")


def test_any_json_is_judged_without_an_internal_error() -> None:
    fuzz_in_tests("json")
