"""The committed rules page is what the rule declarations render (scripts/gen_rules_page.py writes it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from verl_cookbook.rules import declarations
from verl_cookbook.rules.render import anchor, render

DOCS = Path(__file__).resolve().parent.parent / "docs" / "tools"


@pytest.mark.parametrize(("lang", "name"), [("zh", "rules.md"), ("en", "rules.en.md")])
def test_the_committed_rules_page_is_current(lang: str, name: str):
    assert (DOCS / name).read_text(encoding="utf-8") == render(lang), "run: python scripts/gen_rules_page.py"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_rule_has_its_own_section_with_its_anchor(lang: str):
    page = render(lang)
    for r in declarations():
        assert f"{{ #{anchor(r)} }}" in page, r.code
