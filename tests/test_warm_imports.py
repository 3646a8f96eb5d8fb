"""A warm ``verl-cookbook check`` (facts and page results cached) imports none of the parsers and judges.

It replays cached results, so it needs neither Hydra, OmegaConf, jsonschema, markdown-it, tree-sitter nor the
fact families; importing them is what made a warm run 10x a bare interpreter start (issue 13). Nor does it start a
process, compare versions (``packaging``) or run install snippets.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from verl_cookbook.facts import Facts

HEAVY = (
    "hydra",
    "omegaconf",
    "jsonschema",
    "markdown_it",
    "tree_sitter",
    "filelock",
    "packaging",
    "subprocess",
    "verl_cookbook.checks",
    "verl_cookbook.markdown",
    "verl_cookbook.shell",
    "verl_cookbook.facts.compose",
    "verl_cookbook.facts.env",
    "verl_cookbook.install_run",
)

PAGE = """# A page

``` {.yaml check="defaults" root="actor_rollout_ref.rollout.checkpoint_engine"}
backend: naive
```

``` {.bash check="shell"}
echo "$HOME"
```
"""

PROBE = """
import atexit, json, runpy, sys
{prelude}
def report():  # at exit, after the command has run to its end (it leaves by SystemExit)
    heavy = sorted(m for m in sys.modules if m.split(".")[0] in {tops} or m.startswith({prefixes}))
    print(json.dumps({{"heavy": heavy}}))
atexit.register(report)
sys.argv = ["verl-cookbook", "check", sys.argv[1], "--root", sys.argv[2]]
runpy.run_module("verl_cookbook", run_name="__main__")
"""


def _run(tmp_path: Path, prelude: str = "") -> dict:
    page = tmp_path / "docs" / "page.md"
    page.parent.mkdir(exist_ok=True)
    page.write_text(PAGE, encoding="utf-8")
    tops = {m for m in HEAVY if "." not in m}
    prefixes = tuple(m for m in HEAVY if "." in m)
    code = PROBE.format(prelude=prelude, tops=sorted(tops), prefixes=prefixes)
    args = [sys.executable, "-c", code, str(page), str(tmp_path)]
    out = subprocess.run(args, capture_output=True, text=True, check=False)
    return {"code": out.returncode, **json.loads(out.stdout.strip().splitlines()[-1])}


def test_warm_check_imports_no_parser_or_judge(tmp_path: Path, facts: Facts) -> None:
    first = _run(tmp_path)  # a cold page: the checks run and their result is cached
    assert first["code"] == 0
    assert "verl_cookbook.checks" in first["heavy"]  # the probe sees what a run imports
    warm = _run(tmp_path)
    assert warm == {"code": 0, "heavy": []}


def test_the_probe_sees_an_eager_import(tmp_path: Path, facts: Facts) -> None:
    _run(tmp_path)
    warm = _run(tmp_path, prelude="import verl_cookbook.checks.config.checker")
    assert "verl_cookbook.checks.config.checker" in warm["heavy"] and "markdown_it" in warm["heavy"]
