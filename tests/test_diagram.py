"""check="diagram": mermaid fences that render, those that would draw an error instead, and current drawings."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import fence, findings_for, rules

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "code",
    [
        "flowchart LR\n    a --> b",
        "sequenceDiagram\n    trainer->>rollout: weights",
        "%% a comment first\n\nstateDiagram-v2\n    [*] --> idle",
        "---\ntitle: sync\n---\nflowchart TD\n    a --> b",
        "graph LR; a-->b",
    ],
)
def test_a_mermaid_diagram_of_a_known_type_passes(write_page, facts, code):
    page = write_page(fence(code, '{ .mermaid check="diagram" }'))
    assert rules(findings_for(page, facts)) == []


def test_a_misspelled_diagram_type_is_named_with_a_suggestion(write_page, facts):
    page = write_page("# t\n\n" + fence("flowchar LR\n    a --> b", '{ .mermaid check="diagram" }'))
    (f,) = findings_for(page, facts)
    assert f.rule == "diagram/unknown-type" and f.line == 4 and "`flowchart`" in f.message


def test_a_diagram_check_on_a_non_mermaid_fence_fails(write_page, facts):
    page = write_page(fence("flowchart LR\n    a --> b", '{ .text check="diagram" }'))
    assert rules(findings_for(page, facts)) == ["diagram/not-mermaid"]


@pytest.mark.parametrize("code", ["%% only a comment", "flowchart LR", "---\ntitle: x\n---\n"])
def test_a_diagram_that_draws_nothing_fails(write_page, facts, code):
    page = write_page(fence(code, '{ .mermaid check="diagram" }'))
    assert rules(findings_for(page, facts)) == ["diagram/empty"]


def test_a_mermaid_fence_with_nothing_in_it_is_an_empty_block_not_an_empty_diagram(write_page, facts):
    """As the rules page says (review42j-7): diagram/empty is a fence with only comments, front matter or a type."""
    page = write_page('``` { .mermaid check="diagram" }\n```\n')
    assert rules(findings_for(page, facts)) == ["snippet/empty"]


def test_a_diagram_from_an_included_file_points_at_that_file(write_page, facts):
    page = write_page(
        fence('--8<-- "snippets/d.mmd"', '{ .mermaid check="diagram" }'),
        files={"snippets/d.mmd": "%% x\npie\n"},
    )
    (f,) = findings_for(page, facts)
    assert (f.rule, f.line) == ("diagram/empty", 2) and f.path.endswith("snippets/d.mmd")


# ---- diagrams drawn beforehand: docs/diagrams/<hash>.svg -------------------------------------------------------

DRAWN_SITE = {"package.json": '{"dependencies": {"mermaid": "11.17.2"}}', "docs/diagrams/.keep": ""}
LR = "flowchart LR\n    a --> b"


def _draw(tmp_path, source: str) -> None:
    from verl_cookbook.diagrams import drawings, svg_path

    for s in drawings(source):
        svg_path(tmp_path, s).write_text("<svg/>")


def test_a_diagram_with_its_current_svgs_passes(write_page, facts, tmp_path):
    page = write_page(fence(LR, '{ .mermaid check="diagram" }'), files=DRAWN_SITE)
    _draw(tmp_path, LR)
    assert rules(findings_for(page, facts)) == []


def test_an_edited_diagram_whose_svg_was_not_redrawn_fails_naming_the_command(write_page, facts, tmp_path):
    page = write_page(fence(LR + "\n    b --> c", '{ .mermaid check="diagram" }'), files=DRAWN_SITE)
    _draw(tmp_path, LR)
    (f,) = findings_for(page, facts)
    assert f.rule == "diagram/not-drawn" and "scripts/render_diagrams.py" in f.message


def test_a_left_to_right_diagram_needs_its_top_to_bottom_drawing_too(write_page, facts, tmp_path):
    from verl_cookbook.diagrams import svg_path

    page = write_page(fence(LR, '{ .mermaid check="diagram" }'), files=DRAWN_SITE)
    svg_path(tmp_path, LR).write_text("<svg/>")
    assert rules(findings_for(page, facts)) == ["diagram/not-drawn"]


def test_a_site_that_keeps_no_drawings_is_not_asked_for_them(write_page, facts):
    assert rules(findings_for(write_page(fence(LR, '{ .mermaid check="diagram" }')), facts)) == []


def test_narrow_turns_every_left_to_right_direction_top_to_bottom():
    from verl_cookbook.diagrams import narrow

    src = "flowchart LR\n  subgraph s\n    direction RL\n    a --> b\n  end"
    assert narrow(src) == "flowchart TB\n  subgraph s\n    direction TB\n    a --> b\n  end"
    assert narrow("flowchart TD\n  a --> b") is None


def test_every_diagram_of_the_site_has_its_current_svg_and_no_svg_is_left_over():
    """The drawings kept in docs/diagrams/ are the ones the pages' fences need (names are content hashes)."""
    proc = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "render_diagrams.py"), "--check"],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
