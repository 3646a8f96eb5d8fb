"""Source citations in prose (``verl/checkpoint_engine/base.py:67-69``): the file must exist in verl
and the lines must be inside it.

Citations are written against the pinned release, so they are judged only when the tree being checked
is that release; the ``verl-version`` claim on every page already forces a re-read when the pin moves.
Paths inside ``<!-- check: … -->`` claims are left to those claims. A path inside a URL
(``…/blob/<commit>/verl/…``) points at a pinned commit and is left alone.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from verl_cookbook.checks import Context
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import DIRECTIVE, Page
from verl_cookbook.releases import default_release

CITATION = re.compile(r"(?<![\w/.-])(verl/[\w./-]+\.(?:py|yaml|yml))(?::(\d+)(?:-(\d+))?)?")


@lru_cache(maxsize=512)
def _line_count(path: Path) -> int | None:
    try:
        with path.open("rb") as fh:
            return sum(1 for _ in fh)
    except OSError:
        return None


def check_citations(page: Page, ctx: Context) -> list[Finding]:
    """Findings for citations of files verl does not have, or of lines past a file's end."""
    tree = ctx.facts.tree
    if tree.version != default_release():
        return []
    out: list[Finding] = []
    # files named inside <!-- check: … --> are judged by those claims; blank them out, keeping offsets
    text = DIRECTIVE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), page.text)
    for m in CITATION.finditer(text):
        rel, first, last = m.group(1), m.group(2), m.group(3)
        line = text.count("\n", 0, m.start()) + 1
        col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
        count = _line_count(tree.root / rel)
        if count is None:
            out.append(
                Finding(
                    page.path, line, col, "cite/missing-file", f"cites `{rel}`, which verl {tree.label} does not have"
                )
            )
            continue
        end = int(last or first or 0)
        if first and (int(first) < 1 or end > count or (last and int(last) < int(first))):
            out.append(
                Finding(
                    page.path,
                    line,
                    col,
                    "cite/line-out-of-range",
                    f"cites `{m.group(0)}`, but the file has {count} lines",
                    fact_source=f"{rel}:{count}",
                )
            )
    return out
