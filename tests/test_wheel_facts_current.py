"""The committed wheel snapshot is what the package index serves today (pip download + dry-run, ~20 s with a warm
pip cache, ~140 MB on a cold one: the vLLM wheels the delta-sync page reads are checked by the file and sha256 pip
picks, without a download). Runs everywhere the suite runs: CI reaches PyPI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_wheel_snapshot_matches_the_package_index() -> None:
    r = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "refresh_wheel_facts.py"), "--check"],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert r.returncode == 0, f"the index moved under the snapshot:\n{r.stdout}{r.stderr}"
