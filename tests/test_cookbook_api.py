"""The Python API page (docs/reference/cookbook-api.md): its example runs as shown on a small site, a check
registered with the page's decorators gets what the page says, and `parity.check_docs` finds the real docs clean."""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import pytest

from tests.conftest import REPO
from verl_cookbook import checks, runner
from verl_cookbook.parity import check_docs

PAGE = """# A page

``` { .yaml check="config" }
actor_rollout_ref:
  rollout:
    checkpoint_engine:
      backend: naive
```
"""


def _run_in(folder: Path, code: str, name: str) -> str:
    """What the page's example prints when run from ``folder``, as a reader runs it there."""
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, name, "exec"), {"__name__": "__main__"})
    finally:
        os.chdir(cwd)
    return out.getvalue()


@pytest.mark.parametrize("snippet", ["cookbook_api.py", "cookbook_api.zh.py"])
def test_the_example_on_the_api_page_checks_a_site_and_reports_what_it_read(snippet: str, tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n", encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(PAGE, encoding="utf-8")
    code = (REPO / "snippets" / "reference" / snippet).read_text(encoding="utf-8")
    assert _run_in(tmp_path, code, snippet) == "1 pages, 1 code blocks, 0 findings\n"
    (tmp_path / "docs" / "index.md").write_text(PAGE.replace("backend: naive", "backend: hccl"), encoding="utf-8")
    first, last = _run_in(tmp_path, code, snippet).splitlines()
    assert first.startswith("docs/index.md 7 engine/unknown-backend ") and last == "1 pages, 1 code blocks, 1 findings"


def test_a_block_check_registered_with_the_decorator_gets_the_block_and_the_context(tmp_path: Path, facts) -> None:
    seen: list[tuple[str, object]] = []

    @checks.block_check("api-page-demo")
    def demo(block, ctx):
        seen.append((block.code, ctx))
        return []

    try:
        (tmp_path / "mkdocs.yml").write_text("site_name: t\n", encoding="utf-8")
        page = tmp_path / "index.md"
        page.write_text('# P\n\n``` { .text check="api-page-demo" }\nhello\n```\n', encoding="utf-8")
        report = runner.check_paths([page], facts, root=tmp_path, options={"no_cache": True})
    finally:
        checks.BLOCK_CHECKS.pop("api-page-demo", None)
        checks.KIND_ATTRS.pop("api-page-demo", None)
    assert report.findings == []
    ((code, ctx),) = seen
    assert code.strip() == "hello" and isinstance(ctx, checks.Context) and ctx.facts is facts


def test_check_docs_on_the_sites_docs_finds_nothing() -> None:
    assert check_docs(REPO / "docs", REPO) == []


def test_check_docs_takes_the_folder_as_a_string_as_users_write_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The page says to call `check_docs` on the docs folder: ``check_docs("docs")`` from the site root works (a
    review found it raised AttributeError on a str)."""
    monkeypatch.chdir(REPO)
    assert check_docs("docs") == []


def test_resolve_without_a_release_reads_the_pinned_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's 功能描述: with no release given, `verl_source.resolve()` reads the pinned verl 0.9.1."""
    from verl_cookbook import verl_source

    asked: list[str | None] = []
    monkeypatch.setattr(verl_source, "from_release", lambda version=None: asked.append(version))
    verl_source.resolve()
    assert asked == [None]
    assert verl_source.default_release() == "0.9.1"
