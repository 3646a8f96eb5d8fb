"""The install runs a site declares (``install-runs.yaml``, beside ``mkdocs.yml``): which snippet runs, with which
wheels, from which starting states, what it skips and what must hold afterwards. Read here, with each entry that
cannot be read reported (``install/manifest``); run by :mod:`verl_cookbook.install_run` (``check --run-install``). A
default ``check`` reads only this: it says which pages include snippets with declared runs, and reports a manifest
it cannot read.

``start:`` names the states a reader may be in before the snippet (a mapping of a state's name to the commands that
make it, ``[]`` for a fresh environment): the entry becomes one run per state, each named after its state.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from verl_cookbook.findings import Finding
from verl_cookbook.rules.stack import INSTALL_MANIFEST
from verl_cookbook.verl_source import cache_dir, write_atomic

MANIFEST = "install-runs.yaml"
NEEDS = {"npu": "needs an NPU", "cluster": "needs a cluster", "download": "needs a download the run does not make"}
EXPECT_KINDS = ("importable", "listed", "unlisted", "intact", "file", "stdout")


@dataclass(frozen=True)
class Skip:
    match: str
    needs: str
    reason: str


@dataclass(frozen=True)
class Run:
    snippet: str
    line: int  # of the run in the manifest
    wheels: tuple[str, ...] = ()
    setup: tuple[str, ...] = ()
    no_deps: str | None = None
    fetch_deps: bool = False
    glibc: str | None = None
    skip: tuple[Skip, ...] = ()
    expect: tuple[tuple[str, str], ...] = ()
    name: str = ""
    start: str = ""  # the state the run starts from (``start:``), "" when the entry names none


PARSE_VERSION = "1"  # of what _parse returns (each mapping with its ``__line__``): part of the cache key


class ManifestSyntaxError(Exception):
    """The manifest is not YAML: the message and the 1-based line of the problem."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


@lru_cache(maxsize=1)
def _loader() -> type:
    """YAML's safe loader (libyaml when PyYAML has it), each mapping given the line it starts on (``__line__``)."""
    import yaml

    class Lines(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
        pass

    def mapping_with_line(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict:
        d = loader.construct_mapping(node, deep=True)
        d["__line__"] = node.start_mark.line + 1
        return d

    Lines.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping_with_line)
    return Lines


def _parse(text: str) -> Any:
    """The manifest's data. Every check reads it (to say which install runs it did not run), and importing PyYAML
    is a tenth of a warm check, so the data is kept as JSON in the cache under the text's digest; data that JSON
    would change (a date, a number as a key) is not kept. A text that is not YAML raises ManifestSyntaxError."""
    key = hashlib.sha256(f"install-manifest {PARSE_VERSION}\0{text}".encode()).hexdigest()
    cached = cache_dir() / "compose" / f"manifest-{key}.json"
    try:
        return json.loads(cached.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    import yaml

    try:
        data = yaml.load(text, Loader=_loader()) or {}
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise ManifestSyntaxError(str(e), mark.line + 1 if mark else 1) from None
    try:
        dumped = json.dumps(data)
        if json.loads(dumped) == data:
            write_atomic(cached, dumped)
    except (TypeError, ValueError, OSError):
        pass  # kept only when JSON holds it as it is; a read-only cache only costs speed
    return data


def manifest_finding(path: str, line: int, case: str, **data: Any) -> Finding:
    """An `install/manifest` finding: an entry of the manifest that cannot be run as written (``case`` says how)."""
    return INSTALL_MANIFEST.at(path, line, 1, case=case, **data)


def load_manifest(root: Path) -> tuple[list[Run], list[Finding]]:
    """The declared runs of a site, and each entry that cannot be read (``install/manifest``)."""
    path = root / MANIFEST
    if not path.is_file():
        return [], []
    shown = MANIFEST
    try:
        data = _parse(path.read_text(encoding="utf-8"))
    except ManifestSyntaxError as e:
        return [], [manifest_finding(shown, e.line, "yaml", error=str(e))]
    runs, bad = [], []
    for entry in data.get("runs") or []:
        line = entry.get("__line__", 1)
        snippet = entry.get("snippet")
        if not snippet or not (root / snippet).is_file():
            bad.append(manifest_finding(shown, line, "snippet", snippet=str(snippet)))
            continue
        skips = []
        for s in entry.get("skip") or []:
            if s.get("needs") not in NEEDS or not s.get("match") or not s.get("reason"):
                bad.append(
                    manifest_finding(shown, s.get("__line__", line), "skip", needs=list(NEEDS), got=str(s.get("needs")))
                )
                continue
            skips.append(Skip(str(s["match"]), str(s["needs"]), str(s["reason"])))
        expects = []
        for ex in entry.get("expect") or []:
            kinds = [k for k in ex if k != "__line__"]
            if len(kinds) != 1 or kinds[0] not in EXPECT_KINDS:
                bad.append(
                    manifest_finding(
                        shown, ex.get("__line__", line), "expect", kinds=list(EXPECT_KINDS), got=[str(k) for k in kinds]
                    )
                )
                continue
            expects.append((kinds[0], str(ex[kinds[0]])))
        if not expects:
            bad.append(manifest_finding(shown, line, "nothing-expected", snippet=str(snippet)))
            continue
        states, problem = _start_states(entry.get("start"))
        if problem:
            case, data = problem
            bad.append(manifest_finding(shown, line, case, snippet=str(snippet), **data))
            continue
        setup = tuple(str(c) for c in entry.get("setup") or ())
        name = str(entry.get("name") or snippet)
        for state, commands in states:
            runs.append(
                Run(
                    snippet=str(snippet),
                    line=line,
                    wheels=tuple(str(w) for w in entry.get("wheels") or ()),
                    setup=setup + commands,
                    no_deps=entry.get("no_deps"),
                    fetch_deps=bool(entry.get("fetch_deps")),
                    glibc=str(entry["glibc"]) if entry.get("glibc") else None,
                    skip=tuple(skips),
                    expect=tuple(expects),
                    name=f"{name}, starting from {state}" if state else name,
                    start=state,
                )
            )
    return runs, bad


def _start_states(
    start: object,
) -> tuple[list[tuple[str, tuple[str, ...]]], tuple[str, dict[str, Any]] | None]:
    """The (name, commands) of each starting state an entry's ``start:`` declares, or why it cannot be read (the
    case and data of an install/manifest finding). An entry without ``start:`` runs once, from a fresh environment
    (its state named "")."""
    if start is None:
        return [("", ())], None
    if not isinstance(start, dict):
        return [], ("start-not-mapping", {})
    states = []
    for name, commands in start.items():
        if name == "__line__":
            continue
        if commands is None:
            commands = []
        if not isinstance(commands, list) or not all(isinstance(c, str) for c in commands):
            return [], ("start-state-not-list", {"state": str(name)})
        states.append((str(name), tuple(commands)))
    if not states:
        return [], ("start-empty", {})
    return states, None
