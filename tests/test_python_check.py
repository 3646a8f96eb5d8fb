"""check="python": syntax, verl imports and override signatures, read statically; and the site's runnable
Python fences executed by pytest-markdown-docs (through verl_cookbook.markdown_docs_plugin)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import fence, findings_for, rules

from verl_cookbook.checks.python_example import interactive_session, prepare_fence, runnable
from verl_cookbook.markdown import parse_page
from verl_cookbook.runner import check_paths

REPO = Path(__file__).resolve().parent.parent
FENCES = Path(__file__).resolve().parent / "data" / "python_fences"
PY = '{ .python check="python" }'
CALLBACK = """from verl.trainer.ppo.checkpoint_callback import CheckpointCallback


class Upload(CheckpointCallback):
    def on_save(self, trainer, global_step, checkpoint_dir, async_save=False, **kwargs):
        print(global_step, checkpoint_dir)
"""


def check(write_page, facts, code: str, files: dict[str, str] | None = None):
    return findings_for(write_page("# p\n\n" + fence(code, PY), files=files), facts)


def test_valid_callback_subclass_passes(write_page, facts) -> None:
    assert check(write_page, facts, CALLBACK) == []


def test_syntax_error_is_reported_at_its_page_line(write_page, facts) -> None:
    (f,) = check(write_page, facts, "x = 1\ndef broken(:\n    pass\n")
    assert f.rule == "python/syntax" and f.line == 5  # fence on line 3, code from line 4


def test_syntax_error_in_an_included_snippet_points_into_the_snippet(write_page, facts) -> None:
    page = write_page("# p\n\n" + fence('--8<-- "snippets/x.py"', PY), files={"snippets/x.py": "a = 1\nif a\n"})
    (f,) = findings_for(page, facts)
    assert f.rule == "python/syntax" and f.path.endswith("snippets/x.py") and f.line == 2


def test_import_of_a_name_verl_lacks_suggests_the_real_one(write_page, facts) -> None:
    (f,) = check(write_page, facts, CALLBACK.replace("import CheckpointCallback", "import CheckpointCallbacks"))
    assert f.rule == "python/verl-import" and "did you mean `CheckpointCallback`" in f.message


@pytest.mark.parametrize(
    ("signature", "problem"),
    [
        ("self, trainer, global_step, checkpoint_dir, async_save=False", "no `**kwargs`"),
        ("self, global_step, trainer, checkpoint_dir, async_save=False, **kwargs", "position"),
        ("self, trainer, step, checkpoint_dir, async_save=False", "missing parameter `global_step`"),
        ("self, trainer, global_step, checkpoint_dir, extra, **kwargs", "new required parameter `extra`"),
        ("self, trainer, *, global_step, checkpoint_dir, async_save=False, **kwargs", "keyword-only"),
    ],
)
def test_override_with_another_signature_is_named_with_verls(write_page, facts, signature, problem) -> None:
    code = CALLBACK.replace("self, trainer, global_step, checkpoint_dir, async_save=False, **kwargs", signature)
    found = check(write_page, facts, code)
    assert rules(found) == ["python/override-signature"]
    f = found[0]
    assert problem in f.message and f.line == 4 + 4  # the def line
    rel, _, line = f.fact_source.rpartition(":")
    assert "def on_save(" in facts.tree.read(rel).splitlines()[int(line) - 1]


def test_methods_verl_does_not_define_are_free(write_page, facts) -> None:
    code = CALLBACK + "\n    def upload(self, path):\n        pass\n"
    assert check(write_page, facts, code) == []


def test_a_class_that_does_not_subclass_verl_is_not_compared(write_page, facts) -> None:
    assert check(write_page, facts, "class Local:\n    def on_save(self):\n        pass\n") == []


# -- which fences run -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("x = 1\n", True),
        ("import json\n", True),
        ("from verl.utils import x\n", False),
        ("import verl\n", False),
        ("import module_that_is_not_installed_anywhere\n", False),
    ],
)
def test_runnable_means_no_verl_and_nothing_missing(code: str, expected: bool) -> None:
    assert runnable(code) is expected


def test_prepare_fence_marks_notest_inside_the_attribute_list(tmp_path: Path) -> None:
    info, _ = prepare_fence('{ .python check="skip" reason="x" }', "x = 1\n", tmp_path)
    assert info.endswith(" notest }")
    info, _ = prepare_fence('{ .python check="python" }', "x = 1\n", tmp_path)
    assert "notest" not in info
    info, content = prepare_fence("yaml", "a: 1\n", tmp_path)
    assert (info, content) == ("yaml", "a: 1\n")


def run_markdown_docs(cwd: Path, *paths: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "verl_cookbook.markdown_docs_plugin",
            "--markdown-docs", "--markdown-docs-syntax=superfences", "-q", "--rootdir", str(cwd), *paths,
        ],
        cwd=cwd, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def test_plugin_runs_fences_in_containers_and_includes_and_skips_verl_ones() -> None:
    proc = run_markdown_docs(FENCES, "docs/runs.md")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"\b3 passed\b", proc.stdout), proc.stdout  # plain, admonition, included; not the other three


def test_plugin_reports_a_failing_fence_with_its_page_line() -> None:
    proc = run_markdown_docs(FENCES, "docs/fails.md")
    assert proc.returncode == 1
    assert "arithmetic drifted" in proc.stdout and "fails.md" in proc.stdout


def test_the_sites_runnable_python_fences_run() -> None:
    """Every check="python" fence on the site that needs nothing from verl is executed, and passes."""
    expected = 0
    for md in sorted((REPO / "docs").rglob("*.md")):
        for block in parse_page(md, REPO, bases=[REPO]).blocks:
            if block.lang in ("py", "python", "python3") and block.attrs.get("check") == "python":
                expected += runnable(block.code)
    proc = run_markdown_docs(REPO, "docs")
    if expected == 0:
        assert proc.returncode == 5, proc.stdout  # pytest: no tests collected
        return
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(rf"\b{expected} passed\b", proc.stdout), proc.stdout


# -- constructors: compared only when verl builds the object with the base's arguments ----------------------------
TOOL = """from verl.tools.base_tool import BaseTool


class Lookup(BaseTool):
    def __init__(self, config):
        super().__init__(config, None)
"""
WORKER_RST = """\
Custom workers
==============

A worker keeps its own settings:

.. code:: python

   from verl.single_controller.base import Worker
   import ray

   @ray.remote
   class Scorer(Worker):
       def __init__(self, config, threshold=0.5):
           super().__init__()
           self.config = config

       def score(self, batch):
           return batch
"""


def test_tool_init_without_the_arguments_verl_builds_it_with_is_reported(write_page, facts) -> None:
    """verl builds a tool from its config as ``tool_cls(config=..., tool_schema=...)`` (verl/tools/tool_registry.py)."""
    (f,) = check(write_page, facts, TOOL)
    assert f.rule == "python/override-signature" and "missing parameter `tool_schema`" in f.message
    assert f.line == 4 + 4 and "BaseTool.__init__" in f.fact


def test_worker_init_of_its_own_is_free_in_an_rst_page(tmp_path: Path, facts) -> None:
    """A single-controller worker is built with the arguments its caller gives RayClassWithInitArgs, not Worker's."""
    p = tmp_path / "workers.rst"
    p.write_text(WORKER_RST, encoding="utf-8")
    report = check_paths([p], facts, tmp_path, {"lenient": True})
    assert report.findings == [] and report.checked == 1


def test_worker_hook_with_another_signature_is_still_compared(tmp_path: Path, facts) -> None:
    """Only the constructor is the caller's: a Worker method verl defines is still held to verl's signature."""
    code = WORKER_RST.replace("def score(self, batch)", "def get_cuda_visible_devices(self, rank)")
    p = tmp_path / "workers.rst"
    p.write_text(code, encoding="utf-8")
    found = check_paths([p], facts, tmp_path, {"lenient": True}).findings
    assert [(f.rule, f.line) for f in found] == [("python/override-signature", 17)]
    assert "`Scorer.get_cuda_visible_devices`" in found[0].message


def test_a_class_the_example_constructs_itself_may_take_its_own_arguments(write_page, facts) -> None:
    assert check(write_page, facts, TOOL + '\n\ntool = Lookup({"k": 1})\n') == []


# -- interactive sessions: judged as the code their prompts carry ------------------------------------------------
SESSION = """\
>>> import json
>>> record = {"step": 3}
>>> for key in record:
...     print(key)
...
step
>>> json.dumps(record)
'{"step": 3}'
>>> record
{
    'step': 3}
"""
BROKEN_SESSION = SESSION.replace('>>> record = {"step": 3}', '>>> record = = {"step": 3}')
# line 2 of the session has an `=` too many: an error of the parser, which reads past the prompts only after the fix


def _session_page(tmp_path: Path, form: str, code: str) -> tuple[Path, int]:
    """A page holding ``code`` the way each format writes a Python block, and the page line of its first line."""
    body = code.rstrip("\n")
    if form == "rst":
        indented = "\n".join(f"    {ln}" if ln else "" for ln in body.splitlines())
        text, first = f"Data\n====\n\n.. code-block:: python\n\n{indented}\n", 6
    elif form == "myst":
        text, first = f"# Data\n\n```{{code-block}} python\n{body}\n```\n", 4
    else:
        text, first = f"# Data\n\n```python\n{body}\n```\n", 4
    p = tmp_path / ("data.rst" if form == "rst" else "data.md")
    p.write_text(text, encoding="utf-8")
    return p, first


@pytest.mark.parametrize("form", ["rst", "myst", "markdown"])
def test_an_interactive_session_is_checked_as_the_code_it_carries(tmp_path: Path, facts, form: str) -> None:
    p, _ = _session_page(tmp_path, form, SESSION)
    report = check_paths([p], facts, tmp_path, {"lenient": True})
    assert report.findings == [] and report.checked == 1


@pytest.mark.parametrize("form", ["rst", "myst", "markdown"])
def test_a_broken_line_after_the_prompt_is_still_invalid_python(tmp_path: Path, facts, form: str) -> None:
    p, first = _session_page(tmp_path, form, BROKEN_SESSION)
    (f,) = check_paths([p], facts, tmp_path, {"lenient": True}).findings
    assert (f.rule, f.line) == ("python/syntax", first + 1)
    assert f.col == len(">>> record = =")  # the column on the prompt's line, prompt included


def test_a_verl_import_in_a_session_is_checked_at_its_page_column(write_page, facts) -> None:
    code = ">>> from verl.tools.base_tool import BaseTools\n>>> BaseTools\n<class 'BaseTools'>\n"
    (f,) = check(write_page, facts, code)
    assert f.rule == "python/verl-import" and "did you mean `BaseTool`" in f.message
    assert (f.line, f.col) == (4, 5)


def test_session_prompts_are_cut_and_output_blanked_line_for_line() -> None:
    code = ">>> xs = [1,\n...       2]\n>>> xs\n[1,\n...\n 2]\n"
    assert interactive_session(code) == (
        "xs = [1,\n      2]\nxs\n\n\n\n",
        [4, 4, 4, 0, 0, 0],  # the `...` after output is output (doctest's ellipsis), not a continuation
    )


def test_code_that_does_not_start_with_a_prompt_is_not_a_session() -> None:
    assert interactive_session("x = 1\n>>> y\n") is None


def test_prepare_fence_runs_the_code_a_session_carries(tmp_path: Path) -> None:
    info, content = prepare_fence('{ .python check="python" }', ">>> 1 + 1\n2\n", tmp_path)
    assert (info, content) == ('{ .python check="python" }', "1 + 1\n\n")
