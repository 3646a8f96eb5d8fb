"""The edit primitive behind --fix and --diff: applies exact replacements, refuses stale or overlapping ones."""

from __future__ import annotations

import pytest

from verl_cookbook.edits import Edit, apply_edits, describe_rejected, unified_diff


def test_an_edit_replaces_the_text_at_its_place_and_keeps_the_rest():
    text = "a: 1\nkey=old_name value\nz\n"
    out = apply_edits(text, [Edit(2, 5, "old_name", "new.name", "r/x")])
    assert out.text == "a: 1\nkey=new.name value\nz\n"
    assert [e.rule for e in out.applied] == ["r/x"] and out.rejected == ()


def test_two_edits_on_one_line_both_apply_whatever_their_order():
    text = "python3 -m m a=1 b=2\n"
    out = apply_edits(text, [Edit(1, 18, "b=2", "y.b=2"), Edit(1, 14, "a=1", "x.a=1")])
    assert out.text == "python3 -m m x.a=1 y.b=2\n"


def test_an_edit_whose_text_moved_is_rejected_and_the_file_is_unchanged():
    text = "key=renamed_already\n"
    out = apply_edits(text, [Edit(1, 5, "old_name", "new_name", "r/x")])
    assert out.text == text and out.applied == ()
    [(edit, why)] = out.rejected
    assert "no longer at line 1" in why
    assert describe_rejected("f.sh", out.rejected) == [f"f.sh:1:5: r/x not fixed: {why}"]


def test_overlapping_edits_apply_the_first_and_reject_the_second():
    out = apply_edits("abcdef\n", [Edit(1, 1, "abcd", "X", "r/a"), Edit(1, 3, "cd", "Y", "r/b")])
    assert out.text == "Xef\n"
    assert [e.rule for e, _ in out.rejected] == ["r/b"]


def test_the_same_edit_from_two_findings_applies_once():
    e = Edit(1, 1, "a", "b")
    assert apply_edits("a\n", [e, e]).text == "b\n"


def test_an_edit_past_the_end_is_rejected():
    out = apply_edits("one line\n", [Edit(5, 1, "x", "y")])
    assert out.text == "one line\n" and "past the end" in out.rejected[0][1]


def test_an_edit_may_delete_a_whole_line_with_its_newline():
    out = apply_edits("a \\\n    k=1 \\\n    z=2\n", [Edit(2, 1, "    k=1 \\\n", "")])
    assert out.text == "a \\\n    z=2\n"


def test_an_edit_may_not_span_lines_in_what_it_replaces():
    with pytest.raises(ValueError, match="one line"):
        Edit(1, 1, "a\nb", "c")


def test_the_diff_reads_like_diff_u_and_is_empty_without_change():
    diff = unified_diff("docs/x.md", "a\nb\n", "a\nc\n")
    assert diff.splitlines()[:2] == ["--- a/docs/x.md", "+++ b/docs/x.md"]
    assert "-b" in diff.splitlines() and "+c" in diff.splitlines()
    assert unified_diff("x", "same\n", "same\n") == ""
    assert "No newline at end of file" in unified_diff("x", "a", "b")
