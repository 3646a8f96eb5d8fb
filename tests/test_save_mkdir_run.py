"""The troubleshooting entry on ``Failed to acquire lock for …: [Errno 30] Read-only file system`` (verl #3354), held by
a run of verl 0.9.1's own ``local_mkdir_safe`` (verl/utils/fs.py) in the startup environment.

In a private user and mount namespace (``unshare -rm``, no root needed) a tmpfs is mounted read-only and a writable
tmpfs is mounted on a folder inside it, as a read-only top folder with a writable storage below it.
``local_mkdir_safe`` then creates ``global_step_1/actor`` under the writable folder without touching the read-only
parent, and under a folder that does not exist it prints the lock warning naming that first missing folder and raises
``OSError`` (errno 30). Nothing is mounted outside the namespace, which ends with the command.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile

import pytest

from tests import helpers
from tests.conftest import REPO

PAGES = [REPO / "docs" / "recipes" / f"troubleshooting{s}.md" for s in ("", ".en")]

CODE = """
import json, sys
from verl.utils.fs import local_mkdir_safe
out = []
for p in sys.argv[1:]:
    try:
        out.append({"path": local_mkdir_safe(p), "error": None})
    except OSError as e:
        out.append({"path": p, "error": [e.errno, e.strerror]})
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def run() -> tuple[str, list[dict], str]:
    base = tempfile.mkdtemp(prefix="save-mkdir-")
    try:
        top = os.path.join(base, "fsx")
        os.makedirs(top)
        script = os.path.join(base, "run.py")
        with open(script, "w", encoding="utf-8") as f:
            f.write(CODE)
        shell = (
            f'mount -t tmpfs tmpfs "{top}" && mkdir "{top}/mine" && mount -o remount,ro "{top}" '
            f'&& mount -t tmpfs tmpfs "{top}/mine" && exec "$0" "{script}" '
            f'"{top}/mine/global_step_1/actor" "{top}/missing/global_step_1/actor"'
        )
        r = subprocess.run(
            ["unshare", "-rm", "--propagation", "private", "sh", "-c", shell, helpers.startup_python("0.9.1")],
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, "OMP_NUM_THREADS": "1"},
        )
        assert r.returncode == 0, r.stderr[-3000:]
        return top, json.loads(r.stdout.strip().splitlines()[-1]), r.stdout
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_under_an_existing_writable_folder_the_read_only_parent_is_not_written(run) -> None:
    top, results, out = run
    assert results[0] == {"path": f"{top}/mine/global_step_1/actor", "error": None}
    assert f"Failed to acquire lock for {top}/mine" not in out


def test_under_a_missing_folder_the_lock_warning_names_that_folder_then_oserror_30(run) -> None:
    top, results, out = run
    assert results[1]["error"] == [30, "Read-only file system"]
    assert (
        f"Warning: Failed to acquire lock for {top}/missing/global_step_1/actor: "
        f"[Errno 30] Read-only file system: '{top}/missing'"
    ) in out
    for page in PAGES:
        assert "Failed to acquire lock for" in page.read_text(encoding="utf-8"), page
