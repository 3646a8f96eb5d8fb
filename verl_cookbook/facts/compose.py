"""The config an entry point runs with, composed by Hydra itself from the tree's own config folder.

:func:`compose` runs Hydra's compose API (``initialize_config_dir`` / ``compose``) on ``<tree>/<config_dir>``
with the config-group choices of a command (``model_engine=megatron``, ``actor@actor_rollout_ref.actor=…``),
and returns the composed config as plain data (interpolations kept as text, ``???`` kept) or Hydra's own error
message. A ``pkg://verl.…`` entry in the primary config's ``hydra.searchpath`` would make Hydra import verl to
find the folder; it is mapped to the tree's folder (``file://<tree>/verl/…``) and passed as the
``hydra.searchpath`` override, which replaces the primary config's list. verl is never imported. A relative
``file://verl/…`` entry (relative to the working directory) is taken as run from the tree's root, as verl's own
example scripts are.

One compose costs about 0.4 s, so each (tree, folder, config, group choices) is composed once and kept: in
memory, and as JSON beside the facts cache (written to a temporary file and renamed, so a reader never sees half
a file). The cache key includes the facts key (tree listing + this package's code). A run that knows which configs
it will need can have them composed by a forked child meanwhile (:func:`prefetch`).
"""

from __future__ import annotations

import hashlib
import json
import os
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from verl_cookbook import forking, gcpause
from verl_cookbook.hydra_overrides import error_text
from verl_cookbook.verl_source import VerlTree, cache_dir, write_atomic
from verl_cookbook.yaml_lines import safe_load

_MEMO: dict[str, dict] = {}


@cache  # read once per (tree, folder, config) in a process: every trainer command of a run asks for it
def searchpath(tree: VerlTree, config_dir: Path, name: str) -> tuple[str, ...] | None:
    """The primary config's ``hydra.searchpath`` with ``pkg://verl…`` mapped into the tree; None if it has none."""
    path = config_dir / f"{name}.yaml"
    try:
        data = safe_load(path.read_text(encoding="utf-8", errors="replace")) or {}
    except (OSError, yaml.YAMLError):
        return None
    sp = (data.get("hydra") or {}).get("searchpath") if isinstance(data, dict) else None
    if not isinstance(sp, list):
        return None
    out = []
    for entry in sp:
        entry = str(entry)
        if entry.startswith("pkg://"):
            pkg = entry[len("pkg://") :].strip("/").replace("/", ".")
            if pkg.split(".")[0] != "verl":
                continue  # another package: Hydra would import it; it holds no verl config
            entry = "file://" + str(tree.root.joinpath(*pkg.split(".")))
        elif entry.startswith("file://") and not os.path.isabs(entry[len("file://") :]):
            # relative to the working directory: verl's own scripts run from the checkout's root
            entry = "file://" + str(tree.root / entry[len("file://") :])
        out.append(entry)
    return tuple(out)


def groups(tree: VerlTree, config_dir: Path, name: str) -> set[str]:
    """Config groups Hydra sees for this primary config: the sub-folders of its folder and of its search path."""
    dirs = [config_dir]
    for entry in searchpath(tree, config_dir, name) or []:
        if entry.startswith("file://"):
            dirs.append(Path(entry[len("file://") :]))
    out: set[str] = set()
    for d in dirs:
        for dirpath, dirnames, _files in os.walk(d):
            dirnames[:] = [x for x in dirnames if not x.startswith(("_", "."))]
            rel = Path(dirpath).relative_to(d).as_posix()
            if rel != ".":
                out.add(rel)
    return out


def _key(facts_key: str | None, tree: VerlTree, config_dir: Path, name: str, choices: tuple[str, ...]) -> str:
    text = "\0".join([facts_key or str(tree.root), str(config_dir), name, *choices])
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def compose(
    tree: VerlTree, config_dir: Path, name: str, choices: tuple[str, ...] = (), facts_key: str | None = None
) -> dict:
    """``{"config": data}`` or ``{"error": Hydra's message}`` for ``name`` composed from ``config_dir`` with the
    group overrides ``choices`` (override text, as on the command line)."""
    key = _key(facts_key, tree, config_dir, name, choices)
    found = _known(key, facts_key)
    if found is not None:
        return found
    found = _from_child(key, facts_key)  # composed by a child meanwhile (see prefetch)
    if found is not None:
        return found
    return _remember(key, _compose(tree, config_dir, name, choices), facts_key)


def _path(key: str) -> Path:
    return cache_dir() / "compose" / f"{key}.json"


def _known(key: str, facts_key: str | None) -> dict | None:
    """The result composed before: in this process, or (with a facts key) in the disk cache."""
    if key in _MEMO:
        return _MEMO[key]
    if facts_key is not None and _path(key).is_file():
        try:
            _MEMO[key] = json.loads(_path(key).read_text(encoding="utf-8"))
            return _MEMO[key]
        except (OSError, ValueError):
            pass
    return None


def _remember(key: str, result: dict, facts_key: str | None) -> dict:
    _MEMO[key] = result
    if facts_key is not None:
        try:
            write_atomic(_path(key), json.dumps(result))
        except OSError:
            pass  # a read-only cache only costs speed
    return result


_PREFETCHING: dict[str, forking.Child] = {}  # cache key -> the child composing it
_LATER: dict[forking.Child, list[Any]] = {}  # children that go on once they have composed -> what they sent since
_EXPECTED: dict[forking.Child, dict[tuple[str, str], str]] = {}  # child -> (folder, name) it composes -> cache key
_HERE: dict[tuple[str, str], dict] = {}  # in a child: what it composed before it knew the facts key
_COMPOSED = "composed"  # the tag of a composition a prefetching child sends
_END = object()  # what Child.next gives once the child has sent everything, or ended


def prefetch(
    tree: VerlTree,
    requests: list[tuple[Path, str]],
    facts_key: str | None,
    then: Callable[[], Iterable[Any]] | None = None,
) -> forking.Child | None:
    """Start composing the primary configs ``requests`` ((folder, name), no group choices), in order, in a forked
    child, for a run that asks for them after other work (a site check parses its pages first). :func:`compose`
    then takes the child's results, each as soon as it is ready, instead of composing. Where no child can be
    forked nothing happens (None), and :func:`compose` composes as before; :func:`stop_prefetching` ends a child
    whose work was not all asked for.

    With ``then``, the child goes on once it has composed: it sends what ``then()`` yields (it has the compositions
    in its own memo), and the caller reads that with :func:`rest`, which also ends the child."""
    keys = {(f, n): _key(facts_key, tree, f, n, ()) for f, n in requests}
    todo = [(f, n) for (f, n), k in keys.items() if k not in _PREFETCHING and _known(k, facts_key) is None]
    if not todo and then is None:
        return None

    if todo:
        _import_hydra()

    def produce() -> Iterator[Any]:
        yield from composing(tree, todo)
        keep_composed(tree, facts_key)
        if then is not None:
            yield from then()

    child = forking.start(produce)
    if child is not None:
        adopt(child, tree, todo, facts_key, later=then is not None)
    return child


def composing(tree: VerlTree, requests: list[tuple[Path, str]]) -> Iterator[Any]:
    """In a child process: compose each of ``requests`` ((folder, name)), keep it, and yield it for the parent (which
    takes it with :func:`rest` or :func:`compose`, once it has :func:`adopt`-ed the child). What is kept goes into
    this process's memo with :func:`keep_composed`, once the facts key is known (a child forked while the facts were
    being extracted learns it later)."""
    for folder, name in requests:
        result = _compose(tree, folder, name, ())
        _HERE[(str(folder), name)] = result
        yield (_COMPOSED, str(folder), name, result)


def keep_composed(tree: VerlTree, facts_key: str | None) -> None:
    """What :func:`composing` kept before the facts key was known, in the memo under that key."""
    for (folder, name), result in _HERE.items():
        _MEMO[_key(facts_key, tree, Path(folder), name, ())] = result
    _HERE.clear()


def adopt(
    child: forking.Child, tree: VerlTree, requests: list[tuple[Path, str]], facts_key: str | None, later: bool
) -> None:
    """Have :func:`compose` take ``requests`` from ``child`` (which runs :func:`composing` on them) instead of composing
    them; ``later``: the child sends more after them (read with :func:`rest`)."""
    expected = {(str(f), n): _key(facts_key, tree, f, n, ()) for f, n in requests}
    _EXPECTED[child] = expected
    _PREFETCHING.update(dict.fromkeys(expected.values(), child))
    if later:
        _LATER[child] = []


def _import_hydra() -> None:
    """Import Hydra's modules before forking a child that composes: the child needs them first thing, and a run
    that has compositions made for it reads overrides with the same modules (``hydra_overrides``, the config
    rules). Imported once, in the parent, they are not imported again in each process (about 70 ms each)."""
    import hydra  # noqa: F401 - its package: the compose API
    import hydra._internal.config_loader_impl  # noqa: F401 - applies overrides (checks.config_rules)
    import hydra.core.override_parser.overrides_parser  # noqa: F401 - reads them (hydra_overrides)


def _take(child: forking.Child, facts_key: str | None) -> bool:
    """Read the child's next value: a composition is remembered, anything else kept for :func:`rest`. False when
    the child has sent everything, or ended."""
    got = child.next(_END)
    if got is _END:
        return False
    if isinstance(got, tuple) and len(got) == 4 and got[0] == _COMPOSED:
        key = _EXPECTED.get(child, {}).get((got[1], got[2]))
        if key is not None:
            _PREFETCHING.pop(key, None)
            _remember(key, got[3], facts_key)
    else:
        _LATER.setdefault(child, []).append(got)
    return True


def _from_child(key: str, facts_key: str | None) -> dict | None:
    """The result for ``key`` from the child composing it, remembering what it sent before; None when no child
    composes it, or the child ended (failed) before it got there."""
    child = _PREFETCHING.pop(key, None)
    while child is not None and key not in _MEMO:
        if not _take(child, facts_key):  # it ended first: what it did not send is composed here, as without a child
            break
    if child is not None and child not in _PREFETCHING.values() and child not in _LATER:
        child.stop()  # all it was asked for is here: reap it
    return _MEMO.get(key)


def rest(child: forking.Child, facts_key: str | None) -> Iterator[Any]:
    """What a child started with ``prefetch(..., then=...)`` sends after its compositions (which are remembered on
    the way), as it sends it; ends when the child has sent everything or ended, and reaps it."""
    try:
        while True:
            later = _LATER.get(child, [])
            if later:
                yield later.pop(0)
            elif not _take(child, facts_key):
                return
    finally:
        _LATER.pop(child, None)
        _EXPECTED.pop(child, None)
        for k in [k for k, c in _PREFETCHING.items() if c is child]:
            del _PREFETCHING[k]
        child.stop()


def stop_prefetching() -> None:
    for child in set(_PREFETCHING.values()) | set(_LATER):
        child.stop()
    _PREFETCHING.clear()
    _LATER.clear()
    _EXPECTED.clear()


def _compose(tree: VerlTree, config_dir: Path, name: str, choices: tuple[str, ...]) -> dict:
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra
    from hydra.errors import HydraException
    from omegaconf import OmegaConf
    from omegaconf.errors import OmegaConfBaseException

    if not (config_dir / f"{name}.yaml").is_file():
        return {"error": f"Cannot find primary config '{name}'. Check that it's in your config search path."}
    overrides = list(choices)
    sp = searchpath(tree, config_dir, name)
    if sp is not None:
        overrides.append("hydra.searchpath=[" + ",".join(_quote(e) for e in sp) + "]")
    GlobalHydra.instance().clear()
    try:
        with warnings.catch_warnings(), omegaconf_on_libyaml(), gcpause.paused():
            warnings.simplefilter("ignore")
            with initialize_config_dir(config_dir=str(config_dir), version_base=None):
                cfg = hydra_compose(config_name=name, overrides=overrides)
        return {"config": OmegaConf.to_container(cfg, resolve=False)}
    except (HydraException, OmegaConfBaseException, ValueError) as e:
        return {"error": error_text(e)}
    finally:
        GlobalHydra.instance().clear()


@contextmanager
def omegaconf_on_libyaml() -> Iterator[None]:
    """While inside, ``OmegaConf.load`` (which Hydra calls for every config file) reads YAML with libyaml's parser.

    The loader is OmegaConf's own class (``omegaconf._utils.get_yaml_loader``: its float resolver, no timestamps,
    the duplicate-key error), with PyYAML's C parser put first, as PyYAML builds ``CSafeLoader`` from
    ``SafeLoader``'s constructor and resolver: the same data, about ten times faster to parse. Without libyaml
    nothing changes. tests/test_compose_libyaml.py composes verl's configs both ways and compares."""
    import omegaconf._utils as omegaconf_utils

    try:
        from yaml.cyaml import CParser as c_parser
    except ImportError:  # PyYAML without libyaml
        yield
        return
    original = omegaconf_utils.get_yaml_loader
    python_loader = original()

    class OmegaConfCLoader(c_parser, python_loader):  # type: ignore[misc, valid-type]
        def __init__(self, stream: Any) -> None:
            c_parser.__init__(self, stream)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)

    omegaconf_utils.get_yaml_loader = lambda: OmegaConfCLoader
    try:
        yield
    finally:
        omegaconf_utils.get_yaml_loader = original


def _quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def config_dirs(tree: VerlTree, entry_facts: dict) -> dict[str, Path]:
    """Primary config name -> absolute folder, from the entry-point facts."""
    return {n: tree.root / c["dir"] for n, c in entry_facts.get("configs", {}).items()}


def as_choice_text(value: Any) -> str:
    return str(value)
