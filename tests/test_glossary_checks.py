"""The glossary's own checks: its term and avoid tables (``check: terms``) and its list of backends (``check:
backends``), each firing on a bad table or list and silent on one written the way docs/glossary.md writes them."""

from __future__ import annotations

from pathlib import Path

from verl_cookbook.facts import Facts
from verl_cookbook.runner import check_paths

TERMS = """# 术语表 {{ #glossary }}

<!-- check: terms -->
| 中文 | English | 说明 |
|---|---|---|
| 检查点引擎（checkpoint engine） | checkpoint engine | |
{term_row}

<!-- check: terms list="avoid" -->
| 不用 | 改用 | 例外 | 说明 |
|---|---|---|---|
| 建组 | 创建通信域 | | HCCL 文档的说法 |
{avoid_row}
"""


def _findings(tmp_path: Path, facts: Facts, text: str) -> list[tuple[str, int, str]]:
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n", encoding="utf-8")
    page = tmp_path / "docs" / "glossary.md"
    page.parent.mkdir(exist_ok=True)
    page.write_text(text, encoding="utf-8")
    report = check_paths([page], facts, tmp_path)
    return [(f.rule, f.line, f.message) for f in report.findings]


def test_a_glossary_written_like_the_sites_draws_nothing(tmp_path, facts):
    text = TERMS.format(term_row="| 通信域 | communicator | |", avoid_row="| 通信组 | 通信域 | | |")
    assert _findings(tmp_path, facts, text) == []


def test_a_term_row_without_its_english_form_is_a_shape_finding(tmp_path, facts):
    text = TERMS.format(term_row="| 通信域 |  | |", avoid_row="")
    assert [(r, ln) for r, ln, _ in _findings(tmp_path, facts, text)] == [("table/terms-shape", 7)]


def test_a_list_kind_the_glossary_does_not_have_is_a_shape_finding(tmp_path, facts):
    text = TERMS.format(term_row="", avoid_row="").replace('list="avoid"', 'list="banned"')
    ((rule, _, message),) = _findings(tmp_path, facts, text)
    assert rule == "table/terms-shape" and '`list="banned"`' in message


def test_a_term_written_with_a_word_the_glossary_avoids_is_reported_with_the_list_line(tmp_path, facts):
    text = TERMS.format(term_row="| 建组超时 | group setup timeout | |", avoid_row="")
    ((rule, line, message),) = _findings(tmp_path, facts, text)
    assert (rule, line) == ("table/terms-avoided-form", 7)
    assert "“建组”" in message and "line 12" in message


def _backends_page(tmp_path: Path, names: str) -> str:
    return f'# 后端 {{ #backends }}\n\n后端名见下。<!-- check: backends names="{names}" -->\n'


def test_the_backend_list_verl_registers_draws_nothing(tmp_path, facts):
    registered = sorted({r["backend"] for r in facts.registrations})
    assert _findings(tmp_path, facts, _backends_page(tmp_path, ",".join(registered))) == []


def test_a_backend_list_missing_one_and_naming_another_says_both(tmp_path, facts):
    registered = sorted({r["backend"] for r in facts.registrations})
    listed = [*registered[1:], "hccl"]
    ((rule, _, message),) = _findings(tmp_path, facts, _backends_page(tmp_path, ",".join(listed)))
    assert rule == "claim/backends-differ"
    assert f"registered but not listed: `{registered[0]}`" in message and "listed but not registered: `hccl`" in message
