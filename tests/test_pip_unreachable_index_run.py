"""What pip prints when the index it is told to use cannot be reached, held by a run of pip itself: an index URL on a
closed local port stands in for an extra index the host cannot reach (vllm-ascend #1796: the reporter had added
Huawei Cloud's Ascend index, and pip failed because the host could not reach it). The troubleshooting page's
#pypi-missing-pins tells readers how to tell that from a version the index does not have.

Statements on the pages that a test here holds carry ``<!-- run: test_pip_unreachable_index_run.py::<test> -->``.
Offline: nothing leaves the machine. ``--isolated`` keeps the environment's pip settings (PIP_FIND_LINKS, a long
PIP_DEFAULT_TIMEOUT) out of the runs.
"""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

PIN = "torch-npu==2.5.1.post1.dev20250619"


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again when the block ends: connections to it are refused


def _download(tmp_path: Path, *source: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "pip", "download", "--isolated", "--no-deps", PIN, *source]
    cmd += ["--timeout", "5", "--retries", "1", "-d", str(tmp_path / "dl")]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def test_an_unreachable_index_gives_retrying_warnings_then_could_not_find_a_version_from_versions_none(tmp_path):
    r = _download(tmp_path, "--index-url", f"http://127.0.0.1:{_closed_port()}/ascend/repos/pypi")
    out = r.stdout + r.stderr
    assert r.returncode != 0
    assert "WARNING: Retrying (" in out and "after connection broken by" in out
    assert f"ERROR: Could not find a version that satisfies the requirement {PIN} (from versions: none)" in out
    assert f"ERROR: No matching distribution found for {PIN}" in out


def test_a_reachable_source_without_the_version_lists_the_versions_it_has_and_does_not_retry(tmp_path):
    links = tmp_path / "links"
    links.mkdir()
    (links / "torch_npu-2.5.1-py3-none-any.whl").write_bytes(b"")
    r = _download(tmp_path, "--no-index", "--find-links", str(links))
    out = r.stdout + r.stderr
    assert r.returncode != 0
    assert "Retrying (" not in out
    assert f"ERROR: Could not find a version that satisfies the requirement {PIN} (from versions: 2.5.1)" in out
