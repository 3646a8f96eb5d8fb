"""The block parser's line marks (``markdown.line_marks``, set up by ``_LinesAtOnce``) are the ones markdown-it's own
``StateBlock`` computes character by character, on any text: the same state, so the same tokens."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from verl_cookbook.markdown import _LinesAtOnce, block_parser

REPO = Path(__file__).resolve().parent.parent


def _reference() -> MarkdownIt:
    md = MarkdownIt("commonmark").enable("table")
    md.core.ruler.disable("inline")
    return md


def _state(cls: type[StateBlock], text: str) -> dict:
    state = cls(text, _reference(), {}, [])
    return {k: v for k, v in vars(state).items() if k != "md"}


@pytest.mark.parametrize(
    "text",
    ["", " ", "\t", "a", "a\n", "a\n  ", "  a", "\t\ta\n \tb", " \t \tx\n\n\n", "\n", "x\n\t", "a\n\n  \n b \n"],
)
def test_edge_cases_give_markdown_its_own_state(text: str) -> None:
    """A last line of only spaces and tabs without a newline has no entry in markdown-it: not here either."""
    assert _state(_LinesAtOnce, text) == _state(StateBlock, text)


@given(st.text(alphabet=" \t\na-|`>#*1.\r\u3000", max_size=80))
def test_any_text_gives_markdown_its_own_state(text: str) -> None:
    assert _state(_LinesAtOnce, text) == _state(StateBlock, text)


def test_the_pages_of_the_site_parse_to_the_same_tokens() -> None:
    for page in sorted((REPO / "docs").rglob("*.md"))[:12]:
        text = page.read_text(encoding="utf-8")
        assert [t.as_dict() for t in block_parser().parse(text)] == [t.as_dict() for t in _reference().parse(text)]
