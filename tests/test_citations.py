"""Prose citations of verl source (`verl/...py:LINE`) must name a real file and lines inside it."""

from __future__ import annotations

import pytest
from helpers import findings_for, rules

from verl_cookbook.checks.citations import find_citations, source_url
from verl_cookbook.facts import load_facts
from verl_cookbook.verl_source import from_release

PAGE = """# p

See `verl/checkpoint_engine/base.py:67-69` and `verl/checkpoint_engine/base.py`.
Past the end: `verl/checkpoint_engine/base.py:99998-99999`.
No such file: `verl/checkpoint_engine/hccl_engine.py:10`.
A pinned link is left alone: https://github.com/verl-project/verl/blob/abc/verl/gone.py#L3
<!-- check: contains file="verl/checkpoint_engine/base.py" match="class CheckpointEngineRegistry" -->
"""


def test_citations_of_missing_files_and_lines_past_the_end_are_findings(write_page, facts) -> None:
    found = findings_for(write_page(PAGE), facts)
    assert [(f.rule, f.line) for f in found] == [("cite/line-out-of-range", 4), ("cite/missing-file", 5)]
    assert "verl/checkpoint_engine/base.py:" in (found[0].fact_source or "")


def test_valid_citations_pass(write_page, facts) -> None:
    assert rules(findings_for(write_page(PAGE.split("Past")[0]), facts)) == []


def test_citations_are_only_judged_against_the_pinned_release(write_page) -> None:
    older = load_facts(from_release("0.9.0"))
    assert [f for f in findings_for(write_page(PAGE), older) if f.rule.startswith("cite/")] == []


def test_files_named_in_claims_are_left_to_the_claims(write_page, facts) -> None:
    page = write_page('# p\n\n<!-- check: contains file="verl/nope.py" match="x" -->\n')
    assert not [f for f in findings_for(page, facts) if f.rule.startswith("cite/")]


SHORT_FORMS = """# p

The registry raises<!-- check: contains file="verl/checkpoint_engine/base.py" match="not registered" --> (`base.py:94`).
The HCCL engine (`hccl_checkpoint_engine.py:103`, `:116`) and its group (`workers/config/rollout.py:141`).
In 0.9.0 it was asynchronous (0.9.0 `hccl_checkpoint_engine.py:80-81`).
"""


def test_short_paths_bare_names_continued_lines_and_named_releases_pass_as_users_write_them(write_page, facts):
    assert rules(findings_for(write_page(SHORT_FORMS), facts)) == []


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        ("See (`hccl_engine.py:10`).", "cite/missing-file"),  # no such file name
        ("See (`base.py:10`).", "cite/missing-file"),  # six files are called base.py
        ("See (`hccl_checkpoint_engine.py:103`, `:99999`).", "cite/line-out-of-range"),
        ("Old (0.9.0 `hccl_checkpoint_engine.py:99990`).", "cite/line-out-of-range"),
        ("Old (0.5.0 `hccl_checkpoint_engine.py:9`).", "cite/unknown-release"),
        (
            'Raises<!-- check: contains file="verl/checkpoint_engine/base.py" match="not registered" --> '
            "(`verl/checkpoint_engine/base.py:1-3`).",
            "cite/claim-outside-lines",
        ),
    ],
)
def test_each_citation_form_fails_when_its_file_lines_or_claim_do_not_hold(write_page, facts, line, rule):
    found = [f for f in findings_for(write_page(f"# p\n\n{line}\n"), facts) if f.rule.startswith("cite/")]
    assert [(f.rule, f.line) for f in found] == [(rule, 3)], found


def test_a_claim_whose_match_is_in_the_cited_lines_passes(write_page, facts):
    page = write_page(
        '# p\n\nRaises<!-- check: contains file="verl/checkpoint_engine/base.py" match="not registered" -->'
        " (`verl/checkpoint_engine/base.py:94`).\n"
    )
    assert rules(findings_for(page, facts)) == []


def test_citations_link_to_their_lines_at_the_release_tag():
    tree = from_release()
    text = "A (`hccl_checkpoint_engine.py:103`, `116-120`) and (0.9.0 `base.py:7`) in a list (`:9`).\n"
    cites = find_citations(text, tree.package)
    urls = [source_url(c, "0.9.1") for c in cites]
    base = "https://github.com/verl-project/verl/blob/"
    assert urls == [
        base + "v0.9.1/verl/checkpoint_engine/hccl_checkpoint_engine.py#L103",
        base + "v0.9.1/verl/checkpoint_engine/hccl_checkpoint_engine.py#L116-L120",
        base + "v0.9.0/verl/checkpoint_engine/base.py#L7",  # next to the file cited before it
        base + "v0.9.1/verl/checkpoint_engine/hccl_checkpoint_engine.py#L9",  # the paragraph's continued file
    ]


CLAIM_IN_A_LIST = (
    '# p\n\nRaises<!-- check: contains file="verl/checkpoint_engine/base.py" match="not registered" -->'
    " (`verl/checkpoint_engine/base.py:1-3`, `:{second}`).\n"
)


def test_a_claim_may_hold_in_any_range_of_the_list_cited_after_it(write_page, facts):
    assert rules(findings_for(write_page(CLAIM_IN_A_LIST.format(second=94)), facts)) == []
    found = findings_for(write_page(CLAIM_IN_A_LIST.format(second=5)), facts)
    assert [(f.rule, f.line) for f in found] == [("cite/claim-outside-lines", 3)]


TABLE_ROWS = """# p

| engine | lines |
|---|---|
| HCCL | (`hccl_checkpoint_engine.py:103`, `:116`) |
| NCCL | (`nccl_checkpoint_engine.py:39-40`) and later (`:{line}`) |
"""


def test_continued_lines_in_a_table_row_continue_that_rows_file_not_the_row_above(write_page, facts):
    # nccl_checkpoint_engine.py has 515 lines and hccl_checkpoint_engine.py 393 in 0.9.1: line 434 is only in the first
    assert rules(findings_for(write_page(TABLE_ROWS.format(line=434)), facts)) == []
    found = findings_for(write_page(TABLE_ROWS.format(line=9999)), facts)
    assert [(f.rule, f.line, "nccl_checkpoint_engine.py" in f.message) for f in found] == [
        ("cite/line-out-of-range", 6, True)
    ]


def test_a_path_doctor_prints_at_an_older_tag_is_judged_against_that_release(write_page, facts):
    """doctor names the source of an option an older release had as `path at tag vX.Y.Z`: the file is that release's."""

    def cites(page, facts) -> list[str]:
        return [f.rule for f in findings_for(page, facts) if f.rule.startswith("cite/")]

    path = "verl/trainer/config/model_engine/mindspeed.yaml"
    out = f"```text\n    verl: {path} at tag v0.9.0 (github.com/verl-project/verl)\n```\n"
    assert cites(write_page(f"# p\n\n{out}"), facts) == []
    bare = out.replace(" at tag v0.9.0", "")
    assert cites(write_page(f"# p\n\n{bare}"), facts) == ["cite/missing-file"]
    gone = out.replace("mindspeed.yaml", "nosuch.yaml")
    assert cites(write_page(f"# p\n\n{gone}"), facts) == ["cite/missing-file"]
