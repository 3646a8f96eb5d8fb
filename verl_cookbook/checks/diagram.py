"""``check="diagram"``: a mermaid fence that will render — the right language, a known diagram type, a body.

A typo in the diagram type would only show up when mermaid draws it, as an error drawing; this check
catches it at check time. On a site that keeps its diagrams drawn beforehand (``docs/diagrams/``, see
``verl_cookbook.diagrams``), the fence must also have its current SVG(s): an edited diagram whose drawing
was not redone is a finding that names the command to run.
"""

from __future__ import annotations

import re
from pathlib import Path

from verl_cookbook.checks import Context, block_check
from verl_cookbook.diagrams import DIAGRAMS_DIR, drawings, svg_path
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import CodeBlock, Page
from verl_cookbook.rules.pages import DIAGRAM_EMPTY, DIAGRAM_NOT_DRAWN, DIAGRAM_NOT_MERMAID, DIAGRAM_UNKNOWN_TYPE

# Diagram types mermaid 11 parses (the first word of a diagram, after optional front matter / directives).
MERMAID_TYPES = frozenset(
    {
        "flowchart",
        "graph",
        "sequenceDiagram",
        "classDiagram",
        "classDiagram-v2",
        "stateDiagram",
        "stateDiagram-v2",
        "erDiagram",
        "journey",
        "gantt",
        "pie",
        "quadrantChart",
        "requirementDiagram",
        "gitGraph",
        "C4Context",
        "C4Container",
        "C4Component",
        "C4Dynamic",
        "C4Deployment",
        "mindmap",
        "timeline",
        "zenuml",
        "sankey-beta",
        "xychart-beta",
        "block-beta",
        "packet-beta",
        "kanban",
        "architecture-beta",
        "radar-beta",
    }
)
_FIRST_WORD = re.compile(r"^\s*([A-Za-z][\w-]*)")
# ``graph LR; A-->B``: a one-line diagram has statements after the type (and direction), separated by ``;``
_ONE_LINER = re.compile(r"^(?:\s+(?:LR|RL|TB|TD|BT))?\s*;\s*\S")


def _close(word: str) -> str | None:
    import difflib

    near = difflib.get_close_matches(word, sorted(MERMAID_TYPES), n=1)
    return near[0] if near else None


def _body_lines(code: str) -> list[tuple[int, str]]:
    """(code line, text) of the diagram proper: blank lines, ``%%`` comments and ``---`` front matter skipped."""
    lines = code.splitlines()
    out: list[tuple[int, str]] = []
    i = 0
    if lines and lines[0].strip() == "---":
        i = 1
        while i < len(lines) and lines[i].strip() != "---":
            i += 1
        i += 1
    for n in range(i, len(lines)):
        text = lines[n].strip()
        if text and not text.startswith("%%"):
            out.append((n + 1, text))
    return out


@block_check("diagram", attrs=())
def check_diagram(block: CodeBlock, ctx: Context) -> list[Finding]:
    if block.lang != "mermaid":
        case = "" if block.lang else "no-lang"
        return [DIAGRAM_NOT_MERMAID.at(block.page, block.line, block.col, case=case, lang=block.lang)]
    body = _body_lines(block.code)
    if not body:
        return [DIAGRAM_EMPTY.at(block.page, block.line, block.col)]
    code_line, first = body[0]
    m = _FIRST_WORD.match(first)
    word = m.group(1) if m else first.split()[0]
    if word not in MERMAID_TYPES:
        file, line = block.where(code_line)
        return [DIAGRAM_UNKNOWN_TYPE.at(file, line, 1, word=word, suggestion=_close(word))]
    rest = first[m.end() :] if m else ""
    if len(body) < 2 and not _ONE_LINER.match(rest):
        file, line = block.where(code_line)
        return [DIAGRAM_EMPTY.at(file, line, 1, case="declared", word=word)]
    missing = [p for p in (svg_path(ctx.root, s) for s in drawings(block.code)) if p is not None and not p.is_file()]
    if missing:
        svg = f"{DIAGRAMS_DIR}/{missing[0].name}"
        return [DIAGRAM_NOT_DRAWN.at(block.page, block.line, block.col, svg=svg)]
    return []


def diagram_files(page: Page, root: Path) -> set[Path]:
    """The files ``page``'s diagram checks read: the site's package.json (the mermaid pin names the SVGs) and each
    SVG its mermaid fences need, there or not. A cached page result depends on them, so a removed SVG or a mermaid
    bump is checked again (review42j-3)."""
    out: set[Path] = set()
    for block in page.blocks:
        if block.lang != "mermaid" and block.attrs.get("check") != "diagram":
            continue
        out.add(root / "package.json")
        out.update(p for p in (svg_path(root, s) for s in drawings(block.code)) if p is not None)
    return out
