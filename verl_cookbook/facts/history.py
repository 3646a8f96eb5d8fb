"""What older verl releases (and verl's main branch) had in ``verl/trainer/config`` that a covered release lacks:
config-group options (``model_engine/mindspeed``) and primary configs (``generation``), each with the last release
that had it and the file there. Read from ``data/group_options.json``, which ``scripts/build_group_options.py``
derives from the releases' own config folders; nothing here reads git or the network."""

from __future__ import annotations

import functools
import json
from pathlib import Path

from verl_cookbook.releases import version_key

GROUP_OPTIONS = Path(__file__).resolve().parent.parent / "data" / "group_options.json"


@functools.lru_cache(maxsize=1)
def _gone_by_release() -> dict[str, dict]:
    try:
        data = json.loads(GROUP_OPTIONS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    gone = data.get("gone")
    return gone if isinstance(gone, dict) else {}


def _gone(version: str | None) -> dict:
    """The record for ``version``; for a release not recorded (a newer one, or a development build), the newest
    recorded release before it; nothing for a tree with no release number."""
    records = _gone_by_release()
    if not version:
        return {}
    if version in records:
        return records[version]
    try:
        older = [r for r in records if version_key(r) < version_key(version)]
    except ValueError:
        return {}
    return records[max(older, key=version_key)] if older else {}


def gone_option(version: str | None, group: str, option: str) -> dict | None:
    """``{"last": release or "main", "source": file and where}`` when verl ``version`` lacks ``option`` of the
    config group ``group`` and an older release (or verl's main branch) had it."""
    entry = _gone(version).get("options", {}).get(group, {}).get(option)
    return dict(entry) if isinstance(entry, dict) else None


def gone_config(version: str | None, name: str) -> dict | None:
    """Likewise for a primary config (``--config-name``) of ``verl/trainer/config``."""
    entry = _gone(version).get("configs", {}).get(name)
    return dict(entry) if isinstance(entry, dict) else None
