"""``check="diagram"``: a mermaid fence that will render — the right language, a known diagram type, a body.

A typo in the diagram type would only show up when mermaid draws it, as an error drawing; this check
catches it at check time. On a site that keeps its diagrams drawn beforehand (``docs/diagrams/``, see
``verl_cookbook.diagrams``), the fence must also have its current SVG(s): an edited diagram whose drawing
was not redone is a finding that names the command to run.
"""

from __future__ import annotations

import re

from verl_cookbook.checks import Context, block_check
from verl_cookbook.diagrams import DIAGRAMS_DIR, drawings, svg_path
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import CodeBlock

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


def _close(word: str) -> str:
    import difflib

    near = difflib.get_close_matches(word, sorted(MERMAID_TYPES), n=1)
    return f"; did you mean `{near[0]}`?" if near else ""


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
        return [
            Finding(
                block.page,
                block.line,
                block.col,
                "diagram/not-mermaid",
                f'check="diagram" is for mermaid fences (``` {{ .mermaid check="diagram" }}), '
                f"not `{block.lang or 'no language'}`",
            )
        ]
    body = _body_lines(block.code)
    if not body:
        return [Finding(block.page, block.line, block.col, "diagram/empty", "the mermaid diagram has no content")]
    code_line, first = body[0]
    m = _FIRST_WORD.match(first)
    word = m.group(1) if m else first.split()[0]
    if word not in MERMAID_TYPES:
        file, line = block.where(code_line)
        return [
            Finding(
                file,
                line,
                1,
                "diagram/unknown-type",
                f"`{word}` is not a mermaid diagram type{_close(word)} (known: flowchart, sequenceDiagram, "
                "classDiagram, stateDiagram-v2, …)",
            )
        ]
    rest = first[m.end() :] if m else ""
    if len(body) < 2 and not _ONE_LINER.match(rest):
        file, line = block.where(code_line)
        return [Finding(file, line, 1, "diagram/empty", f"the `{word}` diagram declares its type but draws nothing")]
    missing = [p for p in (svg_path(ctx.root, s) for s in drawings(block.code)) if p is not None and not p.is_file()]
    if missing:
        return [
            Finding(
                block.page,
                block.line,
                block.col,
                "diagram/not-drawn",
                f"this diagram's SVG {DIAGRAMS_DIR}/{missing[0].name} does not exist (the diagram changed, or "
                "mermaid did): run `python scripts/render_diagrams.py`",
            )
        ]
    return []
