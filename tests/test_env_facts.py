"""verl's environment reads, found statically with their file:line and defaults."""

from __future__ import annotations

from verl_cookbook.facts import env


def test_reads_are_found_with_default_and_comparison() -> None:
    src = (
        "import os\n"
        "a = os.getenv('VERL_X', 'FALSE').upper() in ['TRUE', '1']\n"
        "b = os.environ['RANK']\n"
        "if 'HCCL_Y' in os.environ:\n"
        "    pass\n"
        "os.environ['SET_ONLY'] = '1'\n"
        "os.environ.get(name)\n"
    )
    found = dict(env.scan_source(src, "verl/x.py"))
    assert found["VERL_X"] == {
        "source": "verl/x.py:2",
        "kind": "getenv",
        "default": "FALSE",
        "compared_with": ["TRUE", "1"],
    }
    assert found["RANK"]["source"] == "verl/x.py:3"
    assert found["HCCL_Y"]["kind"] == "in"
    assert "SET_ONLY" not in found


def test_every_reported_line_reads_the_variable(verl_tree, facts) -> None:
    data = facts.family("env")
    assert data["vars"], "no environment reads found in verl"
    for name, recs in data["vars"].items():
        for rec in recs:
            rel, line = rec["source"].rsplit(":", 1)
            text = verl_tree.read(rel).splitlines()[int(line) - 1]
            assert "environ" in text or "getenv" in text or name in text, (name, rec)
