"""GitHub Actions workflows parse and are wired as the docs say (actionlint is not installable from a registry
here: its PyPI wrapper downloads the binary from GitHub at build time, so these structural checks stand in)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.y*ml"))
_LOCAL_SCRIPT = re.compile(r"\bbash (scripts/[\w./-]+\.sh)")


def load(path: Path) -> dict:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    # YAML 1.1 reads the key `on` as True
    if True in data:
        data["on"] = data.pop(True)
    return data


def problems(wf: dict, repo: Path = REPO) -> list[str]:
    """What actionlint would catch first: missing keys, steps with neither uses nor run, missing scripts."""
    out = []
    for key in ("name", "on", "jobs"):
        if key not in wf:
            out.append(f"missing top-level `{key}`")
    for job_id, job in (wf.get("jobs") or {}).items():
        if "runs-on" not in job:
            out.append(f"job {job_id}: no runs-on")
        for i, step in enumerate(job.get("steps") or [], 1):
            has = [k for k in ("uses", "run") if k in step]
            if len(has) != 1:
                out.append(f"job {job_id} step {i}: needs exactly one of uses/run, has {has or 'neither'}")
            if "uses" in step and not re.match(r"^[\w.-]+/[\w./-]+@[\w.-]+$", step["uses"]):
                out.append(f"job {job_id} step {i}: `uses: {step['uses']}` is not owner/repo@ref")
            for script in _LOCAL_SCRIPT.findall(step.get("run", "")):
                if not (repo / script).is_file():
                    out.append(f"job {job_id} step {i}: runs {script}, which does not exist")
    return out


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_workflow_is_well_formed(path):
    assert problems(load(path)) == []


def test_a_broken_workflow_is_reported():
    wf = {
        "on": "push",
        "jobs": {"j": {"steps": [{"name": "x"}, {"uses": "checkout"}, {"run": "bash scripts/nope.sh"}]}},
    }
    assert problems(wf) == [
        "missing top-level `name`",
        "job j: no runs-on",
        "job j step 1: needs exactly one of uses/run, has neither",
        "job j step 2: `uses: checkout` is not owner/repo@ref",
        "job j step 3: runs scripts/nope.sh, which does not exist",
    ]


def test_publish_runs_the_checks_before_deploying_with_mike_to_gh_pages():
    wf = load(REPO / ".github" / "workflows" / "publish.yml")
    assert wf["permissions"]["contents"] == "write"
    runs = [s.get("run", "") for s in wf["jobs"]["publish"]["steps"]]
    test_at = next(i for i, r in enumerate(runs) if "scripts/test.sh" in r)
    deploy_at = next(i for i, r in enumerate(runs) if "scripts/deploy_docs.sh --push" in r)
    assert test_at < deploy_at
    assert "install.sh" in " ".join(runs[:test_at])
    deploy = (REPO / "scripts" / "deploy_docs.sh").read_text()
    assert "mike deploy" in deploy and "--update-aliases" in deploy and "latest" in deploy


def test_ci_runs_the_test_script_on_every_pull_request_and_branch_push():
    wf = load(REPO / ".github" / "workflows" / "ci.yml")
    assert "pull_request" in wf["on"]
    assert "push" in wf["on"]
    assert wf["on"]["push"].get("branches-ignore") == ["main"]  # main: publish.yml runs the same script
    runs = [s.get("run", "") for job in wf["jobs"].values() for s in job["steps"]]
    test_at = next(i for i, r in enumerate(runs) if "bash scripts/test.sh" in r)
    assert any("bash scripts/install.sh" in r for r in runs[:test_at])
    publish = load(REPO / ".github" / "workflows" / "publish.yml")
    assert publish["on"]["push"]["branches"] == ["main"]


def _pinned_ruff() -> str:
    """The one ruff version every extra of pyproject.toml pins (read as text: tomllib is Python 3.11+, the package
    supports 3.10); the docs extra needs ruff too (mkdocstrings formats signatures with it), at the same version."""
    pins = set(re.findall(r'^\s*"(ruff\b[^"]*)"', (REPO / "pyproject.toml").read_text(encoding="utf-8"), re.M))
    assert len(pins) == 1 and re.fullmatch(r"ruff==[0-9.]+", next(iter(pins))), pins
    return next(iter(pins)).split("==")[1]


def test_pre_commit_runs_the_ruff_that_the_test_extra_pins():
    config = yaml.safe_load((REPO / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    revs = [r["rev"] for r in config["repos"] if r["repo"].endswith("/ruff-pre-commit")]
    assert revs == [f"v{_pinned_ruff()}"]


def test_the_environment_runs_the_pinned_ruff():
    import importlib.metadata

    assert importlib.metadata.version("ruff") == _pinned_ruff(), "reinstall: bash scripts/install.sh"
