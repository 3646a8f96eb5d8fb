"""scripts/hooks/checked_count.py: the count under each title is what the page declares, skips excluded."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from tests.conftest import REPO

_spec = importlib.util.spec_from_file_location("checked_count", REPO / "scripts" / "hooks" / "checked_count.py")
hook = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hook)

PAGE = """# Title { #t }

``` { .yaml check="config" }
a: 1
```

``` { .bash check="skip" reason="output" }
x
```

<!-- check: params scope="trainer" -->
| Key | Default | Meaning |
|---|---|---|
| `save_freq` | `-1` | x |

A claim. <!-- check: contains file="verl/a.py" match="x" -->
A report.<sup class="unchecked" title="from a user report, not checked">※</sup>
"""


def test_counts_checked_blocks_tables_and_claims_but_not_skips(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text(PAGE, encoding="utf-8")
    assert hook.count_checks(PAGE, page, tmp_path) == (1, 1, 1)


def test_a_page_without_checks_counts_zero(tmp_path: Path) -> None:
    text = "# Plain\n\nNo checks here.\n"
    assert hook.count_checks(text, tmp_path / "p.md", tmp_path) == (0, 0, 0)


def test_the_line_goes_below_the_title_in_the_pages_language() -> None:
    en = hook.with_count(PAGE, hook.count_line(1, 1, 1, 1, english=True))
    lines = en.splitlines()
    assert lines[0].startswith("# Title") and "3 statements" in lines[2] and "1 marked ※" in lines[2]
    zh = hook.count_line(2, 0, 5, 0, english=False)
    assert "7 条" in zh and "※" not in zh
