"""check="diagram": mermaid fences that render, and those that would show an error box instead."""

from __future__ import annotations

import pytest

from tests.helpers import fence, findings_for, rules


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


def test_a_diagram_from_an_included_file_points_at_that_file(write_page, facts):
    page = write_page(
        fence('--8<-- "snippets/d.mmd"', '{ .mermaid check="diagram" }'),
        files={"snippets/d.mmd": "%% x\npie\n"},
    )
    (f,) = findings_for(page, facts)
    assert (f.rule, f.line) == ("diagram/empty", 2) and f.path.endswith("snippets/d.mmd")
