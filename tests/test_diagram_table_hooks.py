"""The diagram-fit and table-break hooks as functions (the browser measures their effect: tests/browser/)."""

from __future__ import annotations

import re
import sys

from tests.built_site import REPO

sys.path.insert(0, str(REPO / "scripts" / "hooks"))
import diagram_fit  # noqa: E402
import table_breaks  # noqa: E402

SVG = '<svg viewBox="0 0 1200 300"><style>#diagram-abc{font-family:x;font-size:16px;fill:#000;}</style></svg>'


def test_floor_scale_is_where_the_labels_reach_the_floor():
    assert diagram_fit.floor_scale(SVG) == diagram_fit.FLOOR_PX / 16
    assert diagram_fit.floor_scale(SVG.replace("16px", "10px")) == 1.0, "a drawing is never enlarged"


def test_two_drawing_figure_gets_an_id_a_floor_and_its_switch_point():
    html = (
        '<figure class="diagram diagram--two"><div class="diagram-wide" style="--diagram-width: 1200px">'
        + SVG
        + '</div><div class="diagram-narrow" style="--diagram-width: 600px">'
        + SVG
        + "</div></figure>"
    )
    out = diagram_fit.fit(html + html)
    assert 'id="diagram-1"' in out and 'id="diagram-2"' in out
    assert out.count("--diagram-floor: 0.7500") == 4
    # the wide drawing goes below 12 px under 1200 × 0.75 = 900 px
    assert re.search(r"@container \(max-width: 899\.98px\) \{ #diagram-1 \.diagram-wide \{ display: none \}", out)


def test_single_drawing_figure_gets_no_switch():
    out = diagram_fit.fit(
        '<figure class="diagram"><div class="diagram-wide" style="--diagram-width: 500px">' + SVG + "</div></figure>"
    )
    assert "@container" not in out and "--diagram-floor: 0.7500" in out


def test_identifiers_in_tables_get_breaks_at_joints_only():
    assert table_breaks.with_breaks("checkpoint_engine.engine_kwargs") == (
        "checkpoint_<wbr>engine.<wbr>engine_<wbr>kwargs"
    )
    assert table_breaks.with_breaks("install_guidance.rst@v0.8.0") == "install_<wbr>guidance.<wbr>rst@<wbr>v0.8.0"
    assert table_breaks.with_breaks("HCCLCheckpointEngine") == "HCCLCheckpoint<wbr>Engine"
    assert table_breaks.with_breaks("verl 0.9.1, a sentence. Next") == "verl 0.9.1, a sentence. Next"


def test_only_table_text_changes_not_markup_or_prose():
    html = '<p>a_b</p><table><tr><td><a href="x_y.md">x_y</a> <code>a.b</code></td></tr></table>'
    out = table_breaks.break_tables(html)
    assert out.startswith("<p>a_b</p>") and 'href="x_y.md"' in out
    assert "x_<wbr>y</a>" in out and "a.<wbr>b</code>" in out
