"""The site's Markdown extension: verl citations as links to their lines at the release tag, one notice a page."""

from __future__ import annotations

import html

import markdown
import pytest

from verl_cookbook.site_markdown import link_citations, one_line_notice, page_language
from verl_cookbook.verl_source import from_release

BLOB = "https://github.com/verl-project/verl/blob/"
EXTENSIONS = ["verl_cookbook.site_markdown", "admonition", "pymdownx.details", "pymdownx.superfences"]


def render(text: str) -> str:
    return markdown.markdown(text, extensions=EXTENSIONS)


@pytest.fixture(scope="module")
def package():
    return from_release().package


def test_a_bracketed_citation_becomes_a_numbered_superscript_linked_to_its_lines_at_the_tag():
    out = render("# T\n\nThe registry (`verl/checkpoint_engine/base.py:67-69`) keeps them.")
    assert '<sup class="verl-cites"><a class="verl-cite" href="' + BLOB in out
    assert "v0.9.1/verl/checkpoint_engine/base.py#L67-L69" in out and ">[1]</a></sup> keeps" in out
    assert 'title="verl 0.9.1 · verl/checkpoint_engine/base.py, lines 67-69"' in out
    assert "(" not in out and "<code>" not in out


def test_chinese_brackets_lists_and_continued_lines_share_one_superscript():
    out = render("注册表（`hccl_checkpoint_engine.py:103`、`:116`）。")
    assert out.count("<sup") == 1 and out.count('class="verl-cite"') == 2 and "（" not in out and "）" not in out
    assert "hccl_checkpoint_engine.py#L116" in out and ">[1]</a><a" in out and ">[2]</a></sup>" in out


def test_a_citation_ending_a_clause_after_a_comma_becomes_a_superscript_without_the_comma():
    out = render(
        "# 标题\n\n- prepare()：返回元数据，`verl/checkpoint_engine/base.py:136-150`；\n"
        "- finalize()：释放桶，`verl/checkpoint_engine/base.py:189-197`<!-- run: a.py::b -->。"
    )
    assert "返回元数据<sup" in out and "释放桶<sup" in out and "，<" not in out and "<code>" not in out
    inner = render(
        "首选 nccl（HCCL，`verl/checkpoint_engine/hccl_checkpoint_engine.py:103`）。单个张量大于桶时，分块传输\n"
        "（`verl/checkpoint_engine/hccl_checkpoint_engine.py:261`）。"
    )
    assert "（HCCL<sup" in inner and "</sup>）。" in inner and "分块传输<sup" in inner


def test_the_page_ends_with_its_numbered_sources_once_each_in_its_language():
    cite = "（`verl/checkpoint_engine/base.py:{}`）"
    out = render("# 标题\n\n甲" + cite.format(7) + "，乙" + cite.format(9) + "，丙" + cite.format(7) + "。")
    assert out.count(">[1]</a>") == 2 and out.count(">[2]</a>") == 1
    tail = out[out.index('<h2 id="verl-sources"') :]
    assert ">参考</h2>" in tail and tail.count("<li ") == 2
    assert tail.index("base.py:7</a>") < tail.index("base.py:9</a>") and "verl 0.9.1" in tail
    english = render("# Title\n\nIt is registered (`verl/checkpoint_engine/base.py:7`).")
    assert ">Sources</h2>" in english


def test_a_text_that_cites_nothing_or_has_no_title_gets_no_sources_list():
    assert "verl-sources" not in render("# Title\n\nNothing cited here.")
    assert "verl-sources" not in render("Args: see (`verl/checkpoint_engine/base.py:7`).")


def test_a_citation_in_running_text_is_a_plain_link_and_a_file_without_lines_keeps_its_code_look():
    out = html.unescape(
        render("See `verl/checkpoint_engine/base.py:3-4`; `verl/checkpoint_engine/__init__.py` imports them.")
    )
    assert f'href="{BLOB}v0.9.1/verl/checkpoint_engine/base.py#L3-L4"' in out
    assert ">verl/checkpoint_engine/base.py:3-4</a>;" in out, "no comma before it: the sentence needs the name"
    assert '<a class="verl-src"' in out and "<code>verl/checkpoint_engine/__init__.py</code></a>" in out
    assert "<strong>" not in out, "__init__ must not turn bold"


def test_a_release_named_before_a_citation_links_to_that_releases_tag():
    out = render("In 0.9.0 it was asynchronous (0.9.0 `hccl_checkpoint_engine.py:80-81`).")
    assert "v0.9.0/verl/checkpoint_engine/hccl_checkpoint_engine.py#L80-L81" in out and ">[1]</a>" in out
    assert "verl 0.9.0 · verl/checkpoint_engine/hccl_checkpoint_engine.py" in html.unescape(out)  # the link's title
    assert ">0.9.0 [1]" not in out, "the superscript is the number alone"


def test_the_page_release_comes_from_its_verl_version_claim():
    out = render('<!-- check: verl-version version="0.9.0" -->\n\nSee (`verl/checkpoint_engine/base.py:7`).')
    assert "v0.9.0/verl/checkpoint_engine/base.py#L7" in out


@pytest.mark.parametrize(
    "text",
    [
        "A name verl lacks (`hccl_engine.py:10`).",  # the citation check reports it; the page shows it as written
        "Syntax shown, not cited: `` (`verl/checkpoint_engine/base.py:1`) ``.",
        "A path of this repository: `tests/test_parity.py`.",
        "```python\n# verl/checkpoint_engine/base.py:67 in code\n```",
    ],
)
def test_what_is_not_a_citation_of_verl_is_left_alone(text, package):
    assert link_citations(text, "0.9.1", package) == text


def test_the_box_holding_the_verl_version_claim_stays_open_with_its_other_text_under_the_one_line():
    page = '# T\n\n!!! info "Checked"\n    Long text.\n    <!-- check: verl-version version="0.9.1" -->\n\nBody.'
    out = render(page)
    assert out.count("verl-checked") == 1 and "<details" not in out and "Long text." in out
    assert out.index("Checked against verl 0.9.1 · source links point at tag v0.9.1") < out.index("admonition")


def test_a_sentence_after_the_release_sentence_is_shown_and_the_release_sentence_is_not_repeated():
    """zhread10a: the home page's box lost '各配置页面均列出该页适用的产品' folded under the notice."""
    page = (
        '# T\n\n!!! info "说明"\n    本手册对照 verl 0.9.1 编写。<!-- check: verl-version version="0.9.1" -->'
        "各配置页面均列出该页适用的产品。\n\nBody."
    )
    out = render(page)
    assert "各配置页面均列出该页适用的产品。" in out and "<details" not in out
    assert "本手册对照 verl 0.9.1 编写" not in out and '<p class="verl-checked">本页对照 verl 0.9.1 核对' in out
    claim = '<!-- check: verl-version version="0.9.1" -->'
    english = f'# T\n\n!!! info "Note"\n    Checked against verl 0.9.1. Also read for 0.9.0.{claim}\n'
    out = render(english)
    assert "Also read for 0.9.0." in out and "Checked against verl 0.9.1." not in out


def test_a_box_saying_only_the_release_becomes_the_line_alone_with_no_fold_repeating_it():
    page = '# T\n\n!!! info "说明"\n    本页对照 verl 0.9.1 核对<!-- check: verl-version version="0.9.1" -->。\n\nBody.'
    out = render(page)
    assert out.count("本页对照 verl 0.9.1 核对") == 1 and "<details" not in out and '<p class="verl-checked">' in out
    assert "<p>Body.</p>" in out


def test_a_page_without_the_box_gets_the_line_under_its_title_in_its_language():
    out = render("# 标题\n\n这一页讲检查点引擎的后端和配置。")
    assert out.index("</h1>") < out.index('<p class="verl-checked">本页对照 verl 0.9.1 核对')


def test_text_without_a_title_gets_no_notice():
    """mkdocstrings renders docstrings with the same extensions: they must not get one each."""
    lines = ["Args:", "    x: a value."]
    assert one_line_notice(lines, "0.9.1", "en") == lines


@pytest.mark.parametrize(
    ("text", "lang"),
    [("检查点引擎的后端 backend", "zh"), ("Every page exists in 中文 and in English, checked against verl.", "en")],
)
def test_page_language_is_the_language_most_of_its_letters_are_in(text, lang):
    assert page_language(text) == lang


def test_each_mark_gets_the_number_of_its_basis_and_the_page_ends_with_the_bases_spelled_out():
    """zhread10a: a ※ basis readable only by hovering is lost on touch screens and in print."""
    page = (
        '# T\n\nA.<sup class="unchecked" title="from a user report, not checked">※</sup> '
        'B.<sup class="unchecked" title="read from hcomm\'s source; not run">※</sup> '
        'C.<sup class="unchecked" title="from a user report, not checked">※</sup>\n'
    )
    out = render(page)
    assert out.count('href="#unchecked-1">※1</a>') == 2 and out.count('href="#unchecked-2">※2</a>') == 1
    assert out.index("Notes on ※") > out.index("C.")
    assert 'id="unchecked-1">※1 from a user report, not checked</li>' in out
    assert "※" not in render("# T\n\nNo marks here.\n")


def test_a_sentence_that_only_mentions_the_release_is_not_taken_for_the_release_sentence():
    """zhread11b: cookbook-api's box lost 'reads the pinned verl 0.9.1 when no release is given' to the notice."""
    page = (
        '# T\n\n!!! info "说明"\n    未指定版本时，接口读取锁定的 verl 版本 0.9.1。'
        '<!-- check: verl-version version="0.9.1" -->\n\nBody.'
    )
    assert "未指定版本时，接口读取锁定的 verl 版本 0.9.1。" in render(page)
