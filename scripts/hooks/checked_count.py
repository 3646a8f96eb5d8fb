"""mkdocs hook: under each page's title, how many of its statements `verl-cookbook check` judges.

One concern: count what the page declares (code blocks with a ``check=`` other than ``skip``, tables and
claims declared with ``<!-- check: … -->`` other than ``skip``) with the checker's own Markdown reader, and
render the count as one line below the H1. Statements that rest on reports or reading carry the marker
defined in CONTRIBUTING.md (``<sup class="unchecked" …>※</sup>``); the line says how many there are.
"""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

UNCHECKED = re.compile(r'<sup class="unchecked"')
_H1 = re.compile(r"^# .*$", re.M)


def count_checks(markdown: str, path: Path, root: Path) -> tuple[int, int, int]:
    """(code blocks, tables, claims) the page declares a check for; ``skip`` is not a check."""
    from verl_cookbook.markdown import parse_page

    page = parse_page(path, root, text=markdown)
    blocks = sum(1 for b in page.blocks if b.attrs.get("check") not in (None, "skip"))
    tables = sum(1 for t in page.tables if t.directive is not None and t.directive.kind != "skip")
    claims = sum(1 for d in page.directives if d.kind not in ("skip", "params"))
    return blocks, tables, claims


def count_line(blocks: int, tables: int, claims: int, unchecked: int, english: bool) -> str:
    total = blocks + tables + claims
    if english:
        text = (
            f"Checked on this page by <code>verl-cookbook check</code>: {total} statements "
            f"({blocks} code blocks, {tables} tables, {claims} claims)."
        )
        if unchecked:
            text += f" {unchecked} marked ※ rest on reports or reading and are not checked."
    else:
        text = (
            f"本页由 <code>verl-cookbook check</code> 检查的陈述：{total} 条"
            f"（代码块 {blocks}、参数表 {tables}、声明 {claims}）。"
        )
        if unchecked:
            text += f"标 ※ 的 {unchecked} 处依据报告或阅读，未经检查。"
    return f'<p class="checked-count">{text}</p>'


def with_count(markdown: str, line: str) -> str:
    """The page with ``line`` right below its H1 (or on top when it has none)."""
    m = _H1.search(markdown)
    if m is None:
        return f"{line}\n\n{markdown}"
    return f"{markdown[: m.end()]}\n\n{line}\n{markdown[m.end() :]}"


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    root = Path(config.config_file_path).parent
    src = page.file.abs_src_path
    path = Path(src) if src else root / config.docs_dir / page.file.src_uri
    blocks, tables, claims = count_checks(markdown, path, root)
    english = page.file.src_uri.endswith(".en.md")
    return with_count(markdown, count_line(blocks, tables, claims, len(UNCHECKED.findall(markdown)), english))
