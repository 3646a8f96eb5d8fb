"""Write docs/tools/rules.md and docs/tools/rules.en.md from the rule declarations (verl_cookbook/rules/).

tests/test_rules_page.py fails when the committed pages differ from what this writes: run it after changing a rule.
"""

from __future__ import annotations

from pathlib import Path

from verl_cookbook.rules.render import render

DOCS = Path(__file__).resolve().parent.parent / "docs" / "tools"

if __name__ == "__main__":
    for lang, name in (("zh", "rules.md"), ("en", "rules.en.md")):
        (DOCS / name).write_text(render(lang), encoding="utf-8")
        print(f"wrote {DOCS / name}")
