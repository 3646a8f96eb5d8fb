"""scripts/prose_lint.py: AutoCorrect, “” quotes, spaces between Chinese characters and the glossary's lists (avoided
terms, register, the two glossaries alike, every term used) on the page sources; each rule fires on bad input and stays
silent on text written the way the pages write it. The other rules: tests/test_prose_rules.py."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.built_site import REPO

sys.path.insert(0, str(REPO / "scripts"))
import prose_lint  # noqa: E402

ZH = Path("docs/x.md")
EN = Path("docs/x.en.md")
GLOSSARIES = prose_lint.load_glossaries()
AVOIDED = {lang: g.avoided for lang, g in GLOSSARIES.items()}


def rules(path: Path, text: str) -> list[str]:
    return [f.rule for f in prose_lint.lint(path, text, GLOSSARIES)]


# ---- the glossary is the term list ---------------------------------------------------------------------------


def test_the_glossary_lists_the_terms_and_phrases_the_site_must_not_use():
    zh = {w: row for row in AVOIDED["zh"] for w in row.words}
    en = {w for row in AVOIDED["en"] for w in row.words}
    assert {"通信组", "显存", "建组", "多机建组超时", "走 HCCS", "走 RoCE"} <= {
        w for w, r in zh.items() if not r.register
    }
    chat = {
        "拉起",
        "对不上",
        "单子",
        "连进来",
        "最省事",
        "读下来",
        "就抛",
        "走不到",
        "放不进一张卡",
        "别漏掉",
        "故意写错",
    }
    assert chat | {"我们", "你", "大致是下面这样", "并上传 PyPI"} <= {w for w, r in zh.items() if r.register}
    assert {"comm group", "VRAM", "from step 0"} <= en
    assert zh["显存"].unless == "GPU"


def test_avoided_terms_are_found_outside_code_links_and_quotes():
    text = "训练端先建组，推理端拿到权重。\n\n`建组` 在代码里不算，[链接](https://x/通信组) 和“建组”这一说法也不算。\n"
    found = prose_lint.term_findings(ZH, text, AVOIDED["zh"])
    assert [(f.line, f.rule, f.message.split(" → ")[0]) for f in found] == [
        (1, "prose/avoided-term", "建组"),
        (1, "prose/register", "拿到"),
    ]


def test_the_longer_of_two_overlapping_avoided_terms_is_reported_once():
    found = prose_lint.term_findings(ZH, "多机训练时出现多机建组超时。\n", AVOIDED["zh"])
    assert [f.message for f in found] == ["多机建组超时 → 建链超时"]


@pytest.mark.parametrize(
    "line",
    [
        "我们没有在昇腾上安装过这些组合。",
        "你需要先安装 CANN。",
        "用 ray 拉起训练。",
        "两边的版本对不上。",
        "并上传 PyPI。",
        "请把白名单文件复制到每个节点。",
        "HCCL 引擎没有这个参数。",
    ],
)
def test_register_fires_on_first_person_and_chat_phrasing(line):
    assert rules(ZH, line + "\n") == ["prose/register"]


def test_register_is_silent_on_the_manual_forms_and_the_listed_exception():
    assert rules(ZH, "请将白名单文件复制到每个节点。HCCL 引擎没有该参数。把握同步时机。\n") == []


def test_device_memory_term_allows_gpu_memory_in_a_sentence_about_gpus():
    assert rules(ZH, "昇腾上这一步占用显存。\n") == ["prose/avoided-term"]
    assert rules(ZH, "在 GPU 上这一步占用显存。昇腾上占用设备内存。\n") == []


def test_english_terms_are_matched_as_words_any_case():
    assert rules(EN, "The engine builds a Comm Group per sync.\n") == ["prose/avoided-term"]
    assert rules(EN, "The engine builds a communicator per sync; VRAMS is not a word here.\n") == []


def test_the_glossarys_own_lists_are_not_findings():
    for lang, glossary in prose_lint.GLOSSARY.items():
        text = glossary.read_text(encoding="utf-8")
        assert prose_lint.term_findings(glossary, text, AVOIDED[lang]) == []


def test_the_glossaries_must_list_the_same_terms_with_the_same_forms(tmp_path):
    assert prose_lint.glossary_twin_findings(GLOSSARIES) == []
    en = prose_lint.GLOSSARY["en"].read_text(encoding="utf-8").replace("| broadcast | 广播 |", "| broadcast | 播送 |")
    changed = dict(GLOSSARIES, en=prose_lint.read_glossary_text(tmp_path / "glossary.en.md", en))
    found = prose_lint.glossary_twin_findings(changed)
    assert sorted(f.message.split(":")[0] for f in found) == ["广播 | broadcast", "播送 | broadcast"]


def test_a_glossary_term_no_page_uses_is_reported():
    texts = {REPO / "docs" / "a.md": "训练端（trainer）经广播把权重同步到推理端（rollout）。\n"}
    found = prose_lint.glossary_unused_findings(GLOSSARIES, texts)
    unused = {f.message.split("”")[0].lstrip("“") for f in found}
    assert "广播" not in unused and "训练端" not in unused
    assert {"稀疏增量同步", "源码编译"} <= unused
    texts[REPO / "docs" / "b.md"] = "自 verl 0.9.0 起提供稀疏增量同步，也可源码编译。\n"
    unused = {f.message.split("”")[0].lstrip("“") for f in prose_lint.glossary_unused_findings(GLOSSARIES, texts)}
    assert not {"稀疏增量同步", "源码编译", "自 verl X 起"} & unused  # X stands for any release


# ---- ASCII quotes ---------------------------------------------------------------------------------------------


def test_ascii_quotes_in_chinese_text_are_findings_and_fixed_to_curly_quotes():
    text = '它只负责"把权重从训练端传到推理端"。注释写着 "Defaults to False"。\n'
    assert rules(ZH, text).count("prose/ascii-quotes") == 2
    assert prose_lint.fix_ascii_quotes(text) == "它只负责“把权重从训练端传到推理端”。注释写着 “Defaults to False”。\n"


@pytest.mark.parametrize(
    "line",
    [
        '!!! note "提示"',  # admonition title
        '=== "中文标签"',  # tab title
        '``` { .yaml check="skip" reason="控制台输出" }',  # a fence (its body is code too)
        '见 `key: "值"` 和 <a title="标题">链接</a>。',  # code span, HTML attribute
        '写法是 <!-- check: contains match="中文" -->。',  # check declaration
        "写法见[贡献指南](contributing.md)，引号用“”。",
    ],
)
def test_quotes_that_are_syntax_are_not_findings(line):
    assert prose_lint.ascii_quote_findings(ZH, line + "\n```\n\n```\n") == []


def test_english_pages_keep_ascii_quotes():
    assert rules(EN, 'The comment says "Defaults to False".\n') == []


# ---- spaces between Chinese characters and AutoCorrect -----------------------------------------------------


def test_a_space_between_chinese_characters_is_a_finding_across_a_comment_or_a_link():
    assert "prose/cjk-space" in rules(ZH, "本页已核对。 文中的路径\n")  # AutoCorrect flags this one too
    assert rules(ZH, '已核对。<!-- check: verl-version version="0.9.1" --> 文中的路径\n') == ["prose/cjk-space"]
    assert rules(ZH, "方案在 [verl #7787（RFC）](https://x) 中讨论。\n") == ["prose/cjk-space"]
    assert prose_lint.fix_cjk_spaces("本页已核对。 文中的路径\n") == "本页已核对。文中的路径\n"


def test_spaces_next_to_latin_words_and_code_are_not_cjk_space_findings():
    assert rules(ZH, "在 `mkdocs.yml` 的 nav 里写一行，verl 0.9.1 起可用。\n") == []


def test_fix_keeps_the_space_after_closing_emphasis_it_would_break():
    text = "**只能在同一行内比较。** 设计文档说明\n"
    assert "prose/cjk-space" in rules(ZH, text)
    assert prose_lint.fix_cjk_spaces(text) == text


def test_autocorrect_finds_missing_spaces_and_halfwidth_commas_in_chinese_text():
    found = prose_lint.autocorrect_findings(ZH, "中文English混排,逗号\n")
    assert [f.rule for f in found] == ["prose/autocorrect"]
    assert prose_lint.fix_autocorrect(ZH, "中文English混排,逗号\n") == "中文 English 混排，逗号\n"


def test_autocorrect_reads_admonition_bodies_and_leaves_fences_alone():
    text = '!!! note\n    提示框里中文English\n\n``` { .yaml check="skip" reason="x" }\nkey: 中文English\n```\n'
    fixed = prose_lint.fix_autocorrect(ZH, text)
    assert "    提示框里中文 English\n" in fixed
    assert "key: 中文English\n" in fixed


def test_autocorrect_is_silent_on_text_written_the_way_the_pages_write_it():
    text = "训练端（actor）通过 `nccl` 后端广播权重，桶大小为 2048 MB，见[后端](x.md)。\n"
    assert prose_lint.autocorrect_findings(ZH, text) == []


# ---- the site ---------------------------------------------------------------------------------------------------


def test_every_page_of_the_site_passes_the_prose_lint(capsys):
    code = prose_lint.main([str(REPO / "docs")])
    out = capsys.readouterr().out
    assert code == 0, out


def test_the_command_exits_1_and_names_file_and_line_on_a_bad_page(tmp_path, capsys):
    page = tmp_path / "bad.md"
    page.write_text("# 标题\n\n推理端拿到权重后继续生成。\n", encoding="utf-8")
    assert prose_lint.main([str(page)]) == 1
    assert f"{page}:3:" in capsys.readouterr().out


def test_the_avoid_lists_come_from_the_contributing_pages_and_the_terms_from_the_glossaries():
    """The reader's glossary holds only term tables; the lists of words to avoid are contributor rules on the
    contributing page. The lint still applies those lists, and skips their own lines there (they list, not use)."""
    zh = prose_lint.load_glossaries()["zh"]
    where = {row.line for row in zh.avoided}
    listed = prose_lint.WORD_LISTS["zh"].read_text(encoding="utf-8").splitlines()
    assert where and all("|" in listed[line - 1] for line in where)
    assert any("建组" in row.words for row in zh.avoided)
    assert "check: terms list=" not in (REPO / "docs" / "glossary.md").read_text(encoding="utf-8")
    assert "prose/avoided-term" in rules(REPO / "docs" / "x.md", "多机之间建组。\n")
    page = prose_lint.WORD_LISTS["zh"]
    assert "prose/avoided-term" not in rules(page, page.read_text(encoding="utf-8"))
