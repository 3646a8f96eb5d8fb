"""verl_cookbook/statements.py: the sentences and undeclared table rows of a page, each with the claims, run markers and
※ marks written in it or right after it, in both languages."""

from __future__ import annotations

from pathlib import Path

from verl_cookbook.markdown import parse_page
from verl_cookbook.statements import Statement, read_statements, split_sentences


def _statements(tmp_path: Path, text: str) -> list[Statement]:
    page = tmp_path / "p.md"
    page.write_text(text, encoding="utf-8")
    return read_statements(parse_page(page, tmp_path, text=text))


def _texts(tmp_path: Path, text: str) -> list[str]:
    return [s.text for s in _statements(tmp_path, text)]


def _split(s: str) -> list[str]:
    return [s[a:b] for a, b in split_sentences(s)]


def test_chinese_sentences_end_at_the_full_width_stops_and_semicolon():
    assert _split("默认值是 2048。推理端要注意；训练端不用！真的吗？是的") == [
        "默认值是 2048。",
        "推理端要注意；",
        "训练端不用！",
        "真的吗？",
        "是的",
    ]


def test_a_line_break_inside_a_sentence_is_no_boundary_in_either_language():
    assert _split("HCCL 引擎在每次同步时\n分配两块缓冲区。") == ["HCCL 引擎在每次同步时\n分配两块缓冲区。"]
    assert _split("The engine allocates\ntwo buffers. Then it sends.") == [
        "The engine allocates\ntwo buffers.",
        "Then it sends.",
    ]


def test_dots_in_code_spans_versions_citations_links_and_abbreviations_end_no_sentence():
    text = (
        "See `verl/checkpoint_engine/base.py:67-69` in 0.9.1. It calls `a.b()`, e.g. on NPU, etc. and more. "
        "The [guide](https://x.org/a.b. c) is long. Then `x. y` ends? Yes! Done... really."
    )
    assert _split(text) == [
        "See `verl/checkpoint_engine/base.py:67-69` in 0.9.1.",
        "It calls `a.b()`, e.g. on NPU, etc. and more.",
        "The [guide](https://x.org/a.b. c) is long.",
        "Then `x. y` ends?",
        "Yes!",
        "Done... really.",
    ]


def test_a_mark_and_comments_right_after_a_stop_belong_to_the_sentence_before():
    mark = '<sup class="unchecked" title="report">※</sup>'
    text = f"A user saw it.{mark} <!-- check: x --> Next one。<!-- run: a::b -->后一句。"
    assert _split(text) == [
        f"A user saw it.{mark} <!-- check: x -->",
        "Next one。<!-- run: a::b -->",
        "后一句。",
    ]


def test_claims_after_a_sentence_on_its_line_below_it_or_after_a_blank_line_belong_to_it(tmp_path: Path):
    st = _statements(
        tmp_path,
        '# T\n\nFirst `a`. Second `b`.\n<!-- check: contains file="verl/x.py" match="b" -->\n\n'
        "<!-- run: test_x.py::test_y -->\n\n"
        'Third `c`.<!-- check: raises file="verl/x.py" error="E" match="m" -->\nFourth.\n',
    )
    assert [(s.text, [m.kind for m in s.markers]) for s in st] == [
        ("First `a`.", []),
        ("Second `b`.", ["check", "run"]),
        ("Third `c`.", ["check"]),
        ("Fourth.", []),
    ]
    assert st[1].markers[0].attr("match") == "b" and st[1].markers[1].name == "test_x.py::test_y"
    assert [s.line for s in st] == [3, 3, 8, 9]
    assert st[1].markers[1].line == 6


def test_a_heading_a_code_block_or_a_table_between_ends_a_sentences_reach(tmp_path: Path):
    st = _statements(
        tmp_path,
        'Before `a`.\n\n## H { #h }\n\n<!-- check: contains file="verl/x.py" match="a" -->\n\n'
        'Code `b`.\n\n```text {check="skip" reason="r"}\nx\n```\n\n<!-- run: t.py::u -->\n',
    )
    assert all(not s.markers for s in st)


def test_rows_of_undeclared_tables_are_statements_and_declared_params_rows_and_headers_are_not(tmp_path: Path):
    st = _statements(
        tmp_path,
        '| Port | Who |\n|---|---|\n| `16666` | HIXL<sup class="unchecked" title="guide">※</sup> |\n\n'
        '<!-- check: params scope="trainer" -->\n| Key | Default |\n|---|---|\n| `save_freq` | `-1` |\n',
    )
    assert [(s.kind, s.text, s.line) for s in st] == [("row", "`16666` | HIXL", 3)]
    assert st[0].markers[0].name == "guide"  # (the next table's declaration follows it too: coverage ignores it)


def test_a_sentence_ending_in_a_colon_introduces_the_code_block_right_below_it(tmp_path: Path):
    st = _statements(
        tmp_path,
        'The same as overrides:\n\n```bash {check="shell"}\necho a\n```\n\nNot this one:\n\nText.\n\n'
        '```bash {check="shell"}\necho b\n```\n',
    )
    assert st[0].introduces is not None and st[0].introduces.code == "echo a\n"
    assert st[1].introduces is None and st[2].introduces is None


def test_admonition_bodies_and_list_items_are_read_with_their_page_lines(tmp_path: Path):
    st = _statements(
        tmp_path,
        '!!! info "Checked against"\n    This page was checked against verl 0.9.1.\n'
        '    <!-- check: verl-version version="0.9.1" -->\n\n- item one；\n  item two。\n\n> Quoted `x`.\n',
    )
    assert [(s.text, s.line, s.col) for s in st] == [
        ("This page was checked against verl 0.9.1.", 2, 5),
        ("item one；", 5, 3),
        ("item two。", 6, 3),
        ("Quoted `x`.", 8, 3),
    ]
    assert [m.name for m in st[0].markers] == ["verl-version"]


def test_headings_code_mkdocstrings_blocks_and_markers_shown_in_code_spans_are_no_statements(tmp_path: Path):
    st = _statements(
        tmp_path,
        "# Title `x` { #t }\n\n::: verl.checkpoint_engine.base.CheckpointEngine\n    options:\n      a: 1\n\n"
        '```text {check="skip" reason="r"}\nThe default is 1.\n```\n\n'
        "Write `<!-- run: t.py::u -->` beside it.\n",
    )
    assert [(s.text, s.markers) for s in st] == [("Write `<!-- run: t.py::u -->` beside it.", [])]


def test_a_carriage_return_ends_a_line_as_the_parser_counts_lines(tmp_path: Path):
    st = _statements(tmp_path, "# a\n\n| Key | B |\n|---|---|\n| `x` | \r0 |\n\nNext `y`.\r\nLast `z`.")
    assert [(s.text, s.line) for s in st][-2:] == [("Next `y`.", 8), ("Last `z`.", 9)]
