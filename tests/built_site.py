"""Build the site once per test run (``mkdocs build --strict``) for the site, link and browser tests.

Under pytest-xdist the workers share one build: the first to ask builds it into the run's shared folder (named by
``VERL_COOKBOOK_TEST_RUN_DIR``, made and removed by the controlling process, see conftest.py) under a file lock, and
the others wait for it and read the same folder; the tests only read the built site (or copy it). Without that
folder (the module used on its own) each process builds its own."""

from __future__ import annotations

import atexit
import fcntl
import functools
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class BuiltSite:
    path: Path  # the built site: 中文 at the top, English under en/
    log: str  # mkdocs' log output
    seconds: float  # wall time of the build
    cpu_seconds: float = 0.0  # user + system time of the build process (what load on a shared machine hides)


class SiteBuildError(AssertionError):
    pass


def mkdocs_build(dest: Path, config: Path = REPO / "mkdocs.yml") -> BuiltSite:
    """``mkdocs build --strict`` into ``dest``; SiteBuildError with mkdocs' log when it fails."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(dest)],
        cwd=REPO,
        capture_output=True,
        text=True,
        env=env,
        timeout=1800,  # against a hung build only: under a load of 20 on two cores a build takes minutes
    )
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    log = proc.stdout + proc.stderr
    if proc.returncode != 0:
        problems = [line for line in log.splitlines() if "WARNING" in line or "ERROR" in line]
        raise SiteBuildError("mkdocs build --strict failed:\n" + "\n".join(problems or log.splitlines()[-30:]))
    return BuiltSite(dest, log, seconds, cpu)


def _build_into(folder: Path, config: Path) -> BuiltSite | SiteBuildError:
    try:
        return mkdocs_build(folder / "site", config)
    except SiteBuildError as e:  # remembered, so a broken build fails every test once, not rebuilds per test
        return e


def _build_shared(run_dir: Path, config: Path) -> BuiltSite | SiteBuildError:
    """The run's one build of ``config``: made by the first process to ask, read back by the others."""
    folder = run_dir / ("site-" + hashlib.sha256(str(config.resolve()).encode()).hexdigest()[:12])
    folder.mkdir(exist_ok=True)
    outcome = folder / "outcome.json"
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # held while building: the others wait here, then read the outcome
        if not outcome.exists():
            result = _build_into(folder, config)
            record = (
                {"error": str(result)}
                if isinstance(result, SiteBuildError)
                else {"log": result.log, "seconds": result.seconds, "cpu_seconds": result.cpu_seconds}
            )
            outcome.write_text(json.dumps(record), encoding="utf-8")
    record = json.loads(outcome.read_text(encoding="utf-8"))
    if "error" in record:
        return SiteBuildError(record["error"])
    return BuiltSite(folder / "site", record["log"], record["seconds"], record["cpu_seconds"])


@functools.cache
def _build_once() -> BuiltSite | SiteBuildError:
    # another config (e.g. one that INHERITs mkdocs.yml with a trimmed nav) while pages are being written
    config = Path(os.environ.get("VERL_COOKBOOK_MKDOCS_CONFIG", REPO / "mkdocs.yml"))
    run_dir = os.environ.get("VERL_COOKBOOK_TEST_RUN_DIR")
    if run_dir and Path(run_dir).is_dir():
        return _build_shared(Path(run_dir), config)
    tmp = Path(tempfile.mkdtemp(prefix="verl-cookbook-site-"))
    atexit.register(shutil.rmtree, tmp, True)
    return _build_into(tmp, config)


def built_site() -> BuiltSite:
    """The repository's site, built once per test run (once per process outside a test run)."""
    result = _build_once()
    if isinstance(result, SiteBuildError):
        raise result
    return result
