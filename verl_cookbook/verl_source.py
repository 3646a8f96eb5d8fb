"""Where verl's source comes from: a release wheel (``pip download --no-deps``) or a checkout.

verl's code is only ever read as text here. Nothing under the tree is imported or executed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from verl_cookbook.releases import default_release

CACHE_ENV = "VERL_COOKBOOK_CACHE"
_VERSION_RE = re.compile(r"^[0-9]+(\.[0-9]+)*([a-z]+[0-9]*)?(\.post[0-9]+)?$")


class VerlSourceError(Exception):
    """verl's source could not be obtained or is not a verl tree (exit code 2)."""


@dataclass(frozen=True)
class VerlTree:
    """A verl source tree: ``root/verl/`` is the package."""

    root: Path
    label: str  # "0.9.1" for a release, the path for a checkout
    version: str | None  # what verl/version/version says, if present

    @property
    def package(self) -> Path:
        return self.root / "verl"

    def read(self, rel: str) -> str:
        """Text of ``rel`` (a path like ``verl/workers/config/rollout.py``)."""
        return (self.root / rel).read_text(encoding="utf-8", errors="replace")

    def exists(self, rel: str) -> bool:
        return (self.root / rel).is_file()


def cache_dir() -> Path:
    """The cache folder: $VERL_COOKBOOK_CACHE, else $XDG_CACHE_HOME/verl-cookbook, else ~/.cache/verl-cookbook."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "verl-cookbook"


def _read_version(root: Path) -> str | None:
    vfile = root / "verl" / "version" / "version"
    if vfile.is_file():
        return vfile.read_text(encoding="utf-8", errors="replace").strip() or None
    return None


def from_checkout(path: str | os.PathLike) -> VerlTree:
    """A checkout of verl or an unpacked wheel. ``path`` may be the repo root or its ``verl/`` folder."""
    p = Path(path).expanduser()
    if not p.is_dir():
        raise VerlSourceError(f"--verl-src {path}: not a directory")
    candidates = [p, p.parent] if p.name == "verl" else [p]
    for root in candidates:
        if (root / "verl" / "checkpoint_engine" / "base.py").is_file():
            return VerlTree(root=root.resolve(), label=str(path), version=_read_version(root))
    raise VerlSourceError(
        f"--verl-src {path}: not a verl source tree (expected verl/checkpoint_engine/base.py below it)"
    )


def _download_wheel(version: str, dest: Path) -> Path:
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "--disable-pip-version-check",
        "-q",
        "-d",
        str(dest),
        f"verl=={version}",
    ]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise VerlSourceError(f"--verl {version}: pip download failed: {e}") from None
    wheels = sorted(dest.glob("verl-*.whl"))
    if proc.returncode != 0 or not wheels:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no wheel downloaded"]
        raise VerlSourceError(f"--verl {version}: cannot obtain verl=={version} from the package index: {tail[0]}")
    return wheels[0]


def from_release(version: str | None = None) -> VerlTree:
    """verl release ``version`` (default: the pinned one), downloaded once and unpacked into the cache."""
    version = version or default_release()
    if version == "latest":
        version = latest_release()
    if not _VERSION_RE.match(version):
        raise VerlSourceError(f"--verl {version!r}: expected a release number such as 0.9.1")
    target = cache_dir() / "releases" / version
    if (target / "verl" / "checkpoint_engine" / "base.py").is_file():
        return VerlTree(root=target, label=version, version=_read_version(target) or version)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
            wheel = _download_wheel(version, Path(tmp))
            unpack = Path(tmp) / "tree"
            with zipfile.ZipFile(wheel) as zf:
                for name in zf.namelist():
                    # only the package itself; never anything that escapes the folder
                    if name.startswith("verl/") and ".." not in Path(name).parts:
                        zf.extract(name, unpack)
            if not (unpack / "verl" / "checkpoint_engine").is_dir():
                raise VerlSourceError(f"--verl {version}: the wheel has no verl/checkpoint_engine package")
            if target.exists():
                shutil.rmtree(target)
            unpack.rename(target)
    except OSError as e:
        raise VerlSourceError(f"--verl {version}: cannot write the cache at {target.parent}: {e}") from None
    except zipfile.BadZipFile as e:
        raise VerlSourceError(f"--verl {version}: the downloaded wheel is not a zip file: {e}") from None
    return VerlTree(root=target, label=version, version=_read_version(target) or version)


def latest_release() -> str:
    """The newest verl release on the package index (for a scheduled canary run)."""
    cmd = [sys.executable, "-m", "pip", "index", "versions", "verl", "--disable-pip-version-check"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise VerlSourceError(f"--verl latest: cannot ask the package index: {e}") from None
    m = re.search(r"^verl \(([^)]+)\)", proc.stdout, re.M)
    if proc.returncode != 0 or not m:
        raise VerlSourceError("--verl latest: the package index did not list verl's versions")
    return m.group(1)


def resolve(version: str | None = None, src: str | None = None) -> VerlTree:
    """The tree named on the command line: ``--verl-src DIR`` wins over ``--verl VERSION``."""
    if src:
        return from_checkout(src)
    return from_release(version)
