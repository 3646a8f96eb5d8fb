"""Translation parity: the rules in verl_cookbook.parity on small fixtures, on the real docs, and on broken copies."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from verl_cookbook.parity import admonitions, check_docs, compare, headings, structure, twin_path

REPO = Path(__file__).resolve().parent.parent

ZH = """# 标题 { #title }

!!! info "版本"
    对照 verl 0.9.1。<!-- check: verl-version version="0.9.1" -->

## 默认值 { #defaults }

``` { .yaml check="config" title="中文标题" }
--8<-- "snippets/a.yaml"
```

<!-- check: params engine="nccl" device="npu" -->
| 参数 | 默认值 | 说明 |
|---|---|---|
| `group_name` | `"default"` | 通信组名 |
| `rebuild_group` | `false` | 每次重建 |

??? warning "注意"
    说明。

``` { .bash check="skip" reason="中文原因" }
echo hi
```
"""

EN = """# Title { #title }

!!! info "Release"
    Checked against verl 0.9.1. <!-- check: verl-version version="0.9.1" -->

## Defaults { #defaults }

``` { .yaml check="config" title="English title" }
--8<-- "snippets/a.yaml"
```

<!-- check: params engine="nccl" device="npu" -->
| Parameter | Default | Meaning |
|---|---|---|
| `group_name` | `"default"` | the group's name |
| `rebuild_group` | `false` | rebuild every time |

??? warning "Mind"
    Explanation.

``` { .bash check="skip" reason="an English reason" }
echo hi
```
"""


def site(tmp_path: Path, zh: str = ZH, en: str = EN, name: str = "page") -> Path:
    (tmp_path / "snippets").mkdir(exist_ok=True)
    (tmp_path / "snippets" / "a.yaml").write_text("a: 1\n")
    (tmp_path / "snippets" / "b.yaml").write_text("b: 1\n")
    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    (docs / f"{name}.md").write_text(zh)
    (docs / f"{name}.en.md").write_text(en)
    return docs


def rules_for(docs: Path) -> list[str]:
    return [f.rule for f in check_docs(docs, docs.parent)]


def test_twin_path_pairs_suffix_structure():
    assert twin_path(Path("docs/a/b.md")) == Path("docs/a/b.en.md")
    assert twin_path(Path("docs/a/b.en.md")) == Path("docs/a/b.md")


def test_translated_prose_titles_and_reasons_are_parity(tmp_path):
    assert check_docs(site(tmp_path), tmp_path) == []


def test_headings_read_level_and_explicit_anchor_and_skip_code():
    text = "# A { #a }\n\n```md\n# not a heading\n```\n\n### B {: #b .x }\n\nSetext { #s }\n---\n\n## none\n"
    assert [(h.level, h.anchor) for h in headings(text)] == [(1, "a"), (3, "b"), (2, "s"), (2, None)]


def test_admonitions_nested_and_not_in_code():
    text = "!!! note\n    x\n\n    ??? tip\n        y\n\n````md\n!!! danger\n````\n\n???+ Example\n    z\n"
    assert [a.kind for a in admonitions(text)] == ["note", "tip", "example"]


def test_directive_shown_in_a_code_block_declares_nothing(tmp_path):
    docs = site(tmp_path)
    page = docs / "page.md"
    page.write_text(page.read_text() + '\n```` { .markdown check="skip" reason="x" }\n<!-- check: raises -->\n````\n')
    (docs / "page.en.md").write_text(EN + '\n```` { .markdown check="skip" reason="y" }\nno directive\n````\n')
    assert [c.kind for c in structure(page, tmp_path).claims] == ["verl-version", "params"]
    assert rules_for(docs) == []


@pytest.mark.parametrize(
    ("rule", "old", "new"),
    [
        ("parity/headings", "## Defaults { #defaults }", "### Defaults { #defaults }"),
        ("parity/headings", "## Defaults { #defaults }", "## Defaults { #default-values }"),
        ("parity/headings", "## Defaults { #defaults }", "## Defaults { #defaults }\n\n## Extra { #extra }"),
        ("parity/heading-anchor", "## Defaults { #defaults }", "## Defaults"),
        ("parity/blocks", '{ .yaml check="config" title="English title" }', '{ .yml check="config" }'),
        ("parity/blocks", '{ .yaml check="config" title="English title" }', '{ .yaml check="defaults" }'),
        ("parity/blocks", '{ .yaml check="config" title="English title" }', '{ .yaml check="config" device="npu" }'),
        ("parity/blocks", '--8<-- "snippets/a.yaml"', '--8<-- "snippets/b.yaml"'),
        ("parity/blocks", "echo hi\n```\n", 'echo hi\n```\n\n``` { .bash check="skip" reason="r" }\nls\n```\n'),
        ("parity/tables", "| `rebuild_group` | `false` | rebuild every time |\n", ""),
        ("parity/tables", "`rebuild_group` | `false`", "`rebuild` | `false`"),
        ("parity/admonitions", '??? warning "Mind"', '??? danger "Mind"'),
        ("parity/admonitions", '!!! info "Release"', '!!! note "Release"'),
        ("parity/claims", 'version="0.9.1" -->', 'version="0.9.0" -->'),
        ("parity/claims", 'engine="nccl" device="npu"', 'engine="nccl" device="gpu"'),
    ],
)
def test_each_rule_fails_on_a_broken_fixture(tmp_path, rule, old, new):
    assert old in EN
    docs = site(tmp_path, en=EN.replace(old, new, 1))
    found = check_docs(docs, tmp_path)
    assert rule in [f.rule for f in found], found
    f = next(f for f in found if f.rule == rule)
    if rule != "parity/heading-anchor":
        assert f.path == "docs/page.md" and "docs/page.en.md" in f.message, f


def test_swapped_order_of_blocks_is_reported_with_both_lines(tmp_path):
    zh = ZH + '\n``` { .json check="json" }\n{}\n```\n'
    en = EN.replace("``` { .bash", '``` { .json check="json" }\n{}\n```\n\n``` { .bash')
    f = next(f for f in check_docs(site(tmp_path, zh=zh, en=en), tmp_path) if f.rule == "parity/blocks")
    assert "#2" in f.message or "#3" in f.message
    assert "docs/page.en.md:" in f.message


@pytest.mark.parametrize("missing", ["page.md", "page.en.md"])
def test_a_page_without_its_twin_is_reported(tmp_path, missing):
    docs = site(tmp_path)
    (docs / missing).unlink()
    found = check_docs(docs, tmp_path)
    assert [f.rule for f in found] == ["parity/missing-twin"]
    assert twin_path(Path(missing)).name in found[0].path and missing in found[0].message


def test_compare_is_symmetric_in_what_it_finds(tmp_path):
    docs = site(tmp_path, en=EN.replace("## Defaults { #defaults }", "## Defaults { #other }"))
    zh, en = structure(docs / "page.md", tmp_path), structure(docs / "page.en.md", tmp_path)
    assert [f.rule for f in compare(zh, en)] == [f.rule for f in compare(en, zh)] == ["parity/headings"]


# ---- the real site --------------------------------------------------------------------------------------------


def test_every_page_of_the_site_has_a_structurally_identical_twin():
    found = check_docs(REPO / "docs", REPO)
    assert not found, "\n".join(f"{f.path}:{f.line}: {f.rule} {f.message}" for f in found)


@pytest.fixture
def site_copy(tmp_path: Path) -> Path:
    """A temporary copy of the real docs and snippets that a test may break."""
    shutil.copytree(REPO / "docs", tmp_path / "docs")
    shutil.copytree(REPO / "snippets", tmp_path / "snippets")
    return tmp_path / "docs"


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize(
    ("rule", "page", "old", "new"),
    [
        ("parity/headings", "contributing.en.md", "## Diagrams { #diagrams }", "### Diagrams { #diagrams }"),
        ("parity/headings", "contributing.en.md", "{ #diagrams }", "{ #mermaid }"),
        ("parity/heading-anchor", "contributing.md", "## 图表 { #diagrams }", "## 图表"),
        (
            "parity/blocks",
            "contributing.en.md",
            '{ .bash check="skip" reason="checker',
            '{ .sh check="skip" reason="checker',
        ),
        ("parity/blocks", "contributing.en.md", '{ .mermaid check="diagram" }', '{ .mermaid check="skip" reason="x" }'),
        ("parity/admonitions", "contributing.en.md", '!!! info "Note"', '!!! note "Note"'),
        ("parity/claims", "index.en.md", 'version="0.9.1"', 'version="0.9.0"'),
    ],
)
def test_breaking_a_real_page_pair_fails_parity(site_copy, rule, page, old, new):
    _edit(site_copy / page, old, new)
    found = check_docs(site_copy, site_copy.parent)
    hit = [f for f in found if f.rule == rule]
    assert hit, found
    stem = page.replace(".en.md", ".md")
    assert hit[0].path == f"docs/{stem}"
    if rule != "parity/heading-anchor":
        assert f"docs/{stem.replace('.md', '.en.md')}" in hit[0].message


def test_a_real_include_swapped_in_one_language_fails_parity(site_copy):
    zh_pages = [
        p
        for p in sorted(site_copy.rglob("*.md"))
        if not p.name.endswith(".en.md") and twin_path(p).is_file() and '--8<-- "snippets/' in p.read_text()
    ]
    assert zh_pages, "no page pair of the site includes a snippet"
    page = zh_pages[0]
    text = page.read_text()
    start = text.index('--8<-- "snippets/') + len('--8<-- "')
    target = text[start : text.index('"', start)]
    _edit(page, f'--8<-- "{target}"', '--8<-- "snippets/does/not/exist.yaml"')
    assert "parity/blocks" in rules_for(site_copy)


def test_a_real_param_table_row_dropped_in_english_fails_parity(site_copy):
    for en in sorted(p for p in site_copy.rglob("*.en.md") if twin_path(p).is_file()):
        s = structure(en, site_copy.parent)
        if any(len(t.keys) > 1 for t in s.tables):
            table = next(t for t in s.tables if len(t.keys) > 1)
            lines = en.read_text().splitlines(keepends=True)
            row = next(i for i in range(table.line, len(lines)) if f"`{table.keys[-1]}`" in lines[i])
            del lines[row]
            en.write_text("".join(lines))
            assert "parity/tables" in rules_for(site_copy)
            return
    pytest.fail("no page pair of the site has a parameter table with two rows or more")


# -- 中文 variants of a snippet (x.zh.sh beside x.sh) ---------------------------------------------------------
SH = "# Install the wheel first\npip install mc-npu  # the NPU build\npython3 -c 'import mc'\n"
VARIANT_ZH = ZH + '\n``` { .bash check="shell" }\n--8<-- "snippets/s.zh.sh"\n```\n'
VARIANT_EN = EN + '\n``` { .bash check="shell" }\n--8<-- "snippets/s.sh"\n```\n'


def _variant_site(tmp_path: Path, zh_snippet: str) -> Path:
    docs = site(tmp_path, zh=VARIANT_ZH, en=VARIANT_EN)
    (tmp_path / "snippets" / "s.sh").write_text(SH)
    (tmp_path / "snippets" / "s.zh.sh").write_text(zh_snippet)
    return docs


def test_a_chinese_variant_with_translated_comments_pairs_with_its_snippet(tmp_path):
    zh = "# 先安装 wheel\npip install mc-npu    # NPU 版\n\npython3 -c 'import mc'\n"
    assert rules_for(_variant_site(tmp_path, zh)) == []


@pytest.mark.parametrize(
    ("zh", "said"),
    [
        ("# 先安装 wheel\npip install mc-cuda  # NPU 版\npython3 -c 'import mc'\n", "runs `pip install mc-cuda` where"),
        ("# 先安装 wheel\npip install mc-npu  # NPU 版\n", "runs `(nothing)` where `snippets/s.sh` runs `python3"),
    ],
)
def test_a_chinese_variant_that_runs_other_code_is_reported(tmp_path, zh, said):
    found = check_docs(_variant_site(tmp_path, zh), tmp_path)
    assert [f.rule for f in found] == ["parity/snippet-variant"] and said in found[0].message, found
    assert found[0].path == "docs/page.md"


def test_a_chinese_variant_of_a_snippet_that_does_not_exist_is_reported(tmp_path):
    docs = _variant_site(tmp_path, SH)
    (tmp_path / "snippets" / "s.sh").unlink()
    found = [f for f in check_docs(docs, tmp_path) if f.rule == "parity/snippet-variant"]
    assert len(found) == 1 and "`snippets/s.sh`, which does not exist" in found[0].message


def test_a_yaml_variant_whose_trailing_comments_follow_one_space_pairs_with_its_snippet(tmp_path):
    docs = site(tmp_path, zh=VARIANT_ZH.replace("s.zh.sh", "y.zh.yaml"), en=VARIANT_EN.replace("s.sh", "y.yaml"))
    (tmp_path / "snippets" / "y.yaml").write_text("rollout:\n  nnodes: 1 # the default 0 is rejected\n")
    (tmp_path / "snippets" / "y.zh.yaml").write_text("rollout:\n  nnodes: 1 # 默认值 0 会被拒绝\n")
    assert rules_for(docs) == []


def test_a_hash_inside_quotes_is_code_so_a_variant_that_changes_it_is_reported(tmp_path):
    docs = _variant_site(tmp_path, SH.replace("import mc'", "import mc  # x'"))
    (tmp_path / "snippets" / "s.sh").write_text(SH.replace("import mc'", "import mc  # y'"))
    found = check_docs(docs, tmp_path)
    assert [f.rule for f in found] == ["parity/snippet-variant"] and "# x'" in found[0].message, found


def test_a_run_marker_or_a_mark_in_one_language_only_is_reported(tmp_path):
    mark = '<sup class="unchecked" title="from a user report">※</sup>'
    run = "<!-- run: test_x.py::test_y -->"
    tail = f"\nA report.{mark}\n{run}\n"
    for name in ("same", "mark", "run"):
        (tmp_path / name).mkdir()
    assert rules_for(site(tmp_path / "same", zh=ZH + tail, en=EN + tail)) == []
    assert "parity/marks" in rules_for(site(tmp_path / "mark", zh=ZH + tail, en=EN + f"\nA report.\n{run}\n"))
    other = tail.replace("test_y", "test_z")
    assert "parity/marks" in rules_for(site(tmp_path / "run", zh=ZH + tail, en=EN + other))


# -- parity runs from `check` ------------------------------------------------------------------------------------
def _bilingual_site(tmp_path: Path) -> Path:
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n", encoding="utf-8")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# 甲 { #a }\n\n正文。\n", encoding="utf-8")
    (docs / "a.en.md").write_text("# A { #a }\n\nText.\n", encoding="utf-8")
    (docs / "b.md").write_text("# 乙 { #b }\n\n正文。\n", encoding="utf-8")
    return docs


def test_check_select_parity_reports_a_page_without_its_english_twin(tmp_path, capsys, monkeypatch) -> None:
    from verl_cookbook.cli import main

    docs = _bilingual_site(tmp_path)
    monkeypatch.chdir(tmp_path)
    code = main(["check", "--select", "parity", "--format", "json", str(docs)])
    found = json.loads(capsys.readouterr().out)
    assert code == 1 and [(f["path"], f["rule"]) for f in found] == [("docs/b.md", "parity/missing-twin")]
    assert "docs/b.en.md" in found[0]["message"]
    assert main(["check", "--ignore", "parity", str(docs)]) == 0  # the rules page advertises it


def test_a_cached_page_is_judged_again_once_its_twin_appears(tmp_path, capsys, monkeypatch) -> None:
    from verl_cookbook.cli import main

    docs = _bilingual_site(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--select", "parity", str(docs)]) == 1
    (docs / "b.en.md").write_text("# B { #b }\n\nText.\n", encoding="utf-8")
    assert main(["check", "--select", "parity", str(docs)]) == 0
    (docs / "b.en.md").write_text("# B { #b }\n\n## More { #more }\n", encoding="utf-8")
    assert main(["check", "--select", "parity", str(docs)]) == 1
    assert "parity/headings" in capsys.readouterr().out


def test_a_site_in_one_language_is_not_judged_for_parity(tmp_path, capsys, monkeypatch) -> None:
    from verl_cookbook.cli import main

    docs = _bilingual_site(tmp_path)
    (docs / "a.en.md").unlink()
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--select", "parity", str(docs)]) == 0


def test_a_markdown_file_outside_docs_has_no_twin_to_be_held_to(tmp_path, capsys, monkeypatch) -> None:
    from verl_cookbook.cli import main

    _bilingual_site(tmp_path)
    (tmp_path / "NOTES.md").write_text("# 笔记 { #notes }\n\n正文。\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--select", "parity", "NOTES.md"]) == 0
    assert main(["check", "--select", "parity", "docs/b.md"]) == 1  # the same site's page still is
