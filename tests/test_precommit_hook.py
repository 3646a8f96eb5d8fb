"""The pre-commit hook other repositories (verl) adopt: its entry, run in a verl checkout, on a docs page."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO
from tests.helpers import fence
from verl_cookbook.verl_source import VerlTree

HOOKS = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
(HOOK,) = [h for h in HOOKS if h["id"] == "verl-cookbook-check"]

GOOD = "# Sync\n\n" + fence(
    "checkpoint_engine:\n  backend: nccl\n", '{ .yaml check="config" root="actor_rollout_ref.rollout" device="npu" }'
)
BAD = "# Sync\n\n" + fence(
    "checkpoint_engine:\n  backend: hccl\n", '{ .yaml check="config" root="actor_rollout_ref.rollout" device="npu" }'
)
UNDECLARED = "# Sync\n\n" + fence(
    "actor_rollout_ref:\n  rollout:\n    checkpoint_engine:\n      backend: hccl\n", "yaml"
)


@pytest.fixture(scope="module")
def checkout(verl_tree: VerlTree, tmp_path_factory) -> Path:
    """A verl checkout (the pinned release's package, copied once): the hook only adds pages under docs/."""
    root = tmp_path_factory.mktemp("verl-checkout")
    shutil.copytree(verl_tree.root / "verl", root / "verl")
    (root / "verl" / "checkpoint_engine" / "README.md").write_text("# Checkpoint engine\n")  # as in verl's repo
    return root


def _run_hook(checkout: Path, page_text: str, args: list[str] | None = None) -> subprocess.CompletedProcess:
    """What pre-commit does: the entry, the hook's args, then the staged files that match ``files``."""
    page = checkout / "docs" / "ckpt" / "weight_sync.md"
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(page_text)
    rel = str(page.relative_to(checkout))
    assert re.search(HOOK["files"], rel), f"the hook's files pattern does not select {rel}"
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    argv = [*shlex.split(HOOK["entry"]), *(args or HOOK.get("args", [])), rel]
    return subprocess.run(argv, cwd=checkout, env=env, capture_output=True, text=True, timeout=120)


def test_hook_is_a_python_hook_on_markdown_files():
    assert HOOK["language"] == "python"
    assert HOOK["entry"] == "verl-cookbook check --verl-src ."
    assert re.search(HOOK["files"], "docs/a.md") and not re.search(HOOK["files"], "verl/a.py")
    assert re.search(HOOK["files"], "docs/a.rst")  # verl's Sphinx pages are read too


def test_good_page_in_a_verl_checkout_passes(checkout: Path):
    proc = _run_hook(checkout, GOOD)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_bad_page_in_a_verl_checkout_fails_with_page_line(checkout: Path):
    proc = _run_hook(checkout, BAD)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "docs/ckpt/weight_sync.md:5:" in proc.stdout and "engine/unknown-backend" in proc.stdout
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(("args", "code"), [([], 1), (["--lenient"], 1)])
def test_undeclared_page_fails_strictly_and_is_judged_with_lenient(checkout: Path, args, code):
    proc = _run_hook(checkout, UNDECLARED, args)
    assert proc.returncode == code, proc.stdout + proc.stderr
    expected = "engine/unknown-backend" if args else "snippet/undeclared"
    assert expected in proc.stdout


def _verl_cookbook_commands(workflow: Path) -> list[list[str]]:
    steps = [s for job in yaml.safe_load(workflow.read_text())["jobs"].values() for s in job["steps"]]
    runs = [shlex.split(s["run"]) for s in steps if "run" in s]
    return [argv[1:] for argv in runs if argv and argv[0] == "verl-cookbook"]


@pytest.mark.parametrize("workflow", ["snippets/tools/verl-docs-drift.yml", ".github/workflows/canary.yml"])
def test_workflows_call_the_cli_with_options_it_has(workflow):
    from verl_cookbook.cli import build_parser

    commands = _verl_cookbook_commands(REPO / workflow)
    assert commands, f"{workflow} never runs verl-cookbook"
    for argv in commands:
        build_parser().parse_args(argv)  # exits 2 on an unknown option


def test_verl_ci_workflow_command_passes_on_its_baseline_and_fails_naming_only_a_new_error(checkout: Path):
    """The workflow as documented on a push to main (``$CHANGED`` empty): with a baseline written at the commit the
    checker is adopted on, it exits 0; a new error planted on another page fails it and is the only one named."""
    (argv,) = _verl_cookbook_commands(REPO / "snippets/tools/verl-docs-drift.yml")
    argv = [a for a in argv if a != "$CHANGED"]
    assert "--baseline" in argv
    write = [("--write-baseline" if a == "--baseline" else a) for a in argv]
    page = checkout / "docs" / "ckpt" / "weight_sync.md"
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(UNDECLARED)  # the debt already there when the checker is adopted
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}

    def run(args: list[str]) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["verl-cookbook", *args], cwd=checkout, env=env, capture_output=True, text=True, timeout=120
        )

    try:
        assert run(write).returncode == 0
        proc = run(argv)
        assert (proc.returncode, proc.stdout) == (0, ""), proc.stdout + proc.stderr
        (checkout / "docs" / "ckpt" / "new_page.md").write_text(UNDECLARED)
        proc = run(argv)
        assert proc.returncode == 1, proc.stdout + proc.stderr
        assert proc.stdout.startswith("::error file=docs/ckpt/new_page.md,line=7,")
        assert "weight_sync.md" not in proc.stdout
    finally:
        (checkout / "docs" / "ckpt" / "new_page.md").unlink(missing_ok=True)
        (checkout / ".verl-cookbook-baseline.json").unlink(missing_ok=True)


@pytest.mark.parametrize("name", ["pre-commit-local.yaml", "pre-commit-local.zh.yaml"])
def test_the_local_hook_runs_what_the_published_hook_runs_with_the_pages_arguments(name):
    """Until the release tag exists, verl-ci's page offers a `repo: local` hook: same command, files and
    serial run as .pre-commit-hooks.yaml's hook, with the arguments the tagged snippet passes."""
    published = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))[0]
    tagged = yaml.safe_load((REPO / "snippets/tools/pre-commit-config.yaml").read_text(encoding="utf-8"))
    (local,) = yaml.safe_load((REPO / "snippets/tools" / name).read_text(encoding="utf-8"))["repos"]
    (hook,) = local["hooks"]
    assert local["repo"] == "local" and hook["id"] == published["id"] and hook["language"] == "system"
    assert hook["entry"].split() == published["entry"].split() + tagged["repos"][0]["hooks"][0]["args"]
    assert hook["files"] == published["files"] and hook["require_serial"] is published["require_serial"]
