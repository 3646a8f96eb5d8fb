"""reStructuredText pages (verl's Sphinx docs) and MyST directive fences read into the same blocks as Markdown, with
the page's own line numbers, and their declared checks run."""

from __future__ import annotations

from pathlib import Path

from helpers import rules

from verl_cookbook.cli import main
from verl_cookbook.doc_reader import read_page
from verl_cookbook.runner import check_paths

RST = """\
Quickstart
==========

Install it:

.. code-block:: bash
   :caption: install
   :linenos:

   pip install verl
   echo done

Then run::

    python3 -m verl.trainer.main_ppo \\
        trainer.n_gpus_per_node=1

.. note::

   A block inside a note:

   .. code:: python

      x = 1

.. toctree::
   :maxdepth: 2

   start/install

.. tab-set::

   .. tab-item:: JSON

      .. sourcecode:: json

         {"a": 1}
"""


def _page(tmp_path: Path, text: str, name: str = "page.rst"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return read_page(p, tmp_path, [tmp_path])


def _line(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def test_rst_code_directives_and_literal_blocks_keep_the_pages_line_numbers(tmp_path: Path) -> None:
    page = _page(tmp_path, RST)
    got = [(b.lang, b.line, b.code) for b in page.blocks]
    assert got == [
        ("bash", _line(RST, "code-block:: bash"), "pip install verl\necho done\n"),
        ("", _line(RST, "Then run::"), "python3 -m verl.trainer.main_ppo \\\n    trainer.n_gpus_per_node=1\n"),
        ("python", _line(RST, "code:: python"), "x = 1\n"),
        ("json", _line(RST, "sourcecode:: json"), '{"a": 1}\n'),
    ]
    bash = page.blocks[0]
    assert bash.where(2) == ("page.rst", _line(RST, "echo done"))  # the options are not code
    assert page.blocks[1].where(2) == ("page.rst", _line(RST, "trainer.n_gpus_per_node=1"))
    assert page.blocks[3].where(1) == ("page.rst", _line(RST, '{"a": 1}'))  # two unknown directives deep
    assert page.problems == []


def test_highlight_directive_gives_the_literal_blocks_after_it_their_language(tmp_path: Path) -> None:
    page = _page(tmp_path, "T\n=\n\nA::\n\n   a\n\n.. highlight:: bash\n\nB::\n\n   echo b\n")
    assert [b.lang for b in page.blocks] == ["", "bash"]


def test_literalinclude_maps_each_line_to_the_included_file(tmp_path: Path) -> None:
    (tmp_path / "run.sh").write_text("#!/bin/bash\nset -e\necho one\necho two\n", encoding="utf-8")
    text = "T\n=\n\n.. literalinclude:: run.sh\n   :language: bash\n   :lines: 3-4\n\n.. literalinclude:: gone.sh\n"
    page = _page(tmp_path, text)
    inc, missing = page.blocks
    assert (inc.lang, inc.code, inc.includes) == ("bash", "echo one\necho two\n", ["run.sh"])
    assert inc.where(1) == ("run.sh", 3)
    assert missing.missing_includes == [("gone.sh", 8)]


def test_rst_declaration_comment_declares_the_next_block_and_an_orphan_is_reported(tmp_path: Path) -> None:
    text = (
        "T\n=\n\n.. verl-cookbook: check=shell\n\n.. code-block:: bash\n\n   echo hi\n\n"
        '.. verl-cookbook: check=skip reason="output"\n\nOutput::\n\n   step:0 - loss(1)\n\n'
        ".. verl-cookbook: check=shell\n\nJust a paragraph.\n"
    )
    page = _page(tmp_path, text)
    assert [b.attrs for b in page.blocks] == [{"check": "shell"}, {"check": "skip", "reason": "output"}]
    last = max(n for n, line in enumerate(text.splitlines(), 1) if "verl-cookbook" in line)
    assert [(f.rule, f.line) for f in page.problems] == [("snippet/orphan-declaration", last)]


def test_declared_rst_block_is_checked_at_the_pages_line(tmp_path: Path, facts) -> None:
    text = 'T\n=\n\n.. verl-cookbook: check=json\n\n.. code-block:: json\n   :caption: c\n\n   {"a": 1,}\n'
    p = tmp_path / "bad.rst"
    p.write_text(text, encoding="utf-8")
    found = check_paths([p], facts, tmp_path).findings
    assert [(f.rule, f.line) for f in found] == [("json/syntax", 9)]


def test_correct_rst_page_with_declared_blocks_is_silent(tmp_path: Path, facts) -> None:
    text = (
        'T\n=\n\n.. verl-cookbook: check=json\n\n.. code-block:: json\n\n   {"a": 1}\n\n'
        ".. verl-cookbook: check=shell\n\nRun::\n\n   echo hi\n"
    )
    p = tmp_path / "good.rst"
    p.write_text(text, encoding="utf-8")
    report = check_paths([p], facts, tmp_path)
    assert report.findings == [] and report.checked == 2


def test_rst_passed_explicitly_gets_no_markdown_fence_finding(tmp_path: Path, facts, capsys) -> None:
    p = tmp_path / "page.rst"
    p.write_text("T\n=\n\nExample::\n\n   ```\n   not a fence here\n", encoding="utf-8")
    assert main(["check", "--lenient", "--verl", "0.9.1", str(p)]) == 0
    assert "unterminated-fence" not in capsys.readouterr().out


def test_lenient_checks_an_undeclared_rst_code_block_by_its_language(tmp_path: Path, facts) -> None:
    p = tmp_path / "page.rst"
    p.write_text("T\n=\n\n.. code-block:: python\n\n   def f(:\n       pass\n", encoding="utf-8")
    found = check_paths([p], facts, tmp_path, {"lenient": True}).findings
    assert [(f.rule, f.line) for f in found] == [("python/syntax", 6)]


MYST = """\
# Title

```{code-block} bash
:caption: install
:linenos:

pip install verl
```

````{note}
Inside a note:

```python
x = 1
```
````

```{code-block} json
---
caption: yaml options
---
{"a": 1}
```

```{eval-rst}
.. code-block:: bash

   echo from rst
```
"""


def test_myst_directive_fences_are_read_as_sphinx_reads_them(tmp_path: Path) -> None:
    page = _page(tmp_path, MYST, "page.md")
    got = [(b.lang, b.line, b.code) for b in page.blocks]
    assert got == [
        ("bash", 3, "pip install verl\n"),
        ("python", _line(MYST, "```python"), "x = 1\n"),
        ("json", _line(MYST, "{code-block} json"), '{"a": 1}\n'),
        ("bash", _line(MYST, ".. code-block:: bash"), "echo from rst\n"),
    ]
    assert page.blocks[0].where(1) == ("page.md", _line(MYST, "pip install verl"))
    assert page.blocks[1].where(1) == ("page.md", _line(MYST, "x = 1"))
    assert page.blocks[3].where(1) == ("page.md", _line(MYST, "echo from rst"))


def test_html_comment_declares_the_fence_below_it_and_an_orphan_is_reported(tmp_path: Path) -> None:
    text = (
        "# T\n\n<!-- verl-cookbook: check=shell -->\n\n```bash\necho hi\n```\n\n"
        "<!-- verl-cookbook: ignore[shell/syntax] -->\n\n```bash\necho\n```\n\n"
        "<!-- verl-cookbook: check=json -->\nText, not a block.\n"
    )
    page = _page(tmp_path, text, "page.md")
    assert [b.attrs for b in page.blocks] == [{"check": "shell"}, {}]
    assert [(f.rule, f.line) for f in page.problems] == [("snippet/orphan-declaration", 15)]


def test_myst_declared_block_is_checked_and_a_correct_one_is_silent(tmp_path: Path, facts) -> None:
    bad = tmp_path / "bad.md"
    bad.write_text('# T\n\n<!-- verl-cookbook: check=json -->\n```{code-block} json\n{"a": 1,}\n```\n')
    good = tmp_path / "good.md"
    good.write_text('# T\n\n<!-- verl-cookbook: check=json -->\n```{code-block} json\n{"a": 1}\n```\n')
    assert [(f.rule, f.line) for f in check_paths([bad], facts, tmp_path).findings] == [("json/syntax", 5)]
    report = check_paths([good], facts, tmp_path)
    assert rules(report.findings) == [] and report.checked == 1


def test_a_declaration_quoted_in_a_sentence_declares_nothing_and_is_not_an_orphan(tmp_path: Path) -> None:

    page_path = tmp_path / "p.md"
    page_path.write_text(
        "Declare a block with `<!-- verl-cookbook: check=shell -->` on the line above it.\n", encoding="utf-8"
    )
    assert read_page(page_path, tmp_path).problems == []


def test_both_declaration_comments_take_the_attributes_a_fence_takes(tmp_path: Path) -> None:
    attrs = 'check="config" config="ppo_megatron_trainer" since="0.9.0" reason="r"'
    body = "trainer:\n  device: npu\n"
    fence = _page(tmp_path, f"# T\n\n``` {{ .yaml {attrs} }}\n{body}```\n", "fence.md")
    myst = _page(tmp_path, f"# T\n\n<!-- verl-cookbook: {attrs} -->\n```yaml\n{body}```\n", "myst.md")
    indented = "".join(f"   {line}\n" for line in body.splitlines())
    rst = _page(tmp_path, f"T\n=\n\n.. verl-cookbook: {attrs}\n\n.. code-block:: yaml\n\n{indented}", "page.rst")
    want = {"check": "config", "config": "ppo_megatron_trainer", "since": "0.9.0", "reason": "r"}
    assert [b.attrs for b in fence.blocks] == [want]
    assert [b.attrs for b in myst.blocks] == [want] and myst.problems == []
    assert [b.attrs for b in rst.blocks] == [want] and rst.problems == []
