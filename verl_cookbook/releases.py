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
    """The file's two entries. It is read line by line, not with PyYAML: importing PyYAML is 13 ms of a 130 ms warm
    check that reads nothing else as YAML. The file keeps to that shape (``key: "value"``, a list as ``  - "value"``
    under ``key:``, ``#`` comments); a test reads it with PyYAML too and compares."""
    out: dict = {}
    key = ""
    for n, raw in enumerate(RELEASES_FILE.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split("#", 1)[0].rstrip()
        if not line:
            continue
        if line.startswith("  - ") and isinstance(out.get(key), list):
            out[key].append(_unquote(line[4:], n))
        elif not line.startswith(" ") and line.endswith(":"):
            key = line[:-1]
            out[key] = []
        elif not line.startswith(" ") and ": " in line:
            key, value = line.split(": ", 1)
            out[key] = _unquote(value, n)
        else:
            raise ValueError(f"{RELEASES_FILE}:{n}: expected 'key: \"value\"', 'key:' or '  - \"value\"', got {raw!r}")
    return out


def _unquote(value: str, n: int) -> str:
    value = value.strip()
    if len(value) < 2 or value[0] != '"' or value[-1] != '"':
        raise ValueError(f"{RELEASES_FILE}:{n}: expected a double-quoted version, got {value!r}")
    return value[1:-1]


def default_release() -> str:
    """The verl release every page is checked against unless told otherwise."""
    return str(_load()["default"])


def covered_releases() -> list[str]:
    """The releases the site covers, oldest first."""
    return [str(v) for v in _load()["releases"]]


def newest_covered() -> str:
    """The newest release the site covers (by PEP 440, see ``version_key``)."""
    return max(covered_releases(), key=version_key)


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
