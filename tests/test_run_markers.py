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


# -- the check itself: `verl-cookbook check` reports a marker naming no test (coverage/unknown-test) ---------------
def _site(tmp_path, page: str, tests: str = "def test_holds():\n    pass\n"):
    (tmp_path / "docs").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n")
    (tmp_path / "tests" / "test_x.py").write_text(tests)
    (tmp_path / "docs" / "page.md").write_text(page)
    return tmp_path


def _check(site, capsys) -> tuple[int, list[dict]]:
    import json
    import os

    from verl_cookbook import cli

    here = os.getcwd()
    os.chdir(site)
    try:
        code = cli.main(["check", "docs/page.md", "--format", "json", "--lang", "en"])
    finally:
        os.chdir(here)
    return code, [f for f in json.loads(capsys.readouterr().out) if f["rule"].startswith("coverage/")]


PAGE = "# P\n\nThe HCCL engine registers under the name `nccl`.<!-- run: test_x.py::{test} -->\n"


def test_check_reports_a_run_marker_whose_test_file_lacks_the_test_at_the_markers_line(tmp_path, capsys):
    code, found = _check(_site(tmp_path, PAGE.format(test="test_gone")), capsys)
    assert code == 1
    assert [(f["rule"], f["line"], f["data"]["test"]) for f in found] == [("coverage/unknown-test", 3, "test_gone")]


def test_check_reports_a_run_marker_naming_a_test_file_that_is_not_there(tmp_path, capsys):
    page = "# P\n\nThe HCCL engine registers under the name `nccl`.<!-- run: test_nowhere.py::test_holds -->\n"
    _, found = _check(_site(tmp_path, page), capsys)
    assert [(f["rule"], f["data"].get("case")) for f in found] == [("coverage/unknown-test", "no-file")]


def test_a_run_marker_naming_a_test_that_exists_draws_nothing(tmp_path, capsys):
    code, found = _check(_site(tmp_path, PAGE.format(test="test_holds")), capsys)
    assert (code, found) == (0, [])


def test_renaming_the_test_checks_a_page_whose_result_is_cached_again(tmp_path, capsys):
    site = _site(tmp_path, PAGE.format(test="test_holds"))
    assert _check(site, capsys) == (0, [])
    assert _check(site, capsys) == (0, [])  # replayed from the page cache
    (site / "tests" / "test_x.py").write_text("def test_renamed():\n    pass\n")
    code, found = _check(site, capsys)
    assert code == 1 and [f["rule"] for f in found] == ["coverage/unknown-test"]


def test_only_top_level_test_functions_count_as_the_tests_a_file_defines(tmp_path) -> None:
    """Read by a line-start pattern since the cold check stopped parsing 70 test files: a method or a nested
    function is not a test a marker can name; an async top-level test is."""
    from verl_cookbook.checks.run_markers import _tests_defined

    f = tmp_path / "test_x.py"
    f.write_text(
        "def test_top():\n    def test_nested():\n        pass\n\n\nasync def test_async():\n    pass\n\n\n"
        "class TestK:\n    def test_method(self):\n        pass\n\n\ndef helper():\n    pass\n",
        encoding="utf-8",
    )
    st = f.stat()
    assert _tests_defined(f, (st.st_size, st.st_mtime_ns)) == {"test_top", "test_async"}
