"""The Hugging Face login command of the model-merger recipe, run with the huggingface_hub verl 0.9.1 installs.

The page tells users to log in with ``hf auth login`` before ``--hf_upload_path`` (snippets/recipes/
hf_auth_login.sh). Which huggingface_hub a verl 0.9.1 install gets is pip's answer in
``verl_cookbook/snapshots/resolver.json`` (the ``verl==0.9.1`` combination); the startup environment
(scripts/startup_env.sh) holds that release, and its ``hf`` parses every ``hf …`` line of the snippet with
``--help`` appended: no network, no token, nothing written but a throwaway HOME. A renamed or removed subcommand
fails here. The old ``huggingface-cli`` of the same release is run too, to hold the page's statement that it no
longer works.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
from pathlib import Path

from tests import helpers
from tests.conftest import REPO

VERSION = "0.9.1"
SNIPPET = REPO / "snippets" / "recipes" / "hf_auth_login.sh"
PAGES = (REPO / "docs" / "recipes" / "model-merger.md", REPO / "docs" / "recipes" / "model-merger.en.md")
RESOLVER = REPO / "verl_cookbook" / "snapshots" / "resolver.json"
MARKER = re.compile(r"<!-- run: test_hf_cli_run\.py::(\w+) -->")


def _bin() -> Path:
    return Path(helpers.startup_python(VERSION)).parent


def _run(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, HOME=str(tmp_path), HF_HUB_OFFLINE="1", HF_HUB_DISABLE_TELEMETRY="1", NO_COLOR="1")
    env.pop("HF_TOKEN", None)
    return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)


def _resolved_hub_version() -> str:
    """The huggingface_hub pip installs with verl 0.9.1 (pip's answer, committed)."""
    combos = json.loads(RESOLVER.read_text(encoding="utf-8"))["combinations"]
    ours = [c for c in combos.values() if c["pins"].startswith(f"verl=={VERSION}") and "installs" in c]
    installs = ours[0]["installs"]
    return next(p.split("==")[1] for p in installs if p.lower().replace("-", "_").startswith("huggingface_hub=="))


def test_the_startup_environment_holds_the_huggingface_hub_verl_installs(tmp_path):
    python = helpers.startup_python(VERSION)
    r = _run(tmp_path, python, "-c", "import huggingface_hub; print(huggingface_hub.__version__)")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == _resolved_hub_version(), "rebuild the startup environment: scripts/startup_env.sh"


def _hf_lines() -> list[list[str]]:
    lines = [shlex.split(line) for line in SNIPPET.read_text(encoding="utf-8").splitlines()]
    commands = [argv for argv in lines if argv and argv[0] == "hf"]
    assert commands, f"{SNIPPET.name} has no hf command"
    return commands


def test_the_pages_hf_login_command_parses_in_the_huggingface_hub_verl_installs(tmp_path):
    for argv in _hf_lines():
        r = _run(tmp_path, str(_bin() / "hf"), *argv[1:], "--help")
        assert r.returncode == 0, f"`{shlex.join(argv)}` is refused by hf {_resolved_hub_version()}:\n{r.stderr}"
        assert "--token" in r.stdout, r.stdout


def test_a_misspelt_hf_subcommand_is_refused(tmp_path):
    """The run above can fail: hf exits non-zero on a subcommand it does not have."""
    r = _run(tmp_path, str(_bin() / "hf"), "auth", "logn", "--help")
    assert r.returncode != 0 and "No such command" in r.stderr + r.stdout


def test_huggingface_cli_login_no_longer_works(tmp_path):
    r = _run(tmp_path, str(_bin() / "huggingface-cli"), "login", "--help")
    assert r.returncode != 0
    assert "no longer works" in r.stdout + r.stderr


# -- the page and the tests stay in step ----------------------------------------------------------------------
PAGE_TESTS = {
    "test_the_pages_hf_login_command_parses_in_the_huggingface_hub_verl_installs",
    "test_huggingface_cli_login_no_longer_works",
}


def _markers(page: Path) -> list[str]:
    return MARKER.findall(page.read_text(encoding="utf-8"))


def test_both_languages_mark_the_statements_these_runs_hold():
    zh, en = (_markers(p) for p in PAGES)
    assert zh == en, "the two languages mark different statements"
    assert set(zh) == PAGE_TESTS, f"marked: {sorted(set(zh))}"
