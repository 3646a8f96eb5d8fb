"""The YAML readers (libyaml where installed, one parse for data and key lines, lookups by node) give exactly what
PyYAML's pure-Python parser and a walk of the loaded data give."""

from __future__ import annotations

import pytest
import yaml

from verl_cookbook.facts import trainer
from verl_cookbook.yaml_lines import key_lines, load_with_lines, values_at

YAML = """\
# comment
a: &base
  b: 1
  c: [x, y]
d:
  <<: *base
  e: 2021-01-01
  f: "quoted: colon"
  g: null
  h: 1e3
"""


def test_one_yaml_parse_gives_the_safe_load_data_and_key_lines() -> None:
    data, lines = load_with_lines(YAML)
    assert data == yaml.safe_load(YAML)
    assert lines == key_lines(YAML)
    assert lines["d.e"] == 7 and lines["a.c"] == 4


def test_generated_config_reads_the_same_with_either_yaml_parser(verl_tree) -> None:
    text = verl_tree.read(trainer.GENERATED)
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    pure: dict[str, int] = {}

    def walk(n: yaml.Node, prefix: tuple[str, ...]) -> None:
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                pure[".".join((*prefix, str(k.value)))] = k.start_mark.line + 1
                walk(v, (*prefix, str(k.value)))

    walk(node, ())
    data, lines = load_with_lines(text)
    assert lines == pure and len(lines) > 100
    assert data == yaml.load(text, Loader=yaml.SafeLoader)


# Tricky for a lookup by node: a duplicate key (the last one wins), keys that YAML reads as int, bool or null, a
# quoted key, an alias, a flow mapping, a key with a dot in it, an empty value.
PATHS_YAML = """\
top:
  a: 1
  a: 2
  1: int key
  "2": quoted
  on: bool key
  ~: null key
  shared: &s {x: [1, 2], y: {z: true}}
  again: *s
  dotted.key: 3
  empty:
other: [1, 2]
"""


@pytest.mark.parametrize("text", [PATHS_YAML, YAML])
def test_values_at_equals_walking_the_loaded_data(text: str) -> None:
    data = yaml.safe_load(text)
    paths: list[str] = []

    def walk(node: object, prefix: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if isinstance(k, str):
                    paths.append(f"{prefix}{k}")
                    walk(v, f"{prefix}{k}.")

    walk(data, "")
    paths += ["top.1", "top.on", "top.None", "top.missing", "other.0", "top.a.b", "nope", "top.dotted"]
    expected = {}
    for path in paths:
        node, found = data, True
        for part in path.split("."):
            if not isinstance(node, dict) or part not in node:
                found = False
                break
            node = node[part]
        if found:
            expected[path] = node
    got = values_at(text, paths)
    assert got == expected
    for path in paths:  # one at a time too: building a value must not change what a later path finds
        assert values_at(text, [path]) == ({path: expected[path]} if path in expected else {}), path
    if text is PATHS_YAML:  # the cases named above, spelled out
        assert got["top.a"] == 2 and got["top.2"] == "quoted" and "top.1" not in got and "top.on" not in got
        assert got["top.again"] == {"x": [1, 2], "y": {"z": True}} and "top.empty" in got and got["top.empty"] is None
        assert "top.dotted.key" not in got and "other.0" not in got
    else:  # a merge key: the merged keys are found too
        assert got["d.b"] == 1


def test_key_lines_of_a_text_are_parsed_once_and_handed_out_as_copies(monkeypatch) -> None:
    import verl_cookbook.yaml_lines as yl

    text = PATHS_YAML + "\nunique_to_this_test: 1\n"
    calls = []
    real = yl._compose
    monkeypatch.setattr(yl, "_compose", lambda t: calls.append(t) or real(t))
    first = key_lines(text)
    first["changed"] = 1
    assert key_lines(text) == {k: v for k, v in first.items() if k != "changed"}
    assert len(calls) == 1
