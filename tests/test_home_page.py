"""The home page's "where to start" table sends each link to the page its text names: the link text is the target
page's H1 or its title in the navigation, read from the built site (so generated pages count too)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from tests.built_site import built_site
from tests.conftest import REPO

PAGES = {"": REPO / "docs" / "index.md", "en/": REPO / "docs" / "index.en.md"}
_LINK = re.compile(r"\[([^\]]+)\]\(([^)#\s]+\.md)\)")


def table_links(text: str) -> list[tuple[str, str]]:
    """(link text, target) of every link in the table of the "where to start" section."""
    section = text.split("{ #where-to-start }", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    return [m.groups() for row in rows for m in _LINK.finditer(row)]


def _plain(text: str) -> str:
    text = re.sub(r"<[^>]+>", "", html.unescape(text)).replace("¶", "")
    return " ".join(text.replace("`", "").split())


def names_of(site: Path, prefix: str, target: str) -> set[str]:
    """The names a page goes by: its H1 and its title (the navigation's short name when it has one)."""
    page = site / prefix / target.removesuffix(".md").removesuffix("index") / "index.html"
    built = page.read_text(encoding="utf-8")
    h1 = re.search(r"<h1[^>]*>(.*?)</h1>", built, re.S)
    title = re.search(r"<title>(.*?)</title>", built, re.S)
    names = {_plain(h1.group(1))} if h1 else set()
    if title:
        names.add(_plain(title.group(1)).rsplit(" - ", 1)[0])
    return names


def misdirected(site: Path, prefix: str, text: str) -> list[str]:
    out = []
    for label, target in table_links(text):
        names = names_of(site, prefix, target)
        if _plain(label) not in names:
            out.append(f"[{label}]({target}) goes to a page named {sorted(names)}")
    return out


@pytest.mark.parametrize("prefix", sorted(PAGES))
def test_every_link_of_the_where_to_start_table_goes_to_the_page_its_text_names(prefix):
    text = PAGES[prefix].read_text(encoding="utf-8")
    assert len(table_links(text)) >= 15
    assert misdirected(built_site().path, prefix, text) == []


@pytest.mark.parametrize(
    ("prefix", "row"),
    [
        ("", "| 只同步变化的权重、检查点回调、模型合并、断点续训 | [实践指南](recipes/delta-sync.md) |"),
        ("en/", "| sync only changed weights, merge models, resume | [Recipes](recipes/delta-sync.md) |"),
        ("", "| 合并检查点 | [合并检查点](recipes/delta-sync.md) |"),
    ],
)
def test_a_link_whose_text_names_another_page_is_reported(prefix, row):
    text = "## 从哪里开始 { #where-to-start }\n\n| 任务 | 参考页面 |\n|---|---|\n" + row + "\n"
    (problem,) = misdirected(built_site().path, prefix, text)
    assert "(recipes/delta-sync.md) goes to a page named" in problem


CONFIGURATION_PAGES = sorted(
    p
    for folder in ("backends", "ascend", "install")
    for p in (REPO / "docs" / folder).glob("*.md")
    if p.stem.split(".")[0] not in {"known-issues", "version-matrix"}
)


@pytest.mark.parametrize("page", CONFIGURATION_PAGES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_configuration_page_has_a_product_support_section(page):
    """The home page promises it (zhread11a index 1): each configuration page lists its products there."""
    assert "{ #product-support }" in page.read_text(encoding="utf-8")
