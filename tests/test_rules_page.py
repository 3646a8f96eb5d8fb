"""The committed rules page is what the rule declarations render (scripts/gen_rules_page.py writes it), and its
中文 version gives every rule's catches and why in 中文 (verl_cookbook/rules/zh.py), one entry per declared code."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import pytest

from verl_cookbook.rules import declarations
from verl_cookbook.rules.render import _shown, anchor, render, texts
from verl_cookbook.rules.zh import ZH

DOCS = Path(__file__).resolve().parent.parent / "docs" / "tools"


@pytest.mark.parametrize(("lang", "name"), [("zh", "rules.md"), ("en", "rules.en.md")])
def test_the_committed_rules_page_is_current(lang: str, name: str):
    assert (DOCS / name).read_text(encoding="utf-8") == render(lang), "run: python scripts/gen_rules_page.py"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_rule_has_its_own_section_with_its_anchor(lang: str):
    page = render(lang)
    for r in declarations():
        assert f"{{ #{anchor(r)} }}" in page, r.code


# The Chinese page's catches and why come from rules/zh.py, one entry per declared code.
_CJK = re.compile(r"[\u4e00-\u9fff]")
_SPAN = re.compile(r"(`+)(.+?)\1")


def missing_chinese(declared: list[str], zh: Mapping[str, tuple[str, str]]) -> list[str]:
    """Declared codes without 中文 in ``zh``."""
    return sorted(set(declared) - set(zh))


def stale_chinese(declared: list[str], zh: Mapping[str, tuple[str, str]]) -> list[str]:
    """Entries of ``zh`` for codes no rule declares (renamed or removed)."""
    return sorted(set(zh) - set(declared))


CODES = [r.code for r in declarations()]


def test_every_declared_rule_has_chinese_catches_and_why():
    assert not missing_chinese(CODES, ZH), "add them to verl_cookbook/rules/zh.py"


def test_rules_zh_names_no_code_that_is_not_declared():
    assert not stale_chinese(CODES, ZH), "remove or rename them in verl_cookbook/rules/zh.py"


def test_the_coverage_checks_name_a_missing_and_a_stale_entry():
    gone = CODES[0]
    edited = {code: text for code, text in ZH.items() if code != gone}
    edited["config/no-such-rule"] = ("检查内容。", "原因。")
    assert missing_chinese(CODES, edited) == [gone]
    assert stale_chinese(CODES, edited) == ["config/no-such-rule"]


def test_each_chinese_text_is_chinese_and_keeps_the_english_code_spans():
    for r in declarations():
        for english, chinese in zip((r.catches, r.why), ZH[r.code], strict=True):
            assert _CJK.search(chinese), (r.code, chinese)
            kept = {m.group(0) for m in _SPAN.finditer(chinese)}
            assert {m.group(0) for m in _SPAN.finditer(english)} <= kept, r.code


def test_the_chinese_page_shows_the_chinese_texts_and_the_english_page_the_english_ones():
    zh, en = render("zh"), render("en")
    for r in declarations():
        catches, why = ZH[r.code]
        assert f"- 检查内容：{catches}\n- 原因：{why}\n" in zh, r.code
        assert f"- What it catches: {r.catches}\n- Why: {r.why}\n" in en, r.code


def test_a_rule_without_chinese_keeps_its_english_on_the_chinese_page(monkeypatch: pytest.MonkeyPatch):
    rule = declarations()[0]
    monkeypatch.delitem(ZH, rule.code)
    assert texts(rule, "zh") == (rule.catches, rule.why)


def test_each_page_shows_every_rules_message_and_fix_in_its_own_language():
    zh, en = render("zh"), render("en")
    for r in declarations():
        m = r.declared.message
        for case in m.cases:
            assert _shown(m.zh[case]) in zh and _shown(m.en[case]) in en, (r.code, case)
        if r.fix:
            assert r.fix_text({}, "zh") in zh and r.fix_text({}, "en") in en, r.code
