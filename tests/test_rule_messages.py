"""A rule owns its message: a finding is made by the rule from data (``RULE.at(path, line, col, **data)``), the text
is rendered from the rule's English or 中文 template, and a finding that lacks a field its template reads, or carries
data the rule does not declare, is refused where it is made. Both languages of a case read the same fields,
checked when the rule is declared."""

from __future__ import annotations

import pytest

from verl_cookbook.rules import Finding, Rule, declarations, replay
from verl_cookbook.rules.pages import SUPPRESSION_UNUSED
from verl_cookbook.rules.template import Message, TemplateError, fields_of


def test_a_finding_is_rendered_from_its_rules_template_in_both_languages() -> None:
    f = SUPPRESSION_UNUSED.at("a.md", 3, 5, code="config/unknown-key")
    assert isinstance(f, Finding) and f.rule is SUPPRESSION_UNUSED and (f.path, f.line, f.col) == ("a.md", 3, 5)
    assert f.message == f.text("en") and "`config/unknown-key`" in f.message and "silences nothing" in f.message
    assert "未生效" in f.text("zh") and "`config/unknown-key`" in f.text("zh")
    assert f.data == {"code": "config/unknown-key"}


def test_a_finding_missing_a_field_its_template_reads_is_refused() -> None:
    with pytest.raises(TypeError, match="missing data code"):
        SUPPRESSION_UNUSED.at("a.md", 1, 1)


def test_a_finding_carrying_undeclared_data_is_refused() -> None:
    with pytest.raises(TypeError, match="undeclared data cdoe"):
        SUPPRESSION_UNUSED.at("a.md", 1, 1, code="x", cdoe="x")


def test_a_case_the_rule_does_not_declare_is_refused() -> None:
    with pytest.raises(TypeError, match="no case 'suggested'"):
        SUPPRESSION_UNUSED.at("a.md", 1, 1, code="x", case="suggested")


def test_the_two_languages_of_a_case_must_read_the_same_fields() -> None:
    with pytest.raises(TemplateError, match="fields"):
        Message.declare("x/y", "unknown key `{key}`", "配置项 `{name}` 不存在")
    with pytest.raises(TemplateError, match="cases"):
        Message.declare("x/y", {"": "a", "suggested": "b {s}"}, {"": "甲"})


@pytest.mark.parametrize("template", ["{0}", "{}", "{key.attr}", "{key[0]}", "{key!x}", "{key"])
def test_a_template_field_that_render_cannot_fill_is_refused(template: str) -> None:
    with pytest.raises(TemplateError):
        fields_of(template)


def test_lists_render_in_the_messages_own_language() -> None:
    m = Message.declare("x/y", "known: {names!c}; {more!l}", "已知：{names!c}；{more!l}")
    data = {"names": ["nccl", "hccl"], "more": ("a", "b")}
    assert m.render(data, "en") == "known: `nccl`, `hccl`; a, b"
    assert m.render(data, "zh") == "已知：`nccl`、`hccl`；a、b"


def test_a_case_picks_its_own_template() -> None:
    m = Message.declare(
        "x/y",
        {"": "no `{key}`", "suggested": "no `{key}`; did you mean `{s}`?"},
        {"": "无 `{key}`", "suggested": "无 `{key}`，是否应为 `{s}`？"},
    )
    assert m.render({"key": "a"}) == "no `a`"
    assert m.render({"key": "a", "s": "b", "case": "suggested"}, "zh") == "无 `a`，是否应为 `b`？"


def test_a_finding_comes_back_from_its_json_form_the_same() -> None:
    f = SUPPRESSION_UNUSED.at("a.md", 3, 5, fact="x", fact_source="verl/a.py:1", code="config/unknown-key")
    again = replay(f.as_dict())
    assert again == f and again.data == f.data and again.fact_source == f.fact_source


def test_every_declared_message_renders_with_placeholder_data_in_both_languages() -> None:
    for r in declarations():
        if r.message is None:
            continue
        for case in r.message.cases:
            data = {name: f"<{name}>" for name in r.message.fields(case)} | {"case": case}
            for lang in ("en", "zh"):
                assert r.render(data, lang).strip(), (r.code, case, lang)
        assert isinstance(r, Rule)
