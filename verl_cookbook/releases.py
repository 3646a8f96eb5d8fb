"""The verl releases the site covers; the pinned default is declared once, in data/releases.yaml."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from packaging.version import Version

RELEASES_FILE = Path(__file__).resolve().parent / "data" / "releases.yaml"  # (importlib.resources costs 12 ms)


@lru_cache(maxsize=1)
def _load() -> dict:
    import yaml  # here, not at the top: a module that imports this one for `version_key` need not load PyYAML

    text = RELEASES_FILE.read_text(encoding="utf-8")
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # libyaml when PyYAML has it


def default_release() -> str:
    """The verl release every page is checked against unless told otherwise."""
    return str(_load()["default"])


def covered_releases() -> list[str]:
    """The releases the site covers, oldest first."""
    return [str(v) for v in _load()["releases"]]


def version_key(version: str) -> Version:
    """Sort key for a verl version, by PEP 440 (``packaging.version``, what pip orders releases by):
    ``0.9.1rc1`` < ``0.9.1`` < ``0.9.2``, ``0.10.0.dev1`` < ``0.10.0``, ``0.10.0`` > ``0.9.2``.

    Total, never raises: a string that is not a PEP 440 version (a page's ``since="¹"``) is read from the ASCII digits
    of each dotted piece, as a release number (``"¹.2"`` sorts as ``0.2``)."""
    from packaging.version import InvalidVersion, Version  # here: a warm check compares no versions

    try:
        return Version(version)
    except InvalidVersion:
        pieces = []
        for piece in version.split("."):
            digits = "".join(ch for ch in piece if ch in "0123456789")  # not isdigit(): "¹" is a digit int() refuses
            pieces.append(str(int(digits)) if digits else "0")
        return Version(".".join(pieces))
