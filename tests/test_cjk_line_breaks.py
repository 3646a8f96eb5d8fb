"""A soft line break inside Chinese text renders as nothing; between Latin words it stays a space."""

from __future__ import annotations

import markdown
import pytest

from verl_cookbook.cjk_line_breaks import break_joins, join_breaks, joins


def render(source: str) -> str:
    return markdown.markdown(source, extensions=["verl_cookbook.cjk_line_breaks", "tables", "admonition"])


@pytest.mark.parametrize(
    ("left", "right", "expected"),
    [
        ("后", "如", True),  # ideograph ↔ ideograph
        ("，", "如", True),  # full-width punctuation ↔ ideograph
        ("。", "（", True),
        ("”", "分", True),  # a curly quote next to an ideograph
        ("是", "“", True),
        ("‘", "“", False),  # curly quotes alone are English too
        ("a", "b", False),
        ("中", "a", False),  # CJK ↔ Latin keeps its space
        ("1", "号", False),
    ],
)
def test_which_neighbours_join(left, right, expected):
    assert joins(left, right) is expected


@pytest.mark.parametrize(
    ("left", "right", "expected"),
    [
        ("。", "v", True),  # closing full-width punctuation carries its own spacing
        ("：", "\x00", True),  # ... also before a code span
        ("）", "v", True),
        ("（", "v", False),  # an opening bracket is not closing punctuation
        ("中", "a", False),  # CJK ↔ Latin keeps its space
        ("后", "如", True),
    ],
)
def test_a_break_joins_between_cjk_and_after_closing_punctuation_whatever_follows(left, right, expected):
    assert break_joins(left, right) is expected


def test_breaks_between_chinese_characters_disappear_and_latin_ones_stay():
    assert join_breaks("权重后，\n如何同步") == "权重后，如何同步"
    assert join_breaks("推送给推理端。\n  分离部署") == "推送给推理端。分离部署"
    assert join_breaks("two words\nwrapped") == "two words\nwrapped"
    assert join_breaks("使用\nverl 的引擎") == "使用\nverl 的引擎"
    assert join_breaks("见下文。\nverl 的引擎") == "见下文。verl 的引擎"
    assert join_breaks("没有换行的中文 段落") == "没有换行的中文 段落", "a written space is not a line break"


def test_rendered_paragraph_list_and_admonition_have_no_space_from_a_wrapped_chinese_line():
    paragraph = "训练端更新完权重后，\n如何把新权重同步给推理端。\n\n"
    html = render(paragraph + "- 第一项写得很长，\n  折到下一行\n\n!!! note\n    提示框里\n    也一样\n")
    assert "权重后，如何" in html and "推理端。" in html
    assert "第一项写得很长，折到下一行" in html
    assert "提示框里也一样" in html


def test_break_next_to_inline_markup_joins_but_code_stays_untouched():
    html = render("先看**加粗的\n词**，再看\n[链接](x)。然后\n`code`\n之后")
    assert "<strong>加粗的词</strong>，再看<a" in html
    assert "然后\n<code>code</code>\n之后" in html, "a break next to code stays (CJK↔Latin spacing)"


def test_english_paragraphs_keep_their_line_breaks_as_spaces():
    html = render("The engine syncs\nweights to the rollout.\n\n‘quoted’\n“again”")
    assert "syncs\nweights" in html and "‘quoted’\n“again”" in html


def test_code_blocks_keep_their_newlines():
    html = render("    第一行\n    第二行\n\n段落\n继续")
    assert "第一行\n第二行" in html
    assert "段落继续" in html


def test_a_check_declaration_comment_does_not_keep_the_break_after_it():
    html = render('对照 verl 源码检查过。<!-- check: verl-version version="0.9.1" -->\n检查是静态的。')
    assert "检查过。<!-- check" in html and "-->检查是静态的" in html


def test_a_raw_html_element_before_a_break_keeps_it():
    html = render("引用<span>x</span>\n中文")
    assert "</span>\n中文" in html
