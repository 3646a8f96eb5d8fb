"""The fast fact readers (statements parsed alone, pruned walks, libyaml) give exactly what parsing and
walking whole files gives: on tricky hand-written sources, and family by family on the pinned release."""

from __future__ import annotations

import ast
import json
import re

import pytest
import yaml

from verl_cookbook.facts import entry_points, env, trainer
from verl_cookbook.facts.pyast import (
    parse_statements,
    top_level_statements,
    walk_lines,
    walk_order_keys,
    word_lines,
)
from verl_cookbook.yaml_lines import key_lines, load_with_lines, values_at


def _whole(data: bytes, rel: str) -> list[tuple[str, dict]]:
    return env.scan_source(data.decode("utf-8", errors="replace"), rel)


def _by_name(reads: list[tuple[str, dict]]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for name, rec in reads:
        out.setdefault(name, []).append(rec)
    return out


def _same_reads(src: str) -> dict[str, list[dict]]:
    """The reads found statement by statement, by name, after checking they equal the whole-file
    parse's (the family lists each name's reads; the order between names is not kept)."""
    data = src.encode()
    fast = _by_name(env.scan_bytes(data, "verl/x.py"))
    assert fast == _by_name(_whole(data, "verl/x.py"))
    return fast


TRICKY = '''"""Module docstring that shows code, not a read:

    os.environ["IN_DOCSTRING"]
"""
import os

X = os.environ.get(
    "SPLIT_OVER_LINES",  # a comment with os.environ["IN_COMMENT"]
    "d(",
)
Y = os.getenv("AFTER_BACKSLASH") \\
    == "1"
MSG = f"rank {os.environ['IN_FSTRING']}"
S = "a string that says os.environ['IN_STRING'] ("


class Worker:
    @decorate(os.environ.get("IN_DECORATOR", "0"))
    def run(self, flag=os.getenv("IN_DEFAULT", "x")):  # header: os.environ
        if os.environ.get("IN_IF", "0").lower() == "1":
            pass
        elif os.environ.get("IN_ELIF") == "yes":
            pass
        else: z = os.environ["IN_ELSE"]
        try:
            pass
        except KeyError: w = int(os.environ.get("IN_EXCEPT", 3)) == 4
        finally:
            v = os.environ.setdefault("IN_FINALLY", "on")
        match os.environ.get("IN_MATCH"):
            case "a" if "IN_GUARD" in os.environ:
                pass
        while os.getenv("IN_WHILE"):
            break
        # os.environ["ONLY_A_COMMENT"]
        return {"k": os.environ["IN_DICT"],
                "j": [os.environ.get("IN_LIST")]}
'''


def test_statement_reads_equal_the_whole_file_parse_on_tricky_source() -> None:
    names = list(_same_reads(TRICKY))
    for expected in ("SPLIT_OVER_LINES", "AFTER_BACKSLASH", "IN_FSTRING", "IN_DECORATOR", "IN_DEFAULT", "IN_IF"):
        assert expected in names
    for expected in ("IN_ELIF", "IN_ELSE", "IN_EXCEPT", "IN_FINALLY", "IN_MATCH", "IN_GUARD", "IN_WHILE"):
        assert expected in names
    assert "IN_DICT" in names and "IN_LIST" in names
    for absent in ("IN_DOCSTRING", "IN_COMMENT", "IN_STRING", "ONLY_A_COMMENT"):
        assert absent not in names


def test_only_the_statements_that_name_the_word_are_parsed() -> None:
    body = "".join(f"def f{i}(a, b):\n    return [a + b for _ in range({i})]\n\n" for i in range(200))
    src = f"import os\n\n{body}LEVEL = os.getenv('VERL_LOGGING_LEVEL', 'WARN')\n"
    fragments = parse_statements(src.encode(), (b"getenv",))
    assert fragments is not None
    parsed = [stmt for f in fragments for stmt in f.module.body]
    assert [ast.unparse(s) for s in parsed] == ["LEVEL = os.getenv('VERL_LOGGING_LEVEL', 'WARN')"]
    (line,) = [n.lineno + f.offset for f in fragments for n in ast.walk(f.module) if isinstance(n, ast.Call)]
    assert src.splitlines()[line - 1].startswith("LEVEL = ")


def test_a_name_read_twice_keeps_the_whole_file_walk_order() -> None:
    # ast.walk is breadth first: the shallow read on line 5 comes before the nested one on line 4
    src = "import os\ndef f():\n    if x:\n        a = os.environ['TWICE']\nb = os.environ['TWICE']\n"
    reads = _same_reads(src)
    assert [rec["source"] for rec in reads["TWICE"]] == ["verl/x.py:5", "verl/x.py:4"]


@pytest.mark.parametrize(
    "src",
    [
        "import os\r\nA = os.environ['CRLF']\r\n",  # \r line ends: left to the whole-file parser
        "import os\nA = os.environ['X'\n",  # unbalanced bracket
        "import os\nA = 'unterminated\nB = os.environ['Y']\n",  # unterminated string
        "import os\nA = os.environ['BROKEN'] = = 1\n",  # a statement that does not parse
    ],
)
def test_a_file_that_cannot_be_split_surely_is_read_whole(src: str) -> None:
    assert parse_statements(src.encode(), (b"environ",)) is None
    _same_reads(src)


def test_pruned_walk_meets_every_node_on_a_word_line_in_walk_order(verl_tree) -> None:
    checked = 0
    for path in sorted((verl_tree.root / "verl" / "checkpoint_engine").glob("*.py")):
        source = path.read_text(encoding="utf-8", errors="replace")
        module = ast.parse(source)
        for words in (("device",), ("CheckpointEngineRegistry",), ("engine_kwargs",)):
            lines = word_lines(source, words)

            def on_a_word_line(node: ast.AST, lines: list[int] = lines) -> bool:
                first = getattr(node, "lineno", None)
                return first is not None and any(first <= n <= node.end_lineno for n in lines)

            full = [n for n in ast.walk(module) if on_a_word_line(n)]
            pruned = [n for n in walk_lines(module, lines) if on_a_word_line(n)]
            assert pruned == full, (path.name, words)
            checked += len(full)
    assert checked > 0


def test_env_family_equals_whole_file_parsing_on_the_pinned_release(verl_tree) -> None:
    fast = env.extract(verl_tree)
    assert fast["vars"], "no environment reads found"
    assert json.dumps(fast) == json.dumps(env.extract(verl_tree, scan=_whole))


def test_trainer_family_equals_whole_file_walks_on_the_pinned_release(verl_tree) -> None:
    fast = trainer.extract(verl_tree)
    assert fast["resume_modes"], "no resume modes found"
    assert json.dumps(fast, default=str) == json.dumps(trainer.extract(verl_tree, whole=True), default=str)


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


NESTED = """import os
A = os.environ["N"]


class Outer:
    class Inner:
        def f(self):
            if a:
                x = os.environ["N"]
            elif b:
                if c:
                    pass
                elif d:
                    y = os.environ["N"]
            else:
                z = os.environ["N"]

    def g(self):
        try:
            w = os.environ["N"]
        except KeyError:
            v = os.environ.get("N")
        else:
            pass
        finally:
            u = os.environ.get("N", "1") == "1"
        for i in range(3):
            pass
        else:
            with open("f") as fh:
                t = os.environ["N"]
        while True:
            s = os.getenv("N")
            break
        match os.environ.get("N"):
            case "x":
                r = os.environ["N"]
        return os.environ["N"]


def h():
    try:
        q = os.environ["N"]
    finally:
        pass
    return {"k": [os.environ["N"]]}
"""


def test_reads_of_one_name_at_every_depth_keep_the_whole_file_walk_order() -> None:
    reads = _same_reads(NESTED)
    lines = [int(rec["source"].rpartition(":")[2]) for rec in reads["N"]]
    assert len(lines) == 14
    assert lines[0] == 2 and lines != sorted(lines)  # breadth first: the module-level read first, then deeper
    # ... and the order came from the file's block skeleton, not from parsing the whole file
    data = NESTED.encode()
    fragments = parse_statements(data, (b"environ", b"getenv"))
    assert fragments is not None
    found = [(f, node) for f in fragments for node in ast.walk(f.module) if isinstance(node, ast.Subscript)]
    assert walk_order_keys(data, found) is not None


# -- top-level statements parsed alone (the entry-points family) ---------------------------------------

TOP_LEVEL = '''"""Docstring with a line at column 0 that looks like code:
@hydra.main(config_path="not", config_name="code")
def fake(): del config.x
"""
# a comment that says del before the first statement
import hydra

VALUE = call(
arg_at_column_zero,
)
JOINED = 1 + \\
2
TEXT = """
del in a string
"""+ SUFFIX
if FLAG:
    pass
else:
    del OTHER


@decorate
@hydra.main(config_path="config", config_name="ppo_trainer")
def main(config):
    run(config)


class Trainer:
    def migrate(self, config):
        text = """
del config.in_string
"""
        del config.old_key  # config.old_key -> config.new_key

try:
    import missing
except ImportError:
    del missing
def after_a_blank(): pass  # del in a trailing comment
'''


def _want(src: str, pattern) -> list[str]:
    """What the whole-file parse holds: the top-level statements whose lines (first decorator to the next
    statement) hold a match, dumped with their positions."""
    body = ast.parse(src).body
    firsts = [min([s.lineno] + [d.lineno for d in getattr(s, "decorator_list", [])]) for s in body]
    hits = {src.count("\n", 0, m.start()) + 1 for m in pattern.finditer(src.encode())}
    ends = [*firsts[1:], 10**9]
    spans = zip(body, firsts, ends, strict=True)
    return [ast.dump(s, include_attributes=True) for s, a, b in spans if any(a <= h < b for h in hits)]


def _got(src: str, pattern) -> list[str] | None:
    got = top_level_statements(src.encode(), pattern)
    return None if got is None else [ast.dump(s, include_attributes=True) for s in got]


@pytest.mark.parametrize("words", [rb"\bdel\b", rb"^@\s*(?:hydra\s*\.\s*)?main\b", rb"column_zero|JOINED", rb"\w"])
def test_top_level_statements_equal_the_whole_file_parse_on_tricky_source(words: bytes) -> None:
    pattern = re.compile(words, re.M)
    want = _want(TOP_LEVEL, pattern)
    assert want, "the pattern matches no statement: the comparison would prove nothing"
    assert _got(TOP_LEVEL, pattern) == want


def test_only_the_statements_with_a_match_are_parsed() -> None:
    got = top_level_statements(TOP_LEVEL.encode(), re.compile(rb"^@\s*(?:hydra\s*\.\s*)?main\b", re.M))
    # the docstring holds a match at column 0 too: a statement more is parsed, never one less
    assert [(type(s).__name__, s.lineno) for s in got] == [("Expr", 1), ("FunctionDef", 24)]


@pytest.mark.parametrize(
    "src",
    [
        "import os\r\ndel os\r\n",  # \r line ends: left to the whole-file parser
        "X = call(\ndel_me\n",  # a bracket never closed
        "X = 'unterminated\ndel y\n",  # an unterminated string
        "del = 1\n",  # a statement with a match that does not parse
    ],
)
def test_a_file_that_cannot_be_split_surely_gives_none(src: str) -> None:
    assert top_level_statements(src.encode(), re.compile(rb"del")) is None


def test_entry_points_family_equals_whole_file_parsing_on_the_pinned_release(verl_tree, monkeypatch) -> None:
    fast = entry_points.extract(verl_tree)
    assert fast["entry_points"] and fast["migrations"], "no entry point or migration found"
    monkeypatch.setattr(entry_points, "top_level_statements", lambda data, pattern: None)
    assert json.dumps(fast) == json.dumps(entry_points.extract(verl_tree))
