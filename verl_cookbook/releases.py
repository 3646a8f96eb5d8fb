"""The verl releases the site covers; the pinned default is declared once, in data/releases.yaml."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

RELEASES_FILE = Path(__file__).resolve().parent / "data" / "releases.yaml"  # (importlib.resources costs 12 ms)


@lru_cache(maxsize=1)
def _load() -> dict:
    import yaml  # here, not at the top: a process that only extracts facts need not pay for it before forking

    text = RELEASES_FILE.read_text(encoding="utf-8")
    return yaml.safe_load(text)


def default_release() -> str:
    """The verl release every page is checked against unless told otherwise."""
    return str(_load()["default"])


def covered_releases() -> list[str]:
    """The releases the site covers, oldest first."""
    return [str(v) for v in _load()["releases"]]


def version_key(version: str) -> tuple[int, ...]:
    """Sort key for plain dotted release numbers ("0.9.1" -> (0, 9, 1))."""
    parts = []
    for piece in version.split("."):
        digits = "".join(ch for ch in piece if ch in "0123456789")  # not isdigit(): "¹" is a digit int() refuses
        parts.append(int(digits) if digits else 0)
    return tuple(parts)
