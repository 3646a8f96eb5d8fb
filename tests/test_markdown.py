"""Markdown extraction: fences (also in admonitions and tabs), includes, tables and directives, with page lines."""

from __future__ import annotations

from pathlib import Path

import pytest

import verl_cookbook.markdown as md_mod
from verl_cookbook.markdown import MarkdownError, code_spans, parse_info, parse_page, read_text

REPO_ROOT = Path(__file__).resolve().parent.parent


def page(tmp_path: Path, text: str, files: dict[str, str] | None = None):
    for rel, content in (files or {}).items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(content)
    p = tmp_path / "docs" / "p.md"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    return parse_page(p, tmp_path, bases=[tmp_path])


@pytest.mark.parametrize(
    ("info", "lang", "attrs"),
    [
        ('{ .yaml check="config" device="npu" }', "yaml", {"check": "config", "device": "npu"}),
        ('{ .yaml .annotate check="defaults" }', "yaml", {"check": "defaults"}),
        ('bash { check="shell" }', "bash", {"check": "shell"}),
        ("python", "python", {}),
    ],
)
def test_fence_info_forms(info: str, lang: str, attrs: dict) -> None:
    assert parse_info(info) == (lang, attrs)


def test_fences_inside_admonitions_and_tabs_keep_page_lines(tmp_path: Path) -> None:
    text = (
        "# t\n\n"
        '!!! note\n    ``` { .yaml check="config" }\n    a: 1\n    ```\n\n'
        '=== "Tab"\n\n    ``` { .bash check="shell" }\n    echo hi\n    ```\n'
    )
    p = page(tmp_path, text)
    assert [(b.line, b.lang, b.code) for b in p.blocks] == [(4, "yaml", "a: 1\n"), (10, "bash", "echo hi\n")]
    assert p.blocks[0].where(1) == (p.path, 5)


def test_a_fence_after_a_box_inside_a_list_item_is_still_read(tmp_path: Path) -> None:
    """A warning box in a numbered step, then the step's command: mkdocs renders the fence inside the item, and the
    checker must see it (it once flattened the box to column 0, closing the list, so the fence became an indented
    code block and went unchecked)."""
    text = (
        "# t\n\n1. Step.\n\n"
        '    !!! warning "Caution"\n        Body.\n\n'
        "    Intro:\n\n"
        '    ``` { .bash check="shell" }\n    echo hi\n    ```\n\n'
        "    After.\n"
    )
    (b,) = page(tmp_path, text).blocks
    assert (b.line, b.lang, b.code) == (10, "bash", "echo hi\n")


def test_nested_boxes_each_take_their_own_indent(tmp_path: Path) -> None:
    text = "# t\n\n!!! note\n    !!! tip\n        ```yaml\n        a: 1\n        ```\n"
    (b,) = page(tmp_path, text).blocks
    assert (b.line, b.code) == (5, "a: 1\n")


def test_include_lines_map_into_the_snippet(tmp_path: Path) -> None:
    p = page(
        tmp_path, '```{ .yaml check="config" }\n--8<-- "snippets/a.yaml"\n```\n', {"snippets/a.yaml": "a: 1\nb: 2\n"}
    )
    (b,) = p.blocks
    assert b.code == "a: 1\nb: 2\n" and b.includes == ["snippets/a.yaml"]
    assert b.where(2) == ("snippets/a.yaml", 2)


def test_missing_include_is_recorded(tmp_path: Path) -> None:
    (b,) = page(tmp_path, '```yaml\n--8<-- "snippets/none.yaml"\n```\n').blocks
    assert b.missing_includes == [("snippets/none.yaml", 2)]


def test_unterminated_fence_is_flagged(tmp_path: Path) -> None:
    (b,) = page(tmp_path, "# t\n\n```yaml\na: 1\n").blocks
    assert b.unterminated
    (ok,) = page(tmp_path, "```yaml\na: 1\n```\n").blocks
    assert not ok.unterminated


def test_table_declared_by_the_directive_above_it(tmp_path: Path) -> None:
    text = (
        '<!-- check: params engine="nccl" device="npu" -->\n| A | 默认值 |\n|---|---|\n| `x` | `1` |\n\n'
        "| B | C |\n|---|---|\n| y | z |\n"
    )
    p = page(tmp_path, text)
    declared, plain = p.tables
    assert declared.directive is not None and declared.directive.attrs == {"engine": "nccl", "device": "npu"}
    assert declared.rows == [(4, ["`x`", "`1`"])] and declared.header == ["A", "默认值"]
    assert plain.directive is None


def test_claim_directives_with_their_lines(tmp_path: Path) -> None:
    p = page(tmp_path, 'a\n\nb <!-- check: raises file="verl/x.py" error="E" match="m n" -->\n')
    (d,) = p.directives
    assert (d.line, d.kind, d.attrs) == (3, "raises", {"file": "verl/x.py", "error": "E", "match": "m n"})


def test_code_spans() -> None:
    assert code_spans("`a` and ``b`c`` `d`") == ["a", "b`c", "d"]


def test_read_text_refuses_binary_and_bad_utf8(tmp_path: Path) -> None:
    (tmp_path / "b").write_bytes(b"\0\1")
    (tmp_path / "u").write_bytes(b"ok\n\xff")
    with pytest.raises(MarkdownError) as e:
        read_text(tmp_path / "b")
    assert e.value.rule == "file/binary"
    with pytest.raises(MarkdownError) as e:
        read_text(tmp_path / "u")
    assert (e.value.rule, e.value.line) == ("file/encoding", 2)


def _pages_with(parser_factory, pages: list[Path]) -> list[str]:
    original = md_mod.block_parser
    md_mod.block_parser = parser_factory
    md_mod.block_tokens.cache_clear()  # tokens are cached per text: this parser must parse them again
    md_mod.text_tokens.cache_clear()
    try:
        return [repr(md_mod.parse_page(p, REPO_ROOT)) for p in pages]
    finally:
        md_mod.block_parser = original
        md_mod.block_tokens.cache_clear()
        md_mod.text_tokens.cache_clear()


def test_block_level_parse_reads_every_page_as_the_full_parse_does() -> None:
    from markdown_it import MarkdownIt

    pages = sorted((REPO_ROOT / "docs").rglob("*.md")) + sorted((REPO_ROOT / "tests" / "data").rglob("*.md"))
    full = _pages_with(lambda: MarkdownIt("commonmark").enable("table"), pages)
    assert _pages_with(md_mod.block_parser, pages) == full
    # the comparison sees a parser that reads differently (no tables)
    assert _pages_with(lambda: MarkdownIt("commonmark"), pages) != full
