"""mkdocs hook: jieba, which Material's search uses to cut Chinese into words, builds quietly and caches in our
cache folder.

jieba logs four lines on every build ("Building prefix dict …", "Loading model cost …") and writes its
model cache into the system temp folder, ignoring XDG_CACHE_HOME. Before Material's search plugin loads the
user dictionary (its ``on_config``), this lowers jieba's logger to warnings and points its cache at
``$XDG_CACHE_HOME/verl-cookbook/jieba`` (``~/.cache/…`` without it; a fresh temp folder of ours when that cannot
be created). The index is the same: only where the cache lives and what is printed change.
"""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority


def cache_dir(environ: dict[str, str] | None = None) -> Path:
    """Where jieba's cache goes: under XDG_CACHE_HOME (or ~/.cache), in verl-cookbook/jieba."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "verl-cookbook" / "jieba"


def quiet_jieba(folder: Path | None = None) -> Path | None:
    """Lower jieba's logging and set its cache folder; the folder used, or None without jieba."""
    try:
        import jieba
    except ImportError:  # Material's search runs without jieba too (no Chinese segmentation)
        return None
    jieba.setLogLevel(logging.WARNING)
    folder = folder or cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        folder = Path(tempfile.mkdtemp(prefix="verl-cookbook-jieba-"))
    jieba.dt.tmp_dir = str(folder)
    return folder


@event_priority(100)  # before Material's search plugin initialises jieba in its on_config
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    quiet_jieba()
    return config
