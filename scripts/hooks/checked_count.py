"""mkdocs hook: at each page's end, the page's claim coverage, generated from the figures of
``verl-cookbook coverage`` (``verl_cookbook.checks.coverage``).

One concern: judge the page's statements with the checker's own reader and render its figures as one line at the
page's end — how many factual statements it has, how many a check, a run or a verified citation holds (a kind with none
is left out), how many are marked ※ (shown on every page, 0 included) and, only when there are any, how many are not
bound yet. It is written for a reader, not as tool output (a senior Ascend editor read the old line as a log).
The line says nothing the figures do not: a page the tool writes says so and how many statements it holds, without
judging them.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page


def page_figures(markdown: str, path: Path, root: Path):  # -> tuple[Figures, str | None]
    """The page's coverage figures, and the test that holds a generated page (None for a page written by hand)."""
    from verl_cookbook.checks.coverage import GENERATED, assess
    from verl_cookbook.markdown import parse_page

    page = parse_page(path, Path.cwd(), bases=[root], text=markdown)  # named as a check run names it
    found = GENERATED.search(markdown)
    return assess(page, root).figures, (found.group(1) if found else None)


# the ways a statement is held, in the order the line names them (a kind with none is left out; ※ is always named)
HELD = (
    ("check", "are held by a check", "由检查核对"),
    ("run", "by running the code", "经运行代码验证"),
    ("cited", "by a verified citation of verl's source", "有已核对的 verl 源码出处"),
)


def count_line(f, generated: str | None, english: bool) -> str:
    """The line for figures ``f`` (a :class:`~verl_cookbook.checks.coverage.Figures`) in the page's language."""
    if generated is not None:
        test = f"tests/{generated.split('::')[0]}"  # the test that holds the page to its generator: in the tooltip
        if english:
            text = (
                f'<span title="{test} holds it to what the tool generates">This page is written by the tool</span>: '
                f"{f.generated} statements, not reviewed one by one; {f.mark} are marked ※."
            )
        else:
            text = (
                f'<span title="{test} 核对本页与生成结果一致">本页由工具自动生成</span>，'
                f"共 {f.generated} 条陈述，未逐条人工核对；标 ※ 的 {f.mark} 条。"
            )
        return f'<p class="checked-count">{text}</p>'
    parts = [(n, en, zh) for n, en, zh in HELD if getattr(f, n)]
    if english:
        held = [f"{getattr(f, n)} {en}" for n, en, _ in parts]
        text = f"Of the {f.factual} factual statements on this page, " + "".join(f"{h}, " for h in held)
        text += f"and {f.mark} are marked ※ (from a report or a reading, not checked)."
        if f.unbound:
            text += f" {f.unbound} are not bound to anything yet."
    else:
        held = [f"{getattr(f, n)} 条{zh}" for n, _, zh in parts]
        text = f"本页共有事实陈述 {f.factual} 条，其中 " + "".join(f"{h}，" for h in held)
        text += f"{f.mark} 条标 ※（依据报告或阅读，未经检查）。"
        if f.unbound:
            text += f"另有 {f.unbound} 条尚未核对。"
    return f'<p class="checked-count">{text}</p>'


def with_count(markdown: str, line: str) -> str:
    """The page with ``line`` at its end, above the lists of ※ bases and sources the site adds: under the title a
    senior Ascend editor read it as a review artefact that CANN's docs do not carry (zhread10a/b)."""
    return f"{markdown.rstrip()}\n\n{line}\n"


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    root = Path(config.config_file_path).parent
    src = page.file.abs_src_path
    path = Path(src) if src else root / config.docs_dir / page.file.src_uri
    figures, generated = page_figures(markdown, path, root)
    english = page.file.src_uri.endswith(".en.md")
    return with_count(markdown, count_line(figures, generated, english))
