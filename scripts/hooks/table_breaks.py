"""mkdocs hook: in tables, long identifiers may wrap at their joints and nowhere else.

Material lets code break anywhere (``word-break: break-word``), so a narrow table column cut
``CheckpointEngine`` into "Checkpoin / tEngine"; links do not break at all, so a column of file links
(``install_guidance.rst@v0.8.0``) pushed a table past its column. This inserts ``<wbr>`` (a break
opportunity that adds no character, in copied text or in the search index) after ``_``, ``/``, ``@``, ``::``
and a ``.`` followed by a letter, and between the words of a CamelCase name (``Checkpoint<wbr>Engine``), in the
text of every table; docs/stylesheets/site.css stops code in tables
from breaking anywhere else. A table still wider than its column scrolls, with a visible cue (site.css).
"""

from __future__ import annotations

import re

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

_TABLE = re.compile(r"<table\b.*?</table>", re.S)
_TEXT = re.compile(r"(?<=>)[^<>]+(?=<)")
# after these, inside a word: checkpoint_engine, a/b, rst@v0.8.0, base.py, verl::x (not 0.9.1, not "end. Next")
_JOINT = re.compile(r"(?<=\w)(?:_+|/|@|::|\.(?=[A-Za-z]))(?=\w)|(?<=[a-z])(?=[A-Z][a-z])")


def with_breaks(text: str) -> str:
    """``text`` (no markup) with ``<wbr>`` after each identifier joint."""
    return _JOINT.sub(lambda m: m.group(0) + "<wbr>", text)


def break_tables(html: str) -> str:
    """``html`` with break opportunities at the identifier joints inside its tables."""
    return _TABLE.sub(lambda t: _TEXT.sub(lambda m: with_breaks(m.group(0)), t.group(0)), html)


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    return break_tables(html)
