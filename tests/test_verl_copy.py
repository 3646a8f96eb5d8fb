"""review18b #1: what the site reads for verl 0.9.1, and why not at a v0.9.1 tag.

Our copy of verl's repository ends at main commit 1dda039 (2026-08-22, version file 0.10.0.dev), older than verl
0.9.1 on the index (2026-09-20): that copy cannot show whether verl tagged 0.9.1, only that the tag is newer than the
copy. The documents verl does not ship in 0.9.1's wheel or sdist (the Ascend install guide, the checkpoint-engine
README) are therefore read at 1dda039; file:line citations of verl's code are read from the 0.9.1 wheel.
"""

import json
from pathlib import Path

from verl_cookbook.checks.citations import SOURCE_URL, tag
from verl_cookbook.stack_facts import stack_facts
from verl_cookbook.stack_resolve import uploads
from verl_cookbook.verl_source import from_release

ROOT = Path(__file__).resolve().parents[1]
COMMIT = "1dda039b9c6311889a9c9a26040677e1254814f9"


def test_our_copy_of_verls_repository_ends_at_1dda039_before_091_reached_the_index() -> None:
    run = json.loads((ROOT / "tests/data/verl_drift_run.json").read_text(encoding="utf-8"))
    assert run["commit"] == COMMIT and run["commit_date"] == "2026-08-22"
    # the checker names the commit's version file in its messages: verl 0.10.0.dev
    assert any("verl 0.10.0.dev" in f["message_en"] for f in run["findings"])
    verl = uploads()["dists"]["verl"]
    assert verl["0.9.0"].startswith("2026-08-14") and verl["0.9.1"].startswith("2026-09-20")
    assert verl["0.9.0"][:10] < run["commit_date"] < verl["0.9.1"][:10]


def test_the_091_guide_and_readme_facts_are_read_at_1dda039_and_the_wheel_has_neither() -> None:
    facts = stack_facts()
    for fact_id in ("verl.readme.0.9.1.kimi_950", "verl.readme.whitelist_950", "verl.guide.0.9.1.a3.cann"):
        assert f"/blob/{COMMIT}/" in facts[fact_id][0].source
    package = from_release("0.9.1").package
    assert (package / "checkpoint_engine" / "base.py").is_file()
    assert not (package / "checkpoint_engine" / "README.md").exists()


def test_citation_lines_come_from_the_release_wheel_and_links_name_the_releases_tag() -> None:
    package = from_release("0.9.1").package
    base = (package / "checkpoint_engine" / "base.py").read_text(encoding="utf-8").splitlines()
    assert any("class ColocatedCheckpointEngine" in line for line in base)
    assert SOURCE_URL.format(tag=tag("0.9.1"), path="x") == "https://github.com/verl-project/verl/blob/v0.9.1/x"
