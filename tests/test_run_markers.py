"""Every run marker (`<!-- run: FILE::TEST -->`) and generated-page marker (`<!-- generated: FILE::TEST -->`) on the
site names a test that exists: claim coverage counts the statements they bind as held by that test."""

from __future__ import annotations

import ast
from functools import cache

from tests.conftest import REPO
from verl_cookbook.checks.coverage import GENERATED
from verl_cookbook.parity import marks

TESTS = REPO / "tests"


@cache
def _tests_in(name: str) -> frozenset[str]:
    path = TESTS / name
    if not path.is_file():
        return frozenset()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return frozenset(n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_"))


def _missing(refs: list[str]) -> list[str]:
    return [ref for ref in refs if ref.partition("::")[2] not in _tests_in(ref.partition("::")[0])]


def _refs(text: str) -> list[str]:
    """The tests a page's markers name (markers shown inside code blocks are examples, not markers)."""
    return [m.name for m in marks(text) if m.name != "※"] + [m.group(1) for m in GENERATED.finditer(text)]


def test_every_marker_on_the_site_names_a_test_that_exists():
    missing = {}
    for page in sorted((REPO / "docs").rglob("*.md")):
        if bad := _missing(_refs(page.read_text(encoding="utf-8"))):
            missing[str(page.relative_to(REPO))] = bad
    assert not missing


def test_a_marker_naming_a_test_that_is_gone_is_caught():
    def missing(text: str) -> list[str]:
        return _missing(_refs(text))

    assert missing("<!-- run: test_merger_run.py::test_no_such_test -->") == ["test_merger_run.py::test_no_such_test"]
    assert missing("<!-- run: test_nowhere.py::test_x -->") == ["test_nowhere.py::test_x"]
    good = "<!-- run: test_merger_run.py::test_a_plain_fsdp_checkpoint_merges_into_config_weights_and_tokenizer -->"
    assert missing(good) == []
    assert missing("<!-- generated: test_rules_page.py::test_the_committed_rules_page_is_current -->") == []
    assert missing("```text\n<!-- run: test_x.py::test_shown_as_an_example -->\n```\n") == []
