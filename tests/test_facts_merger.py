"""Model-merger facts: subcommands and options read from verl's argparse calls, each on its own line."""

from __future__ import annotations

import pytest

from verl_cookbook.facts import merger
from verl_cookbook.verl_source import VerlTree


def line_at(tree: VerlTree, source: str) -> str:
    rel, _, line = source.rpartition(":")
    return tree.read(rel).splitlines()[int(line) - 1]


def call_text(lines: list[str], line: int) -> str:
    """The call starting on 1-based ``line``, up to its closing parenthesis."""
    out = ""
    for ln in lines[line - 1 :]:
        out += ln + " "
        if out.count("(") and out.count("(") == out.count(")"):
            return out
    return out


@pytest.fixture(scope="module")
def cli(verl_tree: VerlTree) -> dict:
    return merger.extract(verl_tree)


def test_every_option_is_declared_on_its_line(verl_tree: VerlTree, cli: dict) -> None:
    options = [o for s in cli["subcommands"].values() for o in s["options"]]
    assert options
    rel = cli["file"]
    text = verl_tree.read(rel).splitlines()
    for o in options:
        line = int(o["source"].rpartition(":")[2])
        # the add_argument call may wrap: the flag is on its line or the next
        assert "add_argument" in text[line - 1]
        assert any(f'"{o["flags"][0]}"' in ln for ln in text[line - 1 : line + 1]), o["flags"]


def test_subcommands_are_those_add_parser_declares(verl_tree: VerlTree, cli: dict) -> None:
    text = verl_tree.read(cli["file"]).splitlines()
    assert cli["subcommands"]
    for name, sub in cli["subcommands"].items():
        line = int(sub["source"].rpartition(":")[2])
        call = " ".join(text[line - 1 : line + 2])
        assert "add_parser(" in call and f'"{name}"' in call
    assert cli["subcommand"]["required"] is ("required=True" in line_at(verl_tree, cli["subcommand"]["source"]))


def test_parent_parser_options_are_shared_by_every_subcommand(cli: dict) -> None:
    flag_sets = [{f for o in s["options"] for f in o["flags"]} for s in cli["subcommands"].values()]
    shared = set.intersection(*flag_sets)
    assert shared and all(shared < fs for fs in flag_sets)  # shared ones plus each subcommand's own


def test_option_attributes_match_the_call(verl_tree: VerlTree, cli: dict) -> None:
    text = verl_tree.read(cli["file"]).splitlines()
    for o in [o for s in cli["subcommands"].values() for o in s["options"]]:
        call = call_text(text, int(o["source"].rpartition(":")[2]))
        assert o["required"] == ("required=True" in call), o["flags"]
        if o["choices"]:
            assert all(f'"{c}"' in call for c in o["choices"])
        if o["action"] == "store_true":
            assert o["default"] is False and not o["takes_value"]


def test_a_tree_without_the_merger_gives_empty_facts(verl_copy: VerlTree) -> None:
    import shutil

    shutil.rmtree(verl_copy.root / "verl" / "model_merger")
    assert merger.extract(verl_copy) == {}


def test_parser_in_another_shape_is_read(verl_copy: VerlTree) -> None:
    """A release that adds a subcommand and a choice is read without code changes here."""
    rel = "verl/model_merger/base_model_merger.py"
    path = verl_copy.root / rel
    text = path.read_text()
    anchor = "    args = parser.parse_args()\n"
    extra = (
        '    export_parser = subparsers.add_parser("export", parents=[base_op_parser])\n'
        '    export_parser.add_argument("--format", choices=["safetensors", "gguf"], default="safetensors")\n'
    )
    path.write_text(text.replace(anchor, extra + anchor, 1))
    cli = merger.extract(verl_copy)
    export = cli["subcommands"]["export"]
    fmt = next(o for o in export["options"] if o["flags"] == ["--format"])
    assert fmt["choices"] == ["safetensors", "gguf"] and fmt["default"] == "safetensors"
    assert "--backend" in {f for o in export["options"] for f in o["flags"]}
