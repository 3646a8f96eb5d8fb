"""Versioned deploys with mike: the documented command, run twice in a throwaway git repository."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DEPLOY = REPO / "scripts" / "deploy_docs.sh"

TINY_SITE = """site_name: tiny
theme:
  name: material
  font: false
extra:
  version:
    provider: mike
    default: latest
"""


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository holding a tiny mkdocs site with mike as version provider (no network, no remote)."""
    r = tmp_path / "repo"
    (r / "docs").mkdir(parents=True)
    (r / "mkdocs.yml").write_text(TINY_SITE)
    (r / "docs" / "index.md").write_text("# tiny\n")
    git(r, "init", "-q", "-b", "main")
    git(r, "config", "user.email", "test@example.invalid")
    git(r, "config", "user.name", "test")
    git(r, "add", ".")
    git(r, "commit", "-q", "-m", "site")
    return r


def deploy(repo: Path, version: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_COMMITTER_NAME": "t"}
    # this venv's mike, whether or not the venv is activated
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(["bash", str(DEPLOY), version], cwd=repo, capture_output=True, text=True, env=env)


def test_two_deploys_keep_both_versions_and_move_latest(repo):
    for v in ("0.9.0", "0.9.1"):
        proc = deploy(repo, v)
        assert proc.returncode == 0, proc.stderr
    versions = json.loads(git(repo, "show", "gh-pages:versions.json"))
    by_version = {v["version"]: v["aliases"] for v in versions}
    assert by_version == {"0.9.1": ["latest"], "0.9.0": []}
    assert versions[0]["version"] == "0.9.1", "the newest version is listed first"
    tree = git(repo, "ls-tree", "--name-only", "gh-pages").split()
    assert {"0.9.0", "0.9.1", "latest", "versions.json", "index.html"} <= set(tree)
    assert "latest/" in git(repo, "show", "gh-pages:index.html"), "the site root redirects to latest"
    assert "tiny" in git(repo, "show", "gh-pages:0.9.0/index.html")


def test_deploying_an_older_release_after_a_newer_one_leaves_latest_on_the_newest(repo):
    """Republishing 0.9.0's docs after 0.9.1's must not move `latest` back (review42j-1): the page says `latest`
    points at the newest version."""
    for v in ("0.9.1", "0.9.0"):
        proc = deploy(repo, v)
        assert proc.returncode == 0, proc.stderr
    assert "latest stays at 0.9.1" in proc.stderr
    versions = json.loads(git(repo, "show", "gh-pages:versions.json"))
    assert {v["version"]: v["aliases"] for v in versions} == {"0.9.1": ["latest"], "0.9.0": []}


def test_deploy_outside_a_site_says_where_to_run_it(tmp_path):
    proc = subprocess.run(["bash", str(DEPLOY), "1.0"], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 2 and "mkdocs.yml" in proc.stderr
