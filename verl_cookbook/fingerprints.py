"""What every cache key is made of, besides the inputs themselves: which verl tree (its files' paths, sizes and
times), which copy of this package, which copies of the libraries that judge and of the external tools the checks
run. Each is read from the file system (``stat``), never by importing or starting what it describes, so that a warm
run stays cheap; an edit, a checkout, an install or an upgrade writes files anew and so changes their times.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from functools import cache
from pathlib import Path

from verl_cookbook.verl_source import PACKAGE_DIR, VerlTree

_FINGERPRINTED = (".py", ".yaml", ".yml", ".md")


def tree_fingerprint(tree: VerlTree) -> str:
    """A hash of every .py/.yaml/.yml/.md file's path (relative to the tree's root), size and mtime, in the order of
    ``os.walk`` with sorted folders (symbolic links to folders listed, not entered; unreadable folders skipped).
    Paths are sliced, not ``os.path.relpath``-ed, and each folder is hashed in one update: on verl 0.9.1 (~1,000
    files) 4 ms instead of 8-12 ms, the same digest."""
    h = hashlib.sha256()
    cut = len(str(tree.root)) + 1

    def walk(folder: str) -> None:
        try:
            with os.scandir(folder) as it:
                entries = list(it)
        except OSError:
            return
        subfolders, names = [], []
        for e in entries:
            try:
                is_dir = e.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                if not e.is_symlink():
                    subfolders.append(e.name)
            else:
                names.append(e.name)
        lines = []
        for name in sorted(names):
            if name.endswith(_FINGERPRINTED):
                path = f"{folder}/{name}"
                st = os.stat(path)
                lines.append(f"{path[cut:]}\0{st.st_size}\0{st.st_mtime_ns}\n")
        h.update("".join(lines).encode())
        for name in sorted(subfolders):
            walk(f"{folder}/{name}")

    walk(str(tree.package))
    return h.hexdigest()


@cache
def package_fingerprint(package: Path = PACKAGE_DIR) -> str:
    """This package's code and data (every .py, .yaml and .json outside ``__pycache__``): each file's path, size
    and modification time, once per process. An edit, a checkout or an install writes a file anew, so its time
    changes; sizes and times are what the verl tree's fingerprint and ``engines_fingerprint`` rest on too (reading
    and hashing the 4 MB instead took 12-23 ms of every warm run).

    Part of the facts key, so of every cache key built on it (compositions, page results): a change to an
    extractor, to a module it uses, to a check or to the catalog invalidates what was cached before it."""
    # verl's own files, shipped: a tree's fingerprint covers them
    sources = os.path.join(str(package), "data", "sources")
    cut = len(str(package)) + 1
    lines = []
    for folder, subfolders, names in os.walk(str(package)):  # os.walk, not Path.rglob: a third of the time
        subfolders[:] = [d for d in subfolders if d != "__pycache__" and os.path.join(folder, d) != sources]
        for name in names:
            if name.endswith((".py", ".yaml", ".json")):
                path = os.path.join(folder, name)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                if stat.S_ISREG(st.st_mode):
                    rel = path[cut:].replace(os.sep, "/")
                    lines.append(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\n")
    return hashlib.sha256("".join(sorted(lines)).encode()).hexdigest()


# The libraries whose behaviour a finding rests on: Hydra (with its override grammar's runtime, antlr4) and OmegaConf
# compose and type verl's configs, PyYAML reads YAML, markdown-it-py reads the pages, jsonschema judges JSON files,
# tree-sitter reads launch scripts. Python itself reads verl's code (``ast``, ``tokenize``).
ENGINES = ("hydra", "omegaconf", "antlr4", "yaml", "markdown_it", "jsonschema", "tree_sitter", "tree_sitter_bash")


@cache
def engines_fingerprint() -> str:
    """Which copy of each library in ``ENGINES`` this process would import, and which Python runs it, without
    importing any: each module's file, with its size and modification time (an install or an upgrade writes it
    anew), found the way ``import`` finds it.

    Part of the facts key, so of every cache key built on it: results cached under one Hydra, OmegaConf or
    markdown-it are not replayed under another (about a millisecond; a warm check imports none of them)."""
    from importlib.util import find_spec

    h = hashlib.sha256(f"{sys.version}\0{sys.implementation.cache_tag}".encode())
    for name in ENGINES:
        try:
            spec = find_spec(name)
        except (ImportError, ValueError):
            spec = None
        where = spec.origin if spec is not None and spec.origin else ""
        try:
            st = os.stat(where) if where else None
        except OSError:
            st = None
        h.update(f"\0{name}\0{where}\0{st.st_size if st else -1}\0{st.st_mtime_ns if st else -1}".encode())
    return h.hexdigest()


def tool_fingerprint(name: str) -> str:
    """Which copy of the program ``name`` runs (``PATH``), with the size and modification time of the file it
    resolves to, or "" when there is none. An upgrade (``apt``, a new release unpacked) writes the file anew, so a
    result cached under one ShellCheck is not replayed under another; no process is started to ask its version."""
    import shutil

    where = shutil.which(name)
    if not where:
        return ""
    try:
        real = os.path.realpath(where)
        st = os.stat(real)
    except OSError:
        return where
    return f"{real}\0{st.st_size}\0{st.st_mtime_ns}"
