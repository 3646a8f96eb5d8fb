"""The cache folder, bounded: what is in it (``verl-cookbook cache info``), emptying it (``cache clean``), and the
size cap every command applies after it has written.

``cache_dir()`` (``$VERL_COOKBOOK_CACHE``, else ``$XDG_CACHE_HOME/verl-cookbook``, else ``~/.cache/verl-cookbook``)
holds two sorts of thing:

- ``releases/``: verl release trees, unpacked from their wheels. A handful, each the size of a verl wheel's
  sources (about 6 MB); they are never evicted, only removed by ``cache clean --all``.
- ``facts/``, ``compose/``, ``pages/`` (:data:`DERIVED`): results derived from a release and this package,
  each file under a key that changes with the package's code, the libraries that judge and the inputs. Old keys
  are never read again, so without a bound the folder grows with every upgrade and every edited page.
  :func:`prune` keeps these below :data:`LIMIT_BYTES`, evicting the least recently used files first.

Every operation here tolerates a concurrent run: a file evicted or cleaned under another process is, for it, a
cache miss (each reader treats an unreadable cache file as absent and recomputes it).
"""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from verl_cookbook.verl_source import cache_dir

RELEASES = "releases"
# The folders the checker writes its derived results to, the only ones the size cap evicts from: another folder in
# the cache (the site build's jieba dictionary, an environment someone put there) is never walked, nor partly deleted.
DERIVED = ("facts", "compose", "pages")
LIMIT_BYTES = 64_000_000  # derived results, all folders together; a site check writes about 4 MB of them
KEEP_FRACTION = 0.75  # an eviction goes down to this share of the limit, so the next runs do not evict again
STAMP = ".pruned"  # touched after each size check; a folder changed since is what makes the next check happen


@dataclass(frozen=True)
class Usage:
    """One top-level folder of the cache: its name, how many files it holds and their size in bytes."""

    name: str
    files: int
    size: int


def _files(folder: Path) -> list[tuple[Path, os.stat_result]]:
    out = []
    for dirpath, _dirs, names in os.walk(folder):
        for name in names:
            p = Path(dirpath) / name
            try:
                out.append((p, p.lstat()))
            except OSError:  # gone meanwhile (another run evicting or replacing it)
                continue
    return out


def _folders(root: Path) -> list[Path]:
    try:
        return sorted(p for p in root.iterdir() if p.is_dir() and not p.is_symlink())
    except OSError:
        return []


def usage(root: Path | None = None) -> list[Usage]:
    """Files and bytes in each top-level folder of the cache, by name."""
    root = root or cache_dir()
    rows = []
    for folder in _folders(root):
        files = _files(folder)
        rows.append(Usage(folder.name, len(files), sum(st.st_size for _p, st in files)))
    return rows


def _remove_tree(folder: Path) -> None:
    """``rm -r folder``: a file another run removed meanwhile is no error; any other failure (permissions) is."""

    def gone_already_or_raise(_func, _path, exc) -> None:
        err = exc if isinstance(exc, BaseException) else exc[1]
        if not isinstance(err, FileNotFoundError):
            raise err

    if sys.version_info >= (3, 12):
        shutil.rmtree(folder, onexc=gone_already_or_raise)
    else:
        shutil.rmtree(folder, onerror=gone_already_or_raise)


def clean(root: Path | None = None, releases: bool = False) -> list[Usage]:
    """Remove the derived results (every folder but ``releases/``; that one too with ``releases=True``); returns
    what was removed."""
    root = root or cache_dir()
    removed = []
    for row in usage(root):
        if row.name == RELEASES and not releases:
            continue
        _remove_tree(root / row.name)
        removed.append(row)
    (root / STAMP).unlink(missing_ok=True)
    return removed


def _changed_since_last_check(root: Path, derived: list[Path]) -> bool:
    """Whether a file may have been added since the last size check: a folder's time changes when a file is
    renamed into it (every cache write ends with a rename). A few ``stat`` calls: a warm run writes nothing."""
    try:
        stamp = (root / STAMP).stat().st_mtime_ns
    except OSError:
        return True
    for folder in derived:
        try:
            if folder.stat().st_mtime_ns >= stamp:
                return True
        except OSError:
            continue
    return False


def prune(root: Path | None = None, limit: int | None = None) -> int:
    """Keep the derived results below ``limit`` bytes: when they are over it, delete the least recently used files
    (the later of a file's write and its last read, as the file system records it) down to ``KEEP_FRACTION`` of it.
    Returns the number of files deleted. Checks sizes only when a derived folder changed since the last check."""
    root = root or cache_dir()
    limit = LIMIT_BYTES if limit is None else limit
    derived = [p for p in _folders(root) if p.name in DERIVED]
    if not derived or not _changed_since_last_check(root, derived):
        return 0
    files = [f for folder in derived for f in _files(folder)]
    total = sum(st.st_size for _p, st in files)
    deleted = 0
    if total > limit:
        files.sort(key=lambda f: max(f[1].st_mtime_ns, f[1].st_atime_ns))  # least recently used first
        goal = int(limit * KEEP_FRACTION)
        for path, st in files:
            if total <= goal:
                break
            try:
                path.unlink()
            except OSError:
                continue
            total -= st.st_size
            deleted += 1
    (root / STAMP).touch()
    return deleted


def human(size: int) -> str:
    """``512 B``, ``3.4 kB``, ``21.0 MB``: a size for people (powers of 1,000, as ``du --si``)."""
    if size < 1000:
        return f"{size} B"
    value = size / 1000
    for unit in ("kB", "MB"):
        if value < 1000:
            return f"{value:.1f} {unit}"
        value /= 1000
    return f"{value:.1f} GB"
