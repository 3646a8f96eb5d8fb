"""Reading only the parts of a verl file a fact needs (``verl_cookbook.facts.parts``): the nodes it yields are the
nodes a whole-file ``ast.walk`` yields on the lines that name a word, in the same order, at the same lines, on every
file of the pinned release; a file whose text misleads the reading of where definitions start is parsed whole."""

from __future__ import annotations

import ast
import importlib

import pytest

from verl_cookbook.facts import FAMILY_MODULES, extract_all, parts
from verl_cookbook.facts.pyast import Unparsable, parse
from verl_cookbook.verl_source import VerlTree


def _whole(text: str, words: tuple[str, ...]) -> list[str]:
    """What ``nodes_near`` must give, from the whole file: the nodes ``ast.walk`` yields that span a line naming a
    word, each with its place and code."""
    lines = {i for i, line in enumerate(text.splitlines(), 1) if any(w in line for w in words)}
    return [_seen(n) for n in ast.walk(ast.parse(text)) if _spans(n, lines)]


def _spans(node: ast.AST, lines: set[int]) -> bool:
    """Whether one of ``lines`` lies within ``node`` (a definition from its first decorator on)."""
    first = getattr(node, "lineno", None)
    if first is None:
        return False
    first = min([first, *(d.lineno for d in getattr(node, "decorator_list", ()))])
    return any(first <= n <= node.end_lineno for n in lines)  # type: ignore[attr-defined]


def _seen(node: ast.AST) -> str:
    """A node as a fact sees it: its kind and where it starts, and an expression's whole code and end (a statement
    around the words may hold definitions left out, which end it sooner; no expression holds a definition)."""
    where = f"{type(node).__name__}@{node.lineno}:{node.col_offset}"  # type: ignore[attr-defined]
    return where + (f"-{node.end_lineno}:{node.end_col_offset} {ast.dump(node)}" if isinstance(node, ast.expr) else "")


def _near(text: str, words: tuple[str, ...]) -> list[str]:
    nodes, _ = parts.nodes_near(text, "verl/x.py", words)
    return [_seen(n) for n in nodes if getattr(n, "lineno", None) is not None]


# The words of each family, and the folder of verl's package whose files it reads with them.
WORD_SETS = [
    (("environ", "getenv"), "."),
    (("device",), "checkpoint_engine"),
    (("import", "class"), "workers/config"),
    (("resume_mode", "callback"), "trainer"),
    (("delta_sharded",), "."),
]


@pytest.mark.parametrize(("words", "folder"), WORD_SETS, ids=lambda v: "-".join(v) if isinstance(v, tuple) else None)
def test_on_the_files_of_the_release_the_nodes_near_the_words_are_those_of_the_whole_file(
    verl_tree: VerlTree, words: tuple[str, ...], folder: str
) -> None:
    checked = 0
    for path in sorted((verl_tree.package / folder).rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if not any(w in text for w in words):
            continue
        assert _near(text, words) == _whole(text, words), path
        checked += 1
    assert checked > 3  # the words are in the release: the comparison compared something


def test_definitions_that_name_no_word_are_left_out_and_the_rest_keeps_its_lines() -> None:
    text = (
        "import os\n"
        "def unrelated():\n"
        "    return 1\n"
        "class Worker:\n"
        "    x: int = 0\n"
        "    def quiet(self):\n"
        "        return 2\n"
        "    def loud(self):\n"
        "        return os.environ.get('A')\n"
    )
    kept = parts._kept(text, ("environ",))
    assert kept.count("\n") == text.count("\n")
    assert "unrelated" not in kept and "quiet" not in kept and "return 2" not in kept
    assert kept.splitlines()[8] == text.splitlines()[8]
    (call,) = [n for n in parts.nodes_near(text, "verl/x.py", ("environ",))[0] if isinstance(n, ast.Call)]
    assert (call.lineno, call.col_offset) == (9, 15)


def test_a_def_inside_a_triple_quoted_string_does_not_start_a_definition() -> None:
    text = 'X = """\ndef not_code():\n"""\ndef real():\n    return 1\n'
    assert [s for s, _, _ in parts._starts(text)] == [text.index("def real")]


def test_a_decorator_stack_and_its_definition_are_one_part() -> None:
    text = "@a\n@b(\n  1,\n)\ndef f():\n    pass\n"
    assert parts._starts(text) == [(0, "", False)]


def test_a_statement_of_the_class_after_a_method_keeps_that_method() -> None:
    text = "class C:\n    def m(self):\n        return 1\n    y: int = 2\n"
    assert parts._kept(text, ("class",)) == text


def test_a_text_that_misleads_the_reading_is_parsed_whole() -> None:
    # an escaped quote ends the string for the reading, not for Python: the def inside the string starts a part
    text = 'S = """x\\"""\ndef g():\n    pass\n"""\nimport os\nv = os.environ["A"]\n'
    assert ast.parse(text).body[0].value.value.startswith('x"""\ndef g')  # type: ignore[attr-defined]
    with pytest.raises(SyntaxError):
        ast.parse(parts._kept(text, ("environ",)))
    assert _near(text, ("environ",)) == _whole(text, ("environ",)) != []


def test_a_file_that_does_not_parse_is_refused_with_its_line() -> None:
    with pytest.raises(Unparsable, match=r"verl/x\.py:2:"):
        parts.parse_near("import os\ndef f(:\n    os.environ\n", "verl/x.py", ("environ",))


def _whole_files(monkeypatch: pytest.MonkeyPatch) -> int:
    """Make every family (and ``nodes_near``) parse each file it reads whole; the number of modules patched."""
    patched = 0
    for module in [parts, *(importlib.import_module(f"verl_cookbook.facts.{m}") for m in FAMILY_MODULES.values())]:
        if hasattr(module, "parse_near"):
            monkeypatch.setattr(module, "parse_near", lambda text, rel, words: parse(text, rel))
            patched += 1
    return patched


def test_every_fact_read_from_the_parts_is_the_fact_read_from_the_whole_files(
    verl_tree: VerlTree, monkeypatch: pytest.MonkeyPatch
) -> None:
    from_parts = extract_all(verl_tree)
    assert _whole_files(monkeypatch) >= 5  # parts, and the families that read parts: all of them now read whole files
    assert extract_all(verl_tree) == from_parts
