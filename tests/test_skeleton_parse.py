"""A skeleton parse (function bodies that hold none of a family's words left out) is the whole-file parse with
exactly those bodies replaced by ``pass``: same nodes, lines, columns and walk order for everything else; on
tricky hand-written source, on every file of the pinned release, and family by family."""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path

import pytest

from verl_cookbook.facts import dataclass_types, engines, pyast
from verl_cookbook.facts.pyast import parse_file, skeleton

TRICKY = '''"""Module docstring.

def not_a_def_in_a_docstring():
"""
import os


def plain(a, b=1):
    """A docstring whose lines sit at column 0:
def fake():
    return 1
"""
    x = call(
1, 2)  # a continuation line at column 0, inside brackets
    y = 1 + \\
2
    s = """a string that closes at column 0
""" + "tail"
# a comment at column 0 inside the body
    return x


async def coroutine(
    a: int,
    b: dict[str, int] = {"k": 1},
) -> int:
    await thing(a)
    return b


def one_liner(): return 1


@decorate(os.environ.get("X"))
def decorated(self, flag=os.getenv("D")):  # a header comment: device
    if flag:
        return 2


class Engine:
    field: int = 3
    other: str = "s"

    def __init__(self, device: str = "npu", *args, **kwargs):
        self.device = device
        super().__init__(*args, **kwargs)

    def compare(self):
        def inner():
            return self.device == "cuda"
        return inner

    def keeps_nothing(self):
        values = [
            1,
        ]
        doc = """a string in a method that closes left of the method
""" + "tail"
        return values, doc
        # device: named in a comment after the body, not in its statements

    def continued(self, a) \\
            -> int:
        return a

    @property
    def prop(self):
        return self.field

    def last(self):
        pass
# a trailing comment
TAIL = 1
'''


def _blank_oracle(data: bytes, words: tuple[bytes, ...]) -> tuple[ast.Module, list[int]]:
    """The whole-file parse with the bodies ``skeleton`` may leave out put as ``pass`` (each body, outermost
    first, that starts on a line of its own and whose statements span none of the lines holding a word), and
    the first lines of the bodies so replaced."""
    module = ast.parse(data.decode())
    lines = data.decode().splitlines()
    hits = {data.count(b"\n", 0, i) + 1 for w in words for i in _find(data, w)}
    blanked: list[int] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                body = child.body[0]
                decorators = getattr(body, "decorator_list", [])  # a body may start with a decorated def
                at = (
                    (decorators[0].lineno, decorators[0].col_offset - 1)
                    if decorators
                    else (body.lineno, body.col_offset)
                )
                (first, col), last = at, child.body[-1].end_lineno
                own_line = not lines[first - 1][:col].strip()  # not `def f(): return 1`
                if own_line and not any(first <= h <= last for h in hits):
                    child.body = [ast.Pass(lineno=first, col_offset=col, end_lineno=first, end_col_offset=col + 4)]
                    blanked.append(first)
                    continue
            visit(child)

    visit(module)
    _end_at_last_statement(module)
    return module, blanked


_BLOCKS = ("body", "orelse", "handlers", "finalbody", "cases")


def _end_at_last_statement(node: ast.AST) -> tuple[int, int] | None:
    """Give each compound statement the end of its last statement, bottom up (as the parser does): a function
    left out ends at its ``pass``, and so does a class whose last method it is."""
    ends = []
    for field in _BLOCKS:
        for child in getattr(node, field, None) or []:
            end = _end_at_last_statement(child)
            if end is not None:
                ends.append(end)
    if not hasattr(node, "end_lineno"):
        return max(ends) if ends else None  # a module, a match case
    if ends:
        node.end_lineno, node.end_col_offset = max(ends)
    return node.end_lineno, node.end_col_offset


def _find(data: bytes, word: bytes):
    i = data.find(word)
    while i != -1:
        yield i
        i = data.find(word, i + len(word))


def _dump(module: ast.AST) -> str:
    return ast.dump(module, include_attributes=True)


@pytest.mark.parametrize("words", [(), (b"device",), (b"os.environ", b"values")])
def test_a_skeleton_parses_to_the_whole_file_with_only_unread_bodies_replaced(words) -> None:
    data = TRICKY.encode()
    shape = skeleton(data, words)
    assert shape is not None
    assert shape.count(b"\n") == data.count(b"\n")  # every line keeps its number
    want, blanked = _blank_oracle(data, words)
    assert blanked  # the fixture has bodies to leave out under every word set
    assert _dump(ast.parse(shape.decode())) == _dump(want)


def test_bodies_that_hold_a_word_are_kept_and_the_rest_are_not_parsed() -> None:
    shape = skeleton(TRICKY.encode(), (b"device",)).decode()
    module = ast.parse(shape)
    engine = next(n for n in module.body if isinstance(n, ast.ClassDef))
    methods = {n.name: n for n in engine.body if isinstance(n, ast.FunctionDef)}
    assert [type(s).__name__ for s in methods["__init__"].body] == ["Assign", "Expr"]  # names device
    assert isinstance(methods["compare"].body[0], ast.FunctionDef)  # kept: its inner function names device
    assert [type(s).__name__ for s in methods["keeps_nothing"].body] == ["Pass"]
    assert [a.target.id for a in engine.body if isinstance(a, ast.AnnAssign)] == ["field", "other"]
    assert "fake" not in shape and "call(" not in shape and "await" not in shape


def test_without_words_only_signatures_class_fields_and_module_statements_are_left() -> None:
    module = ast.parse(skeleton(TRICKY.encode()).decode())
    assert [n.lineno for n in ast.walk(module) if isinstance(n, ast.Pass)]
    for fn in (n for n in ast.walk(module) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)):
        if fn.name != "one_liner":
            assert [type(s).__name__ for s in fn.body] == ["Pass"], fn.name
    tail = next(n for n in module.body if isinstance(n, ast.Assign))
    assert (tail.lineno, ast.unparse(tail)) == (TRICKY.splitlines().index("TAIL = 1") + 1, "TAIL = 1")


@pytest.mark.parametrize(
    "src",
    [
        "def f():\r\n    return 1\r\n",  # \r line ends
        "def f():\n\treturn 1\n",  # a tab in an indentation: widths are not columns
        "def f():\n    x = 'unterminated\n",  # an unterminated string
        "def f(:\n    return 1\n",  # unbalanced brackets
    ],
)
def test_a_file_that_cannot_be_lexed_surely_gives_none(src: str) -> None:
    assert skeleton(src.encode()) is None


def test_parse_file_falls_back_to_the_whole_file_and_keeps_its_text(tmp_path: Path) -> None:
    tabbed = tmp_path / "tabbed.py"
    tabbed.write_text("def f():\n\treturn 1\n")
    text, module = parse_file(tabbed, ())
    assert text == tabbed.read_text()
    assert isinstance(module.body[0].body[0], ast.Return)  # whole: nothing left out
    spaced = tmp_path / "spaced.py"
    spaced.write_text("def f():\n    return 1\n")
    _, module = parse_file(spaced, ())
    assert isinstance(module.body[0].body[0], ast.Pass)
    _, module = parse_file(spaced)
    assert isinstance(module.body[0].body[0], ast.Return)  # no words: the whole file
    _, module = parse_file(spaced, (b"return",))
    assert isinstance(module.body[0].body[0], ast.Return)  # cached per word set, not per file


def test_every_file_of_the_pinned_release_skeletons_to_its_whole_parse(verl_tree) -> None:
    checked = 0
    for dirpath, _, filenames in os.walk(verl_tree.package):
        for fn in filenames:
            if not fn.endswith(".py"):
                continue
            data = Path(dirpath, fn).read_bytes()
            shape = skeleton(data, (b"device",))
            if shape is None:
                continue
            want, _ = _blank_oracle(data, (b"device",))
            assert _dump(ast.parse(shape.decode())) == _dump(want), f"{dirpath}/{fn}"
            checked += 1
    assert checked > 300  # (a few files indent with tabs or use \r)


@pytest.mark.parametrize("family", [dataclass_types, engines])
def test_families_read_from_skeletons_equal_whole_file_parsing(verl_tree, family, monkeypatch) -> None:
    fast = family.extract(verl_tree)
    pyast._parsed.clear()
    monkeypatch.setattr(pyast, "skeleton", lambda data, words=(): None)  # every file parsed whole
    try:
        whole = family.extract(verl_tree)
    finally:
        pyast._parsed.clear()
    assert json.dumps(fast, sort_keys=True, default=str) == json.dumps(whole, sort_keys=True, default=str)


def _guards(guards: list) -> list[tuple]:
    return [
        (g.file, g.line, g.error, g.message, [ast.dump(c) for c in g.conditions], sorted(g.locals), g.spec.rel)
        for g in guards
    ]


def test_delta_guards_read_from_skeletons_equal_whole_file_parsing(verl_tree, monkeypatch) -> None:
    from verl_cookbook.doctor_rules import delta_guards

    pyast._parsed.clear()
    fast = delta_guards.extract_guards(verl_tree)
    pyast._parsed.clear()

    def no_skeleton(data: bytes, words: tuple[bytes, ...] = ()) -> bytes | None:
        raise AssertionError("whole=True builds no skeleton")

    monkeypatch.setattr(pyast, "skeleton", no_skeleton)
    whole = delta_guards.extract_guards(verl_tree, whole=True)
    monkeypatch.undo()
    pyast._parsed.clear()
    assert len(fast) >= 3  # the pinned release has delta_sharded guards in several files
    assert _guards(fast) == _guards(whole)
    # and the skeleton did leave bodies out (the comparison is not of two whole parses)
    rel = next(s.rel for s in delta_guards.GUARD_FILES if s.function is None)
    text, skel = parse_file(verl_tree.root / rel, (delta_guards.DELTA.encode(),))
    assert ast.dump(skel) != ast.dump(ast.parse(text))
