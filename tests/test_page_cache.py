"""The per-page result cache replays exactly what a fresh check finds, and a change to a page or to a
snippet it includes is checked afresh."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from verl_cookbook.runner import check_paths

BAD = "actor_rollout_ref:\n  rollout:\n    checkpoint_engine:\n      backend: hccl\n"
GOOD = "actor_rollout_ref:\n  rollout:\n    checkpoint_engine:\n      backend: nccl\n"
PAGE = '# p\n\n``` { .yaml check="config" device="npu" }\n--8<-- "snippets/x.yaml"\n```\n'


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("VERL_COOKBOOK_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n")
    (tmp_path / "snippets").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "snippets" / "x.yaml").write_text(BAD)
    (tmp_path / "docs" / "p.md").write_text(PAGE)
    return tmp_path


def _run(site: Path, facts, **options):
    return check_paths([site / "docs"], facts, root=site, options=options)


def test_a_warm_run_replays_the_same_findings_and_counts(site: Path, facts) -> None:
    cold = _run(site, facts)
    assert [f.rule for f in cold.findings] == ["engine/unknown-backend"]
    assert list((site / "cache" / "pages").glob("*.json")), "the cold run stored nothing"
    warm = _run(site, facts)
    assert warm.findings == cold.findings
    assert (warm.pages, warm.blocks, warm.checked, warm.includes) == (
        cold.pages,
        cold.blocks,
        cold.checked,
        cold.includes,
    )


def test_two_pages_with_the_same_bytes_each_replay_their_own_findings(site: Path, facts) -> None:
    """A page copied to another path (a translation not yet translated, a page kept under an old URL) has the same
    bytes: replayed, each page's findings point at it, not at the copy stored last."""
    inline = '# p\n\n``` { .yaml check="config" device="npu" }\n' + BAD + "```\n"
    (site / "docs" / "p.md").write_text(inline)
    (site / "docs" / "copy.md").write_text(inline)
    cold = _run(site, facts)
    assert sorted(f.path for f in cold.findings) == ["docs/copy.md", "docs/p.md"]
    assert _run(site, facts).findings == cold.findings


def test_changing_an_included_snippet_is_checked_afresh(site: Path, facts) -> None:
    assert _run(site, facts).findings
    (site / "snippets" / "x.yaml").write_text(GOOD)
    assert _run(site, facts).findings == []


def test_changing_the_page_is_checked_afresh(site: Path, facts) -> None:
    assert _run(site, facts).findings
    (site / "docs" / "p.md").write_text(PAGE.replace('device="npu" ', 'device="npu" bogus="1" '))
    assert "snippet/unknown-attr" in [f.rule for f in _run(site, facts).findings]


def test_no_cache_option_stores_nothing(site: Path, facts) -> None:
    _run(site, facts, use_cache=False)
    assert not (site / "cache" / "pages").exists()


def _fake_shellcheck(folder: Path, text: str) -> None:
    folder.mkdir(exist_ok=True)
    (folder / "shellcheck").write_text(f"#!/bin/sh\n# {text}\nexit 0\n")
    (folder / "shellcheck").chmod(0o755)


def test_another_shellcheck_is_not_served_results_cached_under_the_first(
    site: Path, facts, monkeypatch: pytest.MonkeyPatch
) -> None:
    tools = site / "tools"
    _fake_shellcheck(tools, "ShellCheck 0.9.0")
    monkeypatch.setenv("PATH", f"{tools}:{os.environ['PATH']}")
    _run(site, facts)
    stored = set((site / "cache" / "pages").glob("*.json"))
    _run(site, facts)
    assert set((site / "cache" / "pages").glob("*.json")) == stored  # the same ShellCheck: replayed
    _fake_shellcheck(tools, "ShellCheck 0.10.0, upgraded in place")  # same path, another program
    _run(site, facts)
    assert set((site / "cache" / "pages").glob("*.json")) > stored  # checked afresh, stored under a new key


def test_a_removed_svg_or_a_mermaid_bump_is_checked_afresh(site: Path, facts) -> None:
    """A page's diagram result depends on files that are not the page: the SVGs it needs and the mermaid pin that
    names them. A warm run must not replay "no finding" once one is gone or the pin moved (review42j-3)."""
    from verl_cookbook.diagrams import drawings, svg_path

    source = "flowchart LR\n    a --> b\n"
    (site / "package.json").write_text('{"dependencies": {"mermaid": "11.17.2"}}')
    (site / "docs" / "diagrams").mkdir()
    (site / "docs" / "p.md").write_text('# p\n\n``` { .mermaid check="diagram" }\n' + source + "```\n")
    svgs = [svg_path(site, s) for s in drawings(source)]
    for svg in svgs:
        svg.write_text("<svg/>")
    assert _run(site, facts).findings == []
    assert _run(site, facts).findings == [], "the warm run of the drawn diagram found something"
    svgs[0].unlink()
    assert [f.rule for f in _run(site, facts).findings] == ["diagram/not-drawn"]
    svgs[0].write_text("<svg/>")
    assert _run(site, facts).findings == []
    (site / "package.json").write_text('{"dependencies": {"mermaid": "11.99.0"}}')
    assert [f.rule for f in _run(site, facts).findings] == ["diagram/not-drawn"]
