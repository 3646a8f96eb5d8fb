"""Build the site once per test session (``mkdocs build --strict``) for the site, link and browser tests."""

from __future__ import annotations

import atexit
import functools
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


@functools.cache
def _build_once() -> BuiltSite | SiteBuildError:
    tmp = Path(tempfile.mkdtemp(prefix="verl-cookbook-site-"))
    atexit.register(shutil.rmtree, tmp, True)
    # another config (e.g. one that INHERITs mkdocs.yml with a trimmed nav) while pages are being written
    config = Path(os.environ.get("VERL_COOKBOOK_MKDOCS_CONFIG", REPO / "mkdocs.yml"))
    try:
        return mkdocs_build(tmp / "site", config)
    except SiteBuildError as e:  # remembered, so a broken build fails every test once, not rebuilds per test
        return e


def built_site() -> BuiltSite:
    """The repository's site, built once per process into a temporary folder."""
    result = _build_once()
    if isinstance(result, SiteBuildError):
        raise result
    return result
