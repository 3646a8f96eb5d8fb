"""The release matrix: the site holds on every covered verl release, and every since/until label is true."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import sample_finding

from tests.conftest import REPO
from tests.helpers import fence
from verl_cookbook.facts import Facts, load_facts
from verl_cookbook.findings import Finding
from verl_cookbook.matrix import (
    findings_on_releases,
    parse_pages,
    release_findings,
    suggest_bounds,
    verify_labels,
)
from verl_cookbook.releases import covered_releases, default_release
from verl_cookbook.runner import check_paths
from verl_cookbook.verl_source import from_release

DOCS = REPO / "docs"


@pytest.fixture(scope="session")
def facts_by_release() -> dict[str, Facts]:
    """Facts of every covered release (wheels and facts are cached after the first run)."""
    return {r: load_facts(from_release(r)) for r in covered_releases()}


# -- unit tests on a throwaway site --------------------------------------------------------------------------


def _two(facts_by_release: dict[str, Facts]) -> dict[str, Facts]:
    return {r: facts_by_release[r] for r in ("0.9.0", "0.9.1")}


def _labels(page: Path, facts: dict[str, Facts]):
    root = page.parent.parent
    return verify_labels(parse_pages([page], root), facts, root)


MULTI_SENDER = (
    "actor_rollout_ref:\n  rollout:\n    checkpoint_engine:\n      backend: nccl\n      engine_kwargs:\n        nccl:\n"
)
MULTI_SENDER += "          multi_sender: true\n"


def test_a_true_since_label_fails_on_the_release_before(facts_by_release, write_page):
    # NCCLCheckpointEngine takes multi_sender from 0.9.1 on
    page = write_page(fence(MULTI_SENDER, '{ .yaml check="config" device="gpu" since="0.9.1" }'))
    (label,) = _labels(page, _two(facts_by_release))
    assert (label.bound, label.against, label.verified) == ("since", "0.9.0", True)
    assert label.findings and all("multi_sender" in f.message for f in label.findings)


def test_a_needless_since_label_is_not_verified(facts_by_release, write_page):
    page = write_page(
        fence(
            "backend: nccl\n",
            '{ .yaml check="config" root="actor_rollout_ref.rollout.checkpoint_engine" since="0.9.1" }',
        )
    )
    (label,) = _labels(page, _two(facts_by_release))
    assert label.against == "0.9.0" and not label.verified
    assert "also holds on verl 0.9.0" in label.explain()


def test_a_since_label_with_no_earlier_release_is_not_verified(facts_by_release, write_page):
    page = write_page(fence(MULTI_SENDER, '{ .yaml check="config" device="gpu" since="0.9.0" }'))
    (label,) = _labels(page, _two(facts_by_release))
    assert label.against is None and not label.verified
    assert "no covered release before 0.9.0" in label.explain()


def test_a_true_until_label_fails_from_that_release_on(facts_by_release, write_page):
    # the 0.9.0 NCCL engine has no multi_sender: a page for 0.9.0 only can say so with until="0.9.1"
    table = (
        '<!-- check: params engine="nccl" device="gpu" until="0.9.1" -->\n'
        '| 参数 | 默认值 |\n|---|---|\n| `group_name` | `"default"` |\n| `rollout_dtype` | `torch.bfloat16` |\n'
    )
    good = '<!-- check: params engine="nccl" device="gpu" since="0.9.1" -->\n| 参数 | 默认值 |\n|---|---|\n'
    good += "| `multi_sender` | `True` |\n"
    page = write_page(table + "\n" + good)
    labels = _labels(page, _two(facts_by_release))
    assert [(lb.what, lb.bound, lb.against) for lb in labels] == [
        ("table params", "until", "0.9.1"),
        ("table params", "since", "0.9.0"),
    ]
    until, since = labels
    assert since.verified
    assert not until.verified, "the old table's rows still hold on 0.9.1, so until= is needless there"


def test_labels_on_claims_are_verified_too(facts_by_release, write_page):
    # CheckpointEngineConfig gained custom_backend_module in 0.8.0
    claim = '<!-- check: contains file="verl/workers/config/rollout.py" match="custom_backend_module" since="0.8.0" -->'
    page = write_page(f"The field exists. {claim}\n")
    facts = {r: facts_by_release[r] for r in ("0.7.1", "0.8.0")}
    (label,) = _labels(page, facts)
    assert (label.what, label.against, label.verified) == ("claim contains", "0.7.1", True)


def test_release_findings_judges_only_blocks_in_range(facts_by_release, write_page):
    page = write_page(fence(MULTI_SENDER, '{ .yaml check="config" device="gpu" since="0.9.1" }'))
    root = page.parent.parent
    assert release_findings([page], facts_by_release["0.9.0"], root) == ([], 0)
    assert release_findings([page], facts_by_release["0.9.1"], root) == ([], 1)


def test_the_matrix_leaves_what_no_release_changes_to_the_site_check(facts_by_release, write_page):
    # an unbound factual sentence and a page without its English twin: the site check on the pin finds both
    # (coverage/unbound, parity/…); the matrix judges them on no release, as no release can change them
    page = write_page("The bucket defaults to `512` MB in verl 0.9.1.\n", files={"docs/other.en.md": "# Other\n"})
    root = page.parent.parent
    pinned = check_paths([page], facts_by_release["0.9.1"], root).findings
    assert {f.rule.split("/")[0] for f in pinned} >= {"coverage", "parity"}
    for release in ("0.7.1", "0.9.1"):
        assert release_findings([page], facts_by_release[release], root) == ([], 0)


# -- the site ------------------------------------------------------------------------------------------------


def _site_pages():
    if not DOCS.is_dir():
        pytest.fail(f"no docs/ folder at {REPO}: the matrix has nothing to check")
    return parse_pages([DOCS], REPO)


@pytest.fixture(scope="module")
def site_matrix() -> dict[str, tuple[list, int, float]]:
    """Findings, judged items and seconds for the site on every covered release (computed once, in this process:
    the suite already keeps every core busy with a file per worker, where two spawned processes would import the
    checker and read each release again, for ~40% more CPU; that two at a time give what one process gives is
    test_releases_checked_two_at_a_time_give_what_one_process_gives)."""
    if not DOCS.is_dir():
        pytest.fail(f"no docs/ folder at {REPO}: the matrix has nothing to check")
    return findings_on_releases([DOCS], covered_releases(), REPO, jobs=1)


@pytest.mark.parametrize("release", covered_releases())
def test_site_holds_on_every_covered_release(release, site_matrix):
    findings, checked, seconds = site_matrix[release]
    assert checked > 0, "no block, table or claim was judged: the matrix would pass on an empty site"
    hint = suggest_bounds({r: f for r, (f, _, _) in site_matrix.items()})
    shown = sorted({f"{f.path}:{f.line}: {f.rule} {f.message}  [{hint[(f.path, f.line)]}]" for f in findings})
    assert not findings, (
        f"on verl {release} ({seconds:.1f}s), these do not hold; mark version-specific content with the label "
        f"in brackets (on the fence or claim that owns the line):\n" + "\n".join(shown)
    )


def test_suggested_bounds_follow_where_a_place_fails():
    def f(line: int) -> Finding:
        return sample_finding("config/unknown-key", "p.md", line)

    by_release = {"0.7.1": [f(1), f(2), f(4)], "0.8.0": [f(1), f(4)], "0.9.0": [f(3), f(4)], "0.9.1": [f(4)]}
    assert suggest_bounds(by_release) == {
        ("p.md", 1): 'since="0.9.0"',
        ("p.md", 2): 'since="0.8.0"',
        ("p.md", 3): "fails on 0.9.0",
        ("p.md", 4): "fails on every covered release",
    }
    assert suggest_bounds({"0.9.0": [], "0.9.1": [f(5)]}) == {("p.md", 5): 'until="0.9.1"'}


def test_every_since_and_until_label_on_the_site_is_true(facts_by_release):
    labels = verify_labels(_site_pages(), facts_by_release, REPO)
    wrong = [lb.explain() for lb in labels if not lb.verified]
    assert not wrong, "\n".join(wrong)


def test_pinned_release_is_covered():
    assert default_release() in covered_releases()


def test_releases_checked_two_at_a_time_give_what_one_process_gives(write_page):
    page = write_page(
        fence(
            "actor_rollout_ref:\n  rollout:\n    checkpoint_engine:\n      backend: hccl\n", '{ .yaml check="config" }'
        )
    )
    releases = covered_releases()[-2:]
    apart = findings_on_releases([page], releases, page.parent.parent, jobs=2)
    here = findings_on_releases([page], releases, page.parent.parent, jobs=1)
    assert list(apart) == list(here) == releases
    for r in releases:
        assert apart[r][:2] == here[r][:2]
        assert [f.rule for f in apart[r][0]] == ["engine/unknown-backend"] and apart[r][1] == 1
