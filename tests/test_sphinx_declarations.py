"""The ways to declare a block's check in verl's docs build under Sphinx + MyST (the extensions verl's docs/conf.py
uses) with no warning, render nothing visible, and are read by the checker; the Material-style fence attribute list,
the syntax the checker's own site uses, does not build there."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from verl_cookbook.doc_reader import read_page

CONF = """\
project = "t"
extensions = ["myst_parser"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
myst_enable_extensions = ["dollarmath", "amsmath"]
html_theme = "basic"
"""

INDEX = """\
Index
=====

.. toctree::

   declared_rst
   declared_myst
"""

DECLARED_RST = """\
Declared in reStructuredText
============================

.. verl-cookbook: check=shell

.. code-block:: bash
   :caption: run it

   echo one

.. verl-cookbook: check=skip reason="console output"

Output::

   step:0 - loss:1.0
"""

DECLARED_MYST = """\
# Declared in MyST

<!-- verl-cookbook: check=shell -->
```bash
echo two
```

<!-- verl-cookbook: check=json -->
```{code-block} json
:caption: a file

{"a": 1}
```

```bash {check="shell"}
echo three
```
"""

MATERIAL_STYLE = """\
# Material-style attributes

``` { .bash check="shell" }
echo four
```
"""


def _build(src: Path, pages: dict[str, str]) -> subprocess.CompletedProcess:
    src.mkdir()
    (src / "conf.py").write_text(CONF, encoding="utf-8")
    for name, text in pages.items():
        (src / name).write_text(text, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-W", "-E", "-q", str(src), str(src.parent / "out")],
        capture_output=True,
        text=True,
        timeout=120,
    )


def _visible(html: str) -> str:
    return re.sub(r"<!--.*?-->", "", html, flags=re.S)


def test_declared_pages_build_under_sphinx_and_myst_without_a_warning(tmp_path: Path) -> None:
    pages = {"index.rst": INDEX, "declared_rst.rst": DECLARED_RST, "declared_myst.md": DECLARED_MYST}
    built = _build(tmp_path / "src", pages)
    assert built.returncode == 0, built.stderr
    assert built.stderr == ""
    for name in ("declared_rst", "declared_myst"):
        html = (tmp_path / "out" / f"{name}.html").read_text(encoding="utf-8")
        assert "verl-cookbook" not in _visible(html)  # the declarations are not shown to readers
        assert "echo" in html  # the code itself is


def test_the_checker_reads_the_declarations_sphinx_accepted(tmp_path: Path) -> None:
    (tmp_path / "declared_rst.rst").write_text(DECLARED_RST, encoding="utf-8")
    (tmp_path / "declared_myst.md").write_text(DECLARED_MYST, encoding="utf-8")
    rst = read_page(tmp_path / "declared_rst.rst", tmp_path)
    myst = read_page(tmp_path / "declared_myst.md", tmp_path)
    assert [b.attrs.get("check") for b in rst.blocks] == ["shell", "skip"]
    assert [b.attrs.get("check") for b in myst.blocks] == ["shell", "json", "shell"]
    assert rst.problems == myst.problems == []


def test_material_style_fence_attributes_break_the_sphinx_build(tmp_path: Path) -> None:
    built = _build(tmp_path / "src", {"index.md": MATERIAL_STYLE})
    assert built.returncode != 0
    assert "lexer" in built.stderr.lower()
