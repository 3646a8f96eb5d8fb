"""Every internal error scripts/fuzz.py found, as the input that first hit it (shrunk by hand), and what the
checker does with it now: a finding or silence, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import fence, findings_for, rules

from verl_cookbook.cli import main
from verl_cookbook.facts import Facts
from verl_cookbook.releases import version_key


# fuzz target "yaml": PyYAML 6.0.3+ cannot re-read its own serialisation of an empty value (`key:`)
@pytest.mark.parametrize("text", ["trainer:\n  save_freq:\n", "ÖvÝ¨:\n", "actor_rollout_ref:\n  rollout:\n"])
def test_a_yaml_key_with_no_value_is_judged_not_an_internal_error(tmp_path: Path, capsys, text: str) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(text, encoding="utf-8")
    code = main(["doctor", str(config)])
    err = capsys.readouterr().err
    assert code in (0, 1) and "internal error" not in err, err


def test_an_empty_value_of_a_known_key_is_silent_and_an_unknown_key_is_named(write_page, facts: Facts) -> None:
    known = write_page("# t\n\n" + fence("trainer:\n  save_freq:", '{ .yaml check="config" }'))
    assert findings_for(known, facts) == []
    unknown = write_page("# t\n\n" + fence("trainer:\n  save_frequency:", '{ .yaml check="config" }'))
    assert rules(findings_for(unknown, facts)) == ["config/unknown-key"]


# fuzz target "page": since="¹" (a character str.isdigit() accepts and int() refuses)
@pytest.mark.parametrize(("version", "same_as"), [("¹.2", "0.2"), ("x.9.1", "0.9.1"), ("0.9.¹1", "0.9.1")])
def test_version_key_reads_ascii_digits_only(version: str, same_as: str) -> None:
    assert version_key(version) == version_key(same_as)


def test_a_since_bound_with_superscript_digits_does_not_crash_the_page(write_page, facts: Facts) -> None:
    page = write_page("# t\n\n" + fence("actor_rollout_ref: {}", '{ .yaml check="config" since="¹" }'))
    assert findings_for(page, facts) == []
