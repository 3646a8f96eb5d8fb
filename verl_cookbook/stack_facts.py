"""Facts about the Ascend stack beyond verl, read from the committed snapshots in ``verl_cookbook/snapshots/``.

- ``stack_facts.yaml``: lines of Mooncake, checkpoint-engine, vllm-ascend, the HCCL user guide and hcomm at a
  pinned commit (or a dated hiascend.com page), each with the exact short text it rests on. Rebuilt by
  ``scripts/refresh_stack_facts.py`` from checkouts.
- ``wheel_facts.json``: what pip reads from the package index for the wheels the pages name (Requires-Dist,
  tags, top_level, RECORD paths) and which manylinux level each NPU wheel needs. Rebuilt and proven current
  by ``scripts/refresh_wheel_facts.py``.

``VERL_COOKBOOK_SNAPSHOTS`` points the loader at another folder (the tests mutate a copy).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from verl_cookbook.yaml_lines import safe_load

SNAPSHOT_DIR = Path(__file__).resolve().parent / "snapshots"
INDEX_URL = "https://pypi.org/project"


UNSUPPORTED = "hasn't been supported"  # the value of a README fact that rules a backend out on a product


def snapshot_dir() -> Path:
    return Path(os.environ.get("VERL_COOKBOOK_SNAPSHOTS") or SNAPSHOT_DIR)


@dataclass(frozen=True)
class StackFact:
    id: str
    value: str
    text: str
    source: str  # a link to the line (github blob at the commit) or the documentation page
    cann: str | None = None
    ref: str | None = None  # the tag or commit it was read at, when not the repository's HEAD

    def read_at_tag(self, release: str) -> bool:
        """Whether a fact about verl ``release`` was read at that release's tag (else at a main commit)."""
        return self.ref is None or self.ref == f"v{release}"

    @property
    def where(self) -> str:
        return f"{self.source} “{self.text}”"


@cache
def _stack_facts(folder: str) -> dict[str, list[StackFact]]:
    data = safe_load((Path(folder) / "stack_facts.yaml").read_text(encoding="utf-8"))  # our own file: libyaml
    out: dict[str, list[StackFact]] = {}
    for f in data["facts"]:
        if f.get("repo"):
            source = f"https://github.com/{f['repo']}/blob/{f['commit']}/{f['path']}#L{f['line']}"
        else:
            source = f"{f['url']} (read {f['read_at']})"
        cann = str(f["cann"]) if f.get("cann") is not None else None
        ref = str(f["ref"]) if f.get("ref") is not None else None
        out.setdefault(f["id"], []).append(StackFact(f["id"], str(f["value"]), f["text"], source, cann, ref))
    return out


def stack_facts() -> dict[str, list[StackFact]]:
    return _stack_facts(str(snapshot_dir()))


def fact(fid: str) -> StackFact | None:
    """The snapshot entry ``fid`` (the first, for an id with one entry per CANN release); None when there is none."""
    entries = stack_facts().get(fid)
    return entries[0] if entries else None


def cann_version(text: str) -> Version | None:
    """CANN's own spellings (``8.3.RC1``, ``8.5.0``, ``9.0.0-beta.1``) as comparable versions."""
    t = re.sub(r"\.?RC(\d+)", r"rc\1", text.strip(), flags=re.I)
    try:
        return Version(t)
    except InvalidVersion:
        return None


def select(entries: list[StackFact], cann: str | None) -> StackFact | None:
    """The entry for a CANN version: the newest documented release at or before it."""
    if cann is None:
        plain = [e for e in entries if e.cann is None]
        return plain[0] if plain else (entries[0] if len(entries) == 1 else None)
    want = cann_version(cann)
    if want is None:
        return None
    dated = [(v, e) for e in entries if e.cann and (v := cann_version(e.cann)) is not None and v <= want]
    return max(dated, key=lambda ve: ve[0])[1] if dated else None


# -- wheels ----------------------------------------------------------------------------------------------


@cache
def _wheel_facts(folder: str) -> dict:
    return json.loads((Path(folder) / "wheel_facts.json").read_text(encoding="utf-8"))


def wheel_facts() -> dict:
    return _wheel_facts(str(snapshot_dir()))


def wheel(spec: str) -> dict | None:
    """The snapshot of ``name==version`` (names compared canonically)."""
    name, _, version = spec.partition("==")
    for key, entry in wheel_facts()["wheels"].items():
        k_name, _, k_version = key.partition("==")
        if canonicalize_name(k_name) == canonicalize_name(name) and k_version == version.strip():
            return {**entry, "spec": key}
    return None


def wheel_source(entry: dict) -> str:
    name, _, version = entry["spec"].partition("==")
    return f"{entry['file']} ({INDEX_URL}/{name}/{version}/)"


def wheels_installing(name: str) -> list[dict]:
    """Every snapshot wheel of distribution ``name``."""
    return [
        {**e, "spec": k}
        for k, e in wheel_facts()["wheels"].items()
        if canonicalize_name(k.partition("==")[0]) == canonicalize_name(name)
    ]


def shared_paths(a: dict, b: dict) -> list[str]:
    return sorted(set(a.get("record", [])) & set(b.get("record", [])))
