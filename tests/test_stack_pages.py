"""The version-matrix pages: their tables are the plans ``verl-cookbook stack`` prints (``stack_pages``), filled in
by the mkdocs hook ``scripts/hooks/stack_tables.py`` in both languages; wheel dates are the index's upload times."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from packaging.utils import canonicalize_name

from verl_cookbook import stack_pages
from verl_cookbook.releases import covered_releases
from verl_cookbook.stack_plan import build
from verl_cookbook.stack_resolve import PRODUCTS, Ask, covered, recorded

ROOT = Path(__file__).resolve().parents[1]


def test_every_covered_release_and_product_has_a_committed_resolution_for_each_backend() -> None:
    missing = [a.key for a in covered() if recorded(a) is None]
    assert missing == [] and {a.product for a in covered()} == set(PRODUCTS)


def test_the_version_matrix_tables_are_the_plans_in_both_languages() -> None:
    for lang in ("zh", "en"):
        md = stack_pages.plans_markdown(covered_releases(), lang)
        for release in covered_releases():
            assert f"verl-cookbook stack --verl {release} --product A3" in md
        ask = Ask("0.9.1", "A3")
        record = recorded(ask)
        assert record is not None
        p = build(ask, record)
        torch_npu = next(x for x in p.pins if canonicalize_name(x.name) == "torch-npu")
        assert f"| `{torch_npu.name}` | `{torch_npu.version}` |" in md


def test_both_version_matrix_pages_carry_the_markers_the_hook_fills() -> None:
    for page in ("version-matrix.md", "version-matrix.en.md"):
        text = (ROOT / "docs" / "install" / page).read_text(encoding="utf-8")
        assert "<!-- stack: plans -->" in text and "<!-- stack: uploads -->" in text


def test_the_hook_fills_the_markers_and_stops_on_one_it_does_not_know() -> None:
    sys.path.insert(0, str(ROOT / "scripts" / "hooks"))
    from mkdocs.exceptions import PluginError
    from stack_tables import fill

    assert "<!-- stack:" not in fill("<!-- stack: plans -->\n<!-- stack: uploads -->\n", "en")
    with pytest.raises(PluginError, match="unknown marker"):
        fill("<!-- stack: plan -->", "zh")


def test_wheel_dates_come_from_upload_times_not_tags() -> None:
    md = stack_pages.uploads_markdown(covered_releases(), "en")
    row_080 = next(line for line in md.splitlines() if line.startswith("| 0.8.0 |"))
    assert "none yet" in row_080  # the first Mooncake NPU wheel reached the index 2026-06-10, after verl 0.8.0
    row_091 = next(line for line in md.splitlines() if line.startswith("| 0.9.1 |"))
    assert "`0.3.13.post1` (2026-08-31)" in row_091


def test_a_release_without_a_guide_for_the_product_has_no_plan_and_says_so() -> None:
    md = stack_pages.plans_markdown(["0.8.0"], "en")
    assert "verl 0.8.0 has no Ascend install guide for this product" in md
    assert "opencv-python-headless<=4.11.0.86  [vllm-ascend 0.18.0 Requires-Dist]" in md  # A2/A3: pip's conflict
