"""Invalid JSON names its cause: a trailing comma is called one, at the comma; other mistakes keep their own
message. And a bad option prints the usage of the subcommand it was given to."""

from __future__ import annotations

import pytest

from verl_cookbook.checks.json_file import check_json_text
from verl_cookbook.cli import main


def _one(text: str):
    (finding,) = check_json_text(text, None, lambda line: ("f.json", line), ("f.json", 1))
    return finding


@pytest.mark.parametrize(
    ("text", "where", "closer"),
    [('{"host_ip": ["10.0.0.1"],}', (1, 25), "}"), ('{\n  "a": [1, 2,\n  ]\n}', (2, 13), "]")],
)
def test_trailing_comma_is_named_at_the_comma(text: str, where: tuple[int, int], closer: str) -> None:
    f = _one(text)
    assert (f.line, f.col) == where
    assert f"trailing comma before `{closer}`" in f.message and "remove it" in f.message
    assert "needs a" not in f.message  # not the missing-key hint


def test_a_missing_key_is_not_called_a_trailing_comma() -> None:
    f = _one('{ "host_ip": ["ip1"], ["ip2"] }')
    assert "trailing comma" not in f.message and 'every value needs a "key"' in f.message


def test_valid_json_with_commas_between_items_is_silent() -> None:
    assert check_json_text('{"a": [1, 2], "b": {"c": 3}}', None, lambda n: ("f", n), ("f", 1)) == []


@pytest.mark.parametrize("command", [["check"], ["doctor", "run.sh"], ["facts"]])
def test_a_bad_option_prints_that_subcommands_usage(command: list[str], capsys) -> None:
    with pytest.raises(SystemExit) as e:
        main([*command, "--bogus"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: verl-cookbook {command[0]} ") and "unrecognized arguments: --bogus" in err
