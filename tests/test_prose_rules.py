"""scripts/prose_terms.py and scripts/prose_layout.py: the terms, notations and layout of Ascend's docs. Each rule fires
on bad input and stays silent on text written the way the pages write it (code, quotations, links, model names)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.built_site import REPO

sys.path.insert(0, str(REPO / "scripts"))
import prose_layout  # noqa: E402
import prose_terms  # noqa: E402

ZH = Path("docs/x.md")
EN = Path("docs/x.en.md")


def said(findings) -> list[tuple[int, str]]:
    """(line, what the finding quotes) of each finding."""
    return [(f.line, f.message.split(":")[0]) for f in findings]


# ---- 开启/关闭白名单校验 -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "verb"),
    [
        ("部署前先打开白名单校验。", "打开"),
        ("如果不开白名单，HCCL 接受任何地址。", "不开"),
        ("开白名单后只接受文件中的地址。", "开"),
        ("建议在测试环境中禁用白名单校验。", "禁用"),
        ("设置 `HCCL_WHITELIST_DISABLE=0` 启用校验。", "启用"),
    ],
)
def test_whitelist_switch_fires_on_each_other_verb_and_not_on_hccl_words(line, verb):
    (finding,) = prose_terms.whitelist_switch_findings(ZH, line + "\n")
    assert finding.rule == "prose/whitelist-switch"
    assert finding.message.startswith(verb + ":")
    for good in (
        "设置 `HCCL_WHITELIST_DISABLE=0` 开启白名单校验，设为 1 时关闭白名单校验。",
        "用编辑器打开白名单文件，写入各节点的主机网卡地址。",  # opening a file is not switching the check
        "白名单校验开启后，只有白名单中的地址可以建链。",
        "关于“打开白名单”这一说法，见术语表。",  # a quoted word is mentioned, not used
    ):
        assert prose_terms.whitelist_switch_findings(ZH, good + "\n") == [], good


# ---- product names -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "written"),
    [
        ("Mooncake 文档写明 A2 服务器内默认使用 HCCS 链路通信。", "A2"),
        ("该变量适用于 Atlas A2、A3。", "Atlas A2"),
        ("`910B`（A2）上默认开启。", "A2"),
        ("A3 超节点内的流量使用 HCCS 链路通信。", "A3"),
        ("在 950 上不支持该变量。", "950"),
        ("Ascend 950PR/950DT 有单独的指南。", "Ascend 950PR/950DT"),
        ("Ascend 950PR / 950DT 不支持这个变量。", "Ascend 950PR / 950DT"),
    ],
)
def test_product_names_fire_on_short_forms_and_not_on_model_names_or_quotes(line, written):
    found = prose_terms.product_name_findings(ZH, line + "\n")
    assert found and found[0].rule == "prose/product-name"
    assert len(found) == line.count("A2") + line.count("A3") + (1 if "950" in line else 0)
    assert found[0].message.split(": ")[0] == written
    good = (
        "Atlas A2 训练系列产品和 Atlas A3 训练系列产品均支持，Ascend 950PR/Ascend 950DT 另见下文。\n"
        "在 Ascend 950PR 节点上报错，Ascend 950DT 同理。\n"
        "verl 的指南列出 Atlas 200T A2 Box16、Atlas 900 A2 PODc 和 Atlas 800T A3，A200T A3 Box8 除外。\n"
        "指南标题为“Ascend 950 系列产品安装指南”，见 [Ascend 950 安装指南](https://example.org/950)。\n"
        "命令为 `verl-cookbook doctor --product A3`，Atlas 950 SuperPoD 是整套系统。\n"
        "- 修改方法：export HCCL_INTRA_ROCE_ENABLE=1 (not on Ascend 950PR/950DT, where HCCL does not support it)\n"
    )  # the last line: an English message quoted on a 中文 page names products its own way
    assert prose_terms.product_name_findings(ZH, good) == []
    assert prose_terms.product_name_findings(EN, "On the A3 and the 950, set it.\n") == []  # English: not judged


# ---- first use of a term -------------------------------------------------------------------------------------

FORMS = [("检查点引擎", "checkpoint engine"), ("训练端", "trainer"), ("主机到设备", "H2D")]


def test_first_use_fires_when_a_page_first_writes_the_term_without_its_english():
    page = "# 检查点引擎的后端\n\n检查点引擎把训练端（trainer）的权重同步到推理端。\n\nH2D 传输经 HCCS 进行。\n"
    found = prose_terms.first_use_findings(ZH, page, FORMS)
    assert [(f.line, f.message.split(" on ")[0]) for f in found] == [
        (3, "first use of 检查点引擎"),
        (5, "first use of H2D"),  # the abbreviation alone, before the term: a first use too
    ]
    good = (
        "# 检查点引擎的后端\n\n"  # a heading names the subject; the body introduces the term
        "检查点引擎（checkpoint engine）把训练端（trainer）的权重同步到推理端，检查点引擎随后等待。\n\n"
        "主机到设备（H2D）传输之后，H2D 带宽决定耗时；`检查点引擎` 在代码里不算，[检查点引擎](x.md) 是链接标题。\n"
    )
    assert prose_terms.first_use_findings(ZH, good, FORMS) == []
    assert prose_terms.first_use_findings(EN, "The checkpoint engine syncs.\n", FORMS) == []


# ---- ranges, dates, references, doubled words ---------------------------------------------------------------


def test_ranges_fire_on_hyphens_and_brackets_and_not_on_dates_citations_or_names():
    bad = "端口范围为 60000-60031。\n重传次数取值为 [1, 7]。\n耗时 11.4–14.9 s。\nPython 3.9–3.13 均可。\n"
    assert [f.message for f in prose_terms.range_findings(ZH, bad)] == [
        "60000-60031 → 60000~60031",
        "[1, 7] → 1~7",
        "11.4–14.9 → 11.4~14.9",
        "3.9–3.13 → 3.9~3.13",
    ]
    good = (
        "端口范围为 60000~60031，2026-06-10 上传，2026-06 起可用。\n"
        "见 `verl/checkpoint_engine/base.py:136-150` 和 a.py:12-20，[L120-L200](https://x/a.py#L120-L200)。\n"
        "模型为 Qwen3-8B 与 Qwen3-235B-A22B，x86-64 平台，“60000-60031”是引用的写法。\n"
    )
    assert prose_terms.range_findings(ZH, good) == []
    assert [f.line for f in prose_terms.range_findings(EN, "Ports 60000–60031 and 5~20.\n")] == [1]


def test_dates_fire_on_written_out_forms_and_not_on_iso_dates():
    bad = "首个 wheel 于 2026 年 6 月 10 日上传。\n自 2026 年 5 月起提供。\n"
    assert said(prose_terms.date_findings(ZH, bad)) == [(1, "2026 年 6 月 10 日"), (2, "2026 年 5 月")]
    assert said(prose_terms.date_findings(EN, "Uploaded on June 10, 2026, built since May 2026.\n")) == [
        (1, "June 10, 2026"),
        (1, "May 2026"),
    ]
    good = "首个 wheel 于 2026-06-10 上传，自 2026-05 起提供，共 2026 个文件，`2026 年 6 月` 是代码。\n"
    assert prose_terms.date_findings(ZH, good) == []
    assert prose_terms.date_findings(EN, "You may use it; 2026-06-10 is the upload date.\n") == []


def test_references_say_pr_for_a_pull_request_and_match_the_address():
    pull = "https://github.com/verl-project/verl/pull/7227"
    issue = "https://github.com/kvcache-ai/Mooncake/issues/3749"
    bad = (
        f"见 [verl #7227]({pull})。\n"  # a pull request without PR
        f"见 [Mooncake issue #3749]({issue})。\n"  # an issue written another way
        f"见 [verl PR #7228]({pull})。\n"  # another number than the address
        "该问题由 PR #7488 修复，另见 #5183。\n"  # not linked
    )
    found = prose_terms.reference_findings(ZH, bad)
    assert [f.line for f in found] == [1, 2, 3, 4, 4]
    assert "its text says verl PR #7227" in found[0].message
    assert "its text says Mooncake #3749" in found[1].message
    good = (
        f"见 [verl PR #7227]({pull}) 和 [Mooncake #3749]({issue})，[verl #7060 的 2026-07-20 评论]"
        "(https://github.com/verl-project/verl/issues/7060)。\n"
        '`#7488` 是代码，<sup class="unchecked" title="PR #7488">※</sup>，链接文字写作“verl PR #1234”。\n'
        "## 变更 { #changes-7488 }\n"
    )
    assert prose_terms.reference_findings(ZH, good) == []


def test_a_word_written_twice_fires():
    assert said(prose_terms.doubled_word_findings(ZH, "HCCL 环境变量取自 CANN CANN 文档的的说明。\n")) == [
        (1, "“CANN CANN”"),
        (1, "“的的”"),
    ]
    assert said(prose_terms.doubled_word_findings(EN, "It runs on on Ascend.\n")) == [(1, "“on on”")]
    good = "HCCL 的 `nccl nccl` 是代码，“CANN CANN”是引用；rank 0 到 rank 0 不算，常常、看看也不算。\n"
    assert prose_terms.doubled_word_findings(ZH, good) == []


# ---- layout ---------------------------------------------------------------------------------------------------


def test_admonition_titles_come_from_the_fixed_set_and_match_the_twin():
    zh = '!!! note "以下结论"\n    上面的结论只适用于 A2。\n\n!!! info\n    正文。\n\n!!! warning "注意"\n    正文。\n'
    found = prose_layout.admonition_title_findings(ZH, zh)
    assert [f.line for f in found] == [1, 4]
    assert "“以下结论”" in found[0].message and "no title" in found[1].message
    good_zh = '!!! info "版本说明"\n    本页对照 verl 0.9.1 核对。\n\n'
    good_zh += '!!! warning "注意"\n    正文。\n\n!!! note ""\n    无标题栏。\n'
    good_en = '!!! info "Version notes"\n    Checked.\n\n!!! warning "Caution"\n    Text.\n\n!!! note ""\n    Bare.\n'
    assert prose_layout.admonition_title_findings(ZH, good_zh, good_en) == []
    assert prose_layout.admonition_title_findings(EN, good_en) == []
    crossed = good_en.replace('"Caution"', '"Important"')
    (finding,) = prose_layout.admonition_title_findings(ZH, good_zh, crossed)
    assert finding.line == 4 and "“Caution”" in finding.message


def test_question_headings_fire_and_statement_headings_do_not():
    bad_zh = "## 为什么同步失败 { #why }\n\n## 需要合并吗？\n\n### `HCCL_INTRA_ROCE_ENABLE` 什么时候需要\n"
    assert [f.line for f in prose_layout.question_heading_findings(ZH, bad_zh)] == [1, 3, 5]
    assert [f.line for f in prose_layout.question_heading_findings(EN, "## Why does it fail?\n")] == [1]
    good = "## 判断是否需要合并 { #do-you-need-it }\n\n## 同步失败的原因\n\n问题是：为什么？\n"
    assert prose_layout.question_heading_findings(ZH, good) == []


def test_bold_fires_outside_warnings_and_not_inside_them():
    bad = "检查工具**静态读取** verl。\n\n- Ascend 950PR/Ascend 950DT **不支持**这个变量。\n"
    assert [f.line for f in prose_layout.bold_findings(ZH, bad)] == [1, 3]
    good = '!!! warning "注意"\n    **不要**在生产环境关闭白名单校验。\n\n配置项 `**kwargs` 是代码。\n'
    assert prose_layout.bold_findings(ZH, good) == []
    assert [f.line for f in prose_layout.bold_findings(EN, "It reads verl **statically**.\n")] == [1]


def test_link_texts_that_name_no_place_fire():
    bad = "见[文档](https://x)、[下文](#example)和[这里](a.md)，其他产品见[表格](#product-support)。\n"
    assert len(prose_layout.link_text_findings(ZH, bad)) == 4
    assert len(prose_layout.link_text_findings(EN, "See [here](a.md) and the [table](#t).\n")) == 2
    good = "见[产品支持情况](#product-support)、[HCCL 白名单](../ascend/hccl-whitelist.md)和[验证](#verify)。\n"
    assert prose_layout.link_text_findings(ZH, good) == []


def test_link_text_lines_must_be_the_lines_the_address_goes_to():
    url = "https://github.com/hicann/hcomm/blob/abc/src/whitelist.cc"
    bad = f"见 [whitelist.cc#L120-L200]({url}#L97-L156)，[`a.py:12`]({url})。\n"
    found = prose_layout.link_line_findings(ZH, bad)
    assert [f.message for f in found] == [
        "link text names lines 120-200, its address goes to #L97-L156",
        "link text names lines 12, its address goes to the whole file",
    ]
    good = f"见 [whitelist.cc#L97-L156]({url}#L97-L156)、[`a.py:12`]({url}#L12) 和 [whitelist.cc]({url}#L12)。\n"
    assert prose_layout.link_line_findings(ZH, good) == []


def test_paragraphs_over_300_characters_fire():
    long = "检查点引擎把权重从训练端同步到推理端。" * 17  # 17 × 19 = 323 characters
    page = f"{long}\n\n- {long[:150]}\n  {long[150:]}\n\n{long[:290]}<!-- {'注释不算' * 20} -->\n"
    found = prose_layout.paragraph_length_findings(ZH, page)
    assert [(f.line, f.message.split(" (")[0]) for f in found] == [
        (1, "a paragraph of 323 characters"),
        (3, "a paragraph of 323 characters"),  # a list item with its continuation line
    ]
    assert prose_layout.paragraph_length_findings(EN, long + "\n") == []


def test_a_list_paragraph_indented_under_four_spaces_fires_and_four_or_a_lazy_line_does_not():
    bad = "1. 第一项\n\n   续段只缩进三个空格。\n2. 第二项\n\n- 项目\n\n  续段缩进两个空格。\n"
    found = prose_layout.list_indent_findings(ZH, bad)
    assert [(f.line, f.col) for f in found] == [(3, 4), (8, 3)]
    good = (
        "1. 第一项\n\n    续段缩进四个空格。\n2. 第二项\n   紧接的续行不需要缩进四个空格。\n\n列表之后的段落。\n\n"
        "- 项目\n\n    ```bash\n    echo ok\n    ```\n\n```text\n1. 代码块中的编号\n\n   不是列表\n```\n"
    )
    assert prose_layout.list_indent_findings(ZH, good) == []


EN_PARTS = (
    "Symptom: Cause: What to do: To confirm:, each once, in that order"
    " (Cause: may be left out when the cause is unknown)"
)


def test_an_faq_entry_needs_the_four_parts_of_the_template_in_order():
    zh_good = (
        "### 报错 A { #a }\n\n问题现象：报错。\n\n原因分析：原因。\n\n处理方法：\n\n1. 步骤。\n\n结果验证：不再报错。\n"
    )
    assert prose_layout.faq_parts_findings(ZH, zh_good) == []
    # a section without an entry (a procedure that says 处理方法 in passing) is not an FAQ entry
    assert prose_layout.faq_parts_findings(ZH, "## 配置步骤\n\n处理方法：见下文。\n") == []
    no_cause = zh_good.replace("原因分析：原因。\n\n", "")  # an unknown cause is left out, not written empty
    assert prose_layout.faq_parts_findings(ZH, no_cause) == []
    missing = zh_good.replace("结果验证：不再报错。\n", "")
    found = prose_layout.faq_parts_findings(ZH, missing)
    assert [(f.line, f.rule) for f in found] == [(1, "prose/faq-parts")]
    assert "结果验证：" in found[0].message
    en_good = (
        "### Error A\n\nSymptom: it fails.\n\nCause: why.\n\nWhat to do:\n\n1. A step.\n\nTo confirm: it passes.\n"
    )
    assert prose_layout.faq_parts_findings(EN, en_good) == []
    other = en_good.replace("To confirm:", "Check:")
    assert [(f.line, f.message.split(" opens")[0]) for f in prose_layout.faq_parts_findings(EN, other)] == [
        (11, "Check:"),
        (
            1,
            "the FAQ entry under this heading has Symptom: Cause: What to do:: the template is " + EN_PARTS,
        ),
    ]
    swapped = (
        zh_good.replace("原因分析：原因。", "TMP")
        .replace("处理方法：", "原因分析：原因。")
        .replace("TMP", "处理方法：")
    )
    assert len(prose_layout.faq_parts_findings(ZH, swapped)) == 1  # out of order
    # labels inside code are not parts of the entry
    fenced = en_good.replace("To confirm: it passes.\n", "```text\nTo confirm: printed by a tool\n```\n")
    assert len(prose_layout.faq_parts_findings(EN, fenced)) == 1
