"""Where verl's source comes from: a release wheel (``pip download --no-deps``) or a checkout.

verl's code is only ever read as text here. Nothing under the tree is imported or executed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # subprocess, tempfile and zipfile are imported where a release is downloaded
    import subprocess

from verl_cookbook.releases import default_release

CACHE_ENV = "VERL_COOKBOOK_CACHE"
PACKAGE_DIR = Path(__file__).resolve().parent
_VERSION_RE = re.compile(r"^[0-9]+(\.[0-9]+)*([a-z]+[0-9]*)?(\.post[0-9]+)?$")


class VerlSourceError(Exception):
    """verl's source could not be obtained or is not a verl tree (exit code 2)."""


class VerlTooOldError(VerlSourceError):
    """A release from before verl's checkpoint engine: no download or copy of it helps (no ways out)."""


class VerlTree(NamedTuple):
    """A verl source tree: ``root/verl/`` is the package (immutable, compared and hashed by its fields).

    A *shipped* tree (``listing`` set) holds only what this package ships of a covered release (its config YAML
    and the few files ``doctor`` reads, see `SHIPPED_SOURCES`); ``listing`` names every file of the release,
    so `exists` answers for the whole release. A check that must read a file it does not hold asks
    ``Facts.source_tree`` for the whole release."""

    root: Path
    label: str  # "0.9.1" for a release, the path for a checkout
    version: str | None  # what verl/version/version says, if present
    listing: frozenset[str] | None = None  # a shipped tree: every file of the release; None: a whole tree

    @property
    def package(self) -> Path:
        return self.root / "verl"

    @property
    def whole(self) -> bool:
        return self.listing is None

    def read(self, rel: str) -> str:
        """Text of ``rel`` (a path like ``verl/workers/config/rollout.py``)."""
        return (self.root / rel).read_text(encoding="utf-8", errors="replace")

    def exists(self, rel: str) -> bool:
        if self.listing is not None:
            return rel in self.listing
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
    """Return the source tree of a verl checkout or an unpacked wheel.

    Args:
        path: the repository root, or its ``verl/`` folder.

    Returns:
        The `VerlTree` of that checkout, with the version read from its files.

    Raises:
        VerlSourceError: ``path`` is not a directory, or holds no ``verl/checkpoint_engine/base.py``.
    """
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


# Every verl release has these; a tree without one of them is not (or no longer) a whole verl tree.
CORE_FILES = (
    "verl/checkpoint_engine/__init__.py",
    "verl/checkpoint_engine/base.py",  # the checkpoint-engine registry
    "verl/trainer/config/ppo_trainer.yaml",
    "verl/trainer/config/_generated_ppo_trainer.yaml",
)
MANIFEST = ".verl-cookbook-manifest.json"  # every file unpacked from the wheel, with its size
PIP_DEADLINE = 300  # seconds for the whole `pip download`; pip's own --timeout/--retries apply per request
LOCK_DEADLINE = PIP_DEADLINE + 120  # seconds to wait for another process that is downloading the same release
_NET_ERROR_RE = re.compile(
    r"(ReadTimeout|ConnectTimeout|timed out|Timeout|NewConnectionError|ConnectionError|ProxyError|SSLError|"
    r"Connection refused|Name or service not known|Temporary failure in name resolution|HTTP error \d+)"
)
_RETRY_RE = re.compile(r"^WARNING: Retrying \(Retry\([^)]*\)\) after ")


def missing_core_files(root: Path) -> list[str]:
    """The files of `CORE_FILES` that ``root`` lacks."""
    return [rel for rel in CORE_FILES if not (root / rel).is_file()]


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a concurrent reader sees the old file or the new one, never a part."""
    path.parent.mkdir(parents=True, exist_ok=True)
    while True:  # a name no other process uses (the pid) nor this one (random bytes): O_EXCL makes sure
        tmp = path.parent / f".{path.name}.{os.getpid()}.{os.urandom(6).hex()}.tmp"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _pip_failure(version: str, proc: subprocess.CompletedProcess) -> str:
    """The package index's own words for why ``pip download`` failed: the network error if there was one."""
    lines = [ln.strip() for ln in (proc.stderr or "").splitlines() + (proc.stdout or "").splitlines() if ln.strip()]
    net = [_RETRY_RE.sub("", ln) for ln in lines if _NET_ERROR_RE.search(ln)]
    errors = [ln for ln in lines if ln.startswith("ERROR")]
    parts = []
    if net:
        parts.append(net[-1])
    if errors and errors[-1] not in parts:
        parts.append(errors[-1])
    if not parts:
        parts = lines[-1:] or ["no wheel downloaded"]
    return f"--verl {version}: cannot obtain verl=={version} from the package index: " + " | ".join(parts)


def _download_wheel(version: str, dest: Path) -> Path:
    import subprocess  # here, not at the top: a run that finds the release unpacked never starts pip

    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "--disable-pip-version-check",  # not -q: pip's "Retrying … ReadTimeoutError" warnings name a stall
        "-d",
        str(dest),
        f"verl=={version}",
    ]
    print(f"verl-cookbook: downloading verl {version} from the package index (pip download) …", file=sys.stderr)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=PIP_DEADLINE)
    except subprocess.TimeoutExpired:
        raise VerlSourceError(
            f"--verl {version}: pip download of verl=={version} stalled: no wheel after {PIP_DEADLINE} s "
            "(timeout talking to the package index; check the network or PIP_INDEX_URL)"
        ) from None
    except OSError as e:
        raise VerlSourceError(f"--verl {version}: pip download failed: {e}") from None
    wheels = sorted(dest.glob("verl-*.whl"))
    if proc.returncode != 0 or not wheels:
        raise VerlSourceError(_pip_failure(version, proc))
    return wheels[0]


def _is_whole(target: Path) -> bool:
    """``target`` is a release tree unpacked completely: every file of its manifest is there, at its size."""
    try:
        manifest = json.loads((target / MANIFEST).read_text(encoding="utf-8"))
        files = manifest["files"]
        for rel, size in files.items():
            if os.stat(target / rel).st_size != size:
                return False
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False
    return bool(files) and not missing_core_files(target)


def _unpack(version: str, wheel: Path, unpack: Path) -> None:
    import zipfile

    files: dict[str, int] = {}
    with zipfile.ZipFile(wheel) as zf:
        for info in zf.infolist():
            name = info.filename
            # only the package itself; never anything that escapes the folder
            if name.startswith("verl/") and ".." not in Path(name).parts and not info.is_dir():
                zf.extract(info, unpack)
                files[name] = info.file_size
    missing = missing_core_files(unpack)
    # verl/checkpoint_engine/ first appears at v0.7.1 (git ls-tree v0.7.0 verl/checkpoint_engine/ is empty;
    # v0.7.1 has verl/checkpoint_engine/base.py). A verl package with no file of it at all is a release from before
    # it, whatever else that older release lacks (0.4.1 has no _generated_ppo_trainer.yaml either): no copy of it helps.
    if files and not any(name.startswith("verl/checkpoint_engine/") for name in files):
        raise VerlTooOldError(
            f"--verl {version}: this release has no verl/checkpoint_engine/ (verl's checkpoint engine first shipped "
            "in 0.7.1), so there is nothing for this checker to read: use 0.7.1 or later"
        )
    if missing:
        raise VerlSourceError(f"--verl {version}: the wheel is not a whole verl release: it lacks {', '.join(missing)}")
    write_atomic(unpack / MANIFEST, json.dumps({"version": version, "files": files}, sort_keys=True))


def _tree(target: Path, version: str) -> VerlTree:
    return VerlTree(root=target, label=version, version=_read_version(target) or version)


def from_release(version: str | None = None) -> VerlTree:
    """Return the source tree of a verl release, downloaded once and unpacked in the cache.

    Args:
        version: a release such as ``"0.9.1"``, or ``"latest"`` for the newest release; ``None`` for the release
            this package pins.

    Returns:
        The `VerlTree` of the release.

    Raises:
        VerlSourceError: ``version`` is not a release number, or the release cannot be downloaded or unpacked.

    Safe for concurrent processes: one lock per release serialises the download; the tree is unpacked
    beside its place and renamed into it whole, so a reader sees no tree or a whole one. A tree left
    incomplete (an interrupted run, a truncated copy) fails the manifest check, is moved aside and rebuilt.
    """
    version = version or default_release()
    if version == "latest":
        version = latest_release()
    if not _VERSION_RE.match(version):
        raise VerlSourceError(f"--verl {version!r}: expected a release number such as 0.9.1")
    releases = cache_dir() / "releases"
    target = releases / version
    if _is_whole(target):
        return _tree(target, version)
    # only when a release is unpacked: a cached one needs no lock, no temporary folder, no zip reader
    import tempfile
    import zipfile

    from filelock import FileLock, Timeout

    try:
        (releases / ".locks").mkdir(parents=True, exist_ok=True)
        lock = FileLock(str(releases / ".locks" / f"{version}.lock"))
        try:
            lock.acquire(timeout=0)
        except Timeout:
            print(f"verl-cookbook: waiting for another process to unpack verl {version} …", file=sys.stderr)
            try:
                lock.acquire(timeout=LOCK_DEADLINE)
            except Timeout:
                raise VerlSourceError(
                    f"--verl {version}: another process has held {lock.lock_file} for {LOCK_DEADLINE} s; "
                    "if none is running, delete that file"
                ) from None
        try:
            if _is_whole(target):  # another process finished it while this one waited
                return _tree(target, version)
            with tempfile.TemporaryDirectory(prefix=f".{version}-", dir=releases) as tmp:
                wheel = _download_wheel(version, Path(tmp))
                unpack = Path(tmp) / "tree"
                _unpack(version, wheel, unpack)
                if target.exists() or target.is_symlink():
                    # an incomplete tree: move it out of the way (one rename), delete it from there
                    aside = Path(tmp) / "incomplete"
                    os.replace(target, aside)
                os.replace(unpack, target)  # the whole tree appears at once
        finally:
            lock.release()
    except OSError as e:
        raise VerlSourceError(f"--verl {version}: cannot write the cache at {releases}: {e}") from None
    except zipfile.BadZipFile as e:
        raise VerlSourceError(f"--verl {version}: the downloaded wheel is not a zip file: {e}") from None
    return _tree(target, version)


def latest_release() -> str:
    """The newest verl release on the package index (for a scheduled canary run)."""
    import subprocess

    cmd = [sys.executable, "-m", "pip", "index", "versions", "verl", "--disable-pip-version-check"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise VerlSourceError(f"--verl latest: cannot ask the package index: {e}") from None
    m = re.search(r"^verl \(([^)]+)\)", proc.stdout, re.M)
    if proc.returncode != 0 or not m:
        raise VerlSourceError("--verl latest: the package index did not list verl's versions")
    return m.group(1)


# -- what ships, and the ways to the rest ------------------------------------------------------------------------
# What a user's run needs of a covered release, shipped with this package (``data/sources/<version>.json``, built by
# ``scripts/build_facts.py``): every YAML file under verl's package (Hydra composes the configs from them, the
# generated ones give a key's line; 0.9.1: 47 files, 290 KB) and the Python files ``doctor``'s rules read
# (``checks/required_values``, ``doctor_rules/delta_guards``, ``doctor_rules/ascend_env``), with the list of every
# file of the release. Any other file (a page's claim or citation, a Python snippet's import) needs the release.
SOURCES_DIR = PACKAGE_DIR / "data" / "sources"
SHIPPED_PY = (
    "verl/version/version",
    "verl/checkpoint_engine/__init__.py",
    "verl/checkpoint_engine/base.py",
    "verl/checkpoint_engine/hccl_checkpoint_engine.py",
    "verl/utils/config.py",
    "verl/workers/config/actor.py",
    "verl/workers/config/critic.py",
    "verl/workers/rollout/base.py",
    "verl/workers/rollout/vllm_rollout/vllm_async_server.py",
    "verl/trainer/ppo/v1/trainer_separate_async.py",
)
SHIPPED = ".shipped"  # below the releases folder: kept like the releases, until `cache clean --all`
WAYS_OUT = (
    "--verl-src DIR (a verl checkout, or a wheel unpacked with `unzip verl-*.whl -d DIR`)",
    "--wheel PATH (a verl wheel copied from a machine with network: `pip download verl==VERSION --no-deps`)",
    "PIP_NO_INDEX=1 PIP_FIND_LINKS=DIR (a folder holding the wheel; pip takes it from there)",
)


def ways_out(version: str) -> str:
    return "; ways out: " + "; ".join(w.replace("VERSION", version) for w in WAYS_OUT)


def shipped_sources(tree: VerlTree) -> dict:
    """What ships of the whole tree ``tree``: ``{"version", "listing": [every file], "files": {rel: text}}``."""
    listing = sorted(
        p.relative_to(tree.root).as_posix() for p in tree.package.rglob("*") if p.is_file() and p.name != MANIFEST
    )
    keep = [r for r in listing if r.endswith((".yaml", ".yml")) or r in SHIPPED_PY]
    lines = {r: len(tree.read(r).splitlines()) for r in listing if r.endswith((".py", ".yaml", ".yml"))}
    return {
        "version": tree.version or tree.label,
        "listing": listing,
        "lines": lines,  # a citation's lines are judged against these (``checks.citations``)
        "files": {r: tree.read(r) for r in keep},
    }


def shipped_release(version: str) -> VerlTree | None:
    """The shipped part of covered release ``version``, written out once into the cache (no network: from this
    package's data) so that Hydra reads it as a folder; None when nothing ships for ``version``."""
    bundle = SOURCES_DIR / f"{version}.json"
    try:
        raw = bundle.read_bytes()
    except OSError:
        return None
    target = cache_dir() / "releases" / SHIPPED / f"{version}-{hashlib.sha256(raw).hexdigest()[:12]}"
    manifest = target / MANIFEST
    if not manifest.is_file():
        import shutil
        import tempfile

        data = json.loads(raw)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = Path(tempfile.mkdtemp(prefix=f".{version}-", dir=target.parent))
            for rel, text in data["files"].items():
                (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
                (tmp / rel).write_text(text, encoding="utf-8")
            manifest_data = {"version": version, "listing": data["listing"], "lines": data["lines"]}
            (tmp / MANIFEST).write_text(json.dumps(manifest_data), "utf-8")
            try:
                os.replace(tmp, target)
            except OSError:  # another process wrote it first
                shutil.rmtree(tmp, ignore_errors=True)
                if not manifest.is_file():
                    raise
        except OSError as e:
            raise VerlSourceError(f"verl {version}: cannot write the cache at {target.parent}: {e}") from None
    listing = frozenset(json.loads(manifest.read_text(encoding="utf-8"))["listing"])
    return VerlTree(root=target, label=version, version=_read_version(target) or version, listing=listing)


def line_counts(tree: VerlTree) -> dict[str, int] | None:
    """Lines of every .py/.yaml/.yml file of a shipped tree's release (None for a whole tree: read the files)."""
    if tree.whole:
        return None
    try:
        return json.loads((tree.root / MANIFEST).read_text(encoding="utf-8")).get("lines") or {}
    except (OSError, ValueError):
        return {}


def release_tree(version: str) -> VerlTree | None:
    """Release ``version`` as far as this machine has it without the network: unpacked whole in the cache, else
    what ships of it; None when neither."""
    target = cache_dir() / "releases" / version
    if _is_whole(target):
        return _tree(target, version)
    return shipped_release(version)


def installed_tree(required: bool = False) -> VerlTree | None:
    """The verl this Python would import, found the way ``import`` finds it (``importlib.util.find_spec``; for a
    top-level name that runs no code of the package) and read as files; its version from the installed
    distribution's metadata, else ``verl/version/version``. None when there is none (``required``: an error)."""
    from importlib import metadata
    from importlib.util import find_spec

    try:
        spec = find_spec("verl")
    except (ImportError, ValueError):
        spec = None
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    if not locations:
        if required:
            raise VerlSourceError(
                f"--verl installed: this Python ({sys.executable}) has no verl to read; install verl in it, or "
                "name a release (--verl VERSION), a tree (--verl-src DIR) or a wheel (--wheel PATH)"
            )
        return None
    root = Path(locations[0]).resolve().parent
    try:
        version: str | None = metadata.version("verl")
    except metadata.PackageNotFoundError:
        version = None
    version = version or _read_version(root)
    if not (root / "verl" / "checkpoint_engine" / "base.py").is_file():
        if required:
            raise VerlSourceError(
                f"--verl installed: the verl at {root / 'verl'} (version {version or 'unknown'}) has no "
                "verl/checkpoint_engine/base.py: not a verl release this checker reads"
            )
        return None
    return VerlTree(root=root, label=f"{version or 'unknown'} (installed at {root / 'verl'})", version=version)


_WHEEL_NAME = re.compile(r"^verl-([^-]+)-")


def from_wheel(path: str | os.PathLike) -> VerlTree:
    """A verl wheel the user downloaded (``--wheel PATH``), unpacked once into the cache, keyed by its bytes."""
    import shutil
    import tempfile
    import zipfile

    wheel = Path(path).expanduser()
    m = _WHEEL_NAME.match(wheel.name)
    if not wheel.is_file() or not m:
        raise VerlSourceError(f"--wheel {path}: not a verl wheel file (expected verl-VERSION-….whl)")
    version = m.group(1)
    h = hashlib.sha256()
    with open(wheel, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    target = cache_dir() / "releases" / ".wheels" / h.hexdigest()[:16]
    if not _is_whole(target):
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory(prefix=".wheel-", dir=target.parent) as tmp:
                _unpack(version, wheel, Path(tmp) / "tree")
                if target.exists():
                    shutil.rmtree(target, ignore_errors=True)
                os.replace(Path(tmp) / "tree", target)
        except zipfile.BadZipFile as e:
            raise VerlSourceError(f"--wheel {path}: not a zip file: {e}") from None
        except OSError as e:
            raise VerlSourceError(f"--wheel {path}: cannot unpack it into the cache at {target.parent}: {e}") from None
    return VerlTree(root=target, label=f"{version} (wheel {wheel.name})", version=_read_version(target) or version)


def obtain_release(version: str, why: str) -> VerlTree:
    """The whole release ``version``, from the cache or the package index; a failure says which release, ``why``
    it was needed, and the ways out (no traceback)."""
    if not _is_whole(cache_dir() / "releases" / version):
        print(f"verl-cookbook: verl {version}'s source is needed for: {why}", file=sys.stderr)
    try:
        return from_release(version)
    except VerlTooOldError as e:
        said = str(e).removeprefix(f"--verl {version}: ")
        raise VerlSourceError(f"verl {version}: {said}\n  needed for: {why}") from None
    except VerlSourceError as e:
        said = str(e).removeprefix(f"--verl {version}: ")  # the user may not have named it
        raise VerlSourceError(
            f"verl {version}: {said}\n  needed for: {why}\n  {ways_out(version).removeprefix('; ')}"
        ) from None


class Source(NamedTuple):
    """The tree a run reads, and how to reach the whole release when that tree is only what ships."""

    tree: VerlTree
    whole: Callable[[str], VerlTree] | None = None  # why -> the whole release; None: ``tree`` is whole


def resolve_source(
    version: str | None = None,
    src: str | None = None,
    wheel: str | None = None,
    installed_default: bool = True,
) -> Source:
    """The tree named on the command line, by precedence: ``--verl-src DIR``, ``--wheel PATH``, ``--verl installed``,
    ``--verl VERSION``; with none of them, the installed verl when this Python has one (``installed_default``), else
    the pinned release.

    A covered release whose whole tree is not in the cache is read from what ships with this package (no
    network); its other files are fetched only when a check needs them (``Source.whole``), saying why."""
    if src:
        return Source(from_checkout(src))
    if wheel:
        return Source(from_wheel(wheel))
    if version == "installed":
        tree = installed_tree(required=True)
        assert tree is not None
        return Source(tree)
    if version is None and installed_default:
        tree = installed_tree()
        if tree is not None:
            print(
                f"verl-cookbook: reading the installed verl {tree.label} (--verl VERSION for a release)",
                file=sys.stderr,
            )
            return Source(tree)
    asked = version
    version = version or default_release()
    if version == "latest":
        version = latest_release()
    from verl_cookbook.releases import covered_releases

    whole_target = cache_dir() / "releases" / version
    if _VERSION_RE.match(version) and _is_whole(whole_target):  # unpacked before: the one check of its files
        return Source(_tree(whole_target, version))
    if version in covered_releases():
        shipped = shipped_release(version)
        if shipped is not None:
            return Source(shipped, lambda why: obtain_release(version, why))
    why = f"--verl {asked}" if asked else f"the pinned release {version} (the default; --verl VERSION for another)"
    return Source(obtain_release(version, why))


def resolve(version: str | None = None, src: str | None = None) -> VerlTree:
    """Return the verl source tree to check against, as the command line's ``--verl-src`` / ``--verl`` name it.

    Args:
        version: a verl release such as ``"0.9.1"``, or ``"latest"`` for the newest release; ``None`` for the
            release this package pins.
        src: a verl checkout or an unpacked wheel; when given, it takes precedence over ``version``.

    Returns:
        The `VerlTree` of that source.

    Raises:
        VerlSourceError: the release cannot be obtained, or ``src`` is not a verl source tree.
    """
    if src:
        return from_checkout(src)
    return from_release(version)
