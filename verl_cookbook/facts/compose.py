"""The config an entry point runs with, composed by Hydra itself from the tree's own config folder.

:func:`compose` runs Hydra's compose API (``initialize_config_dir`` / ``compose``) on ``<tree>/<config_dir>``
with the config-group choices of a command (``model_engine=megatron``, ``actor@actor_rollout_ref.actor=…``),
and returns the composed config as plain data (interpolations kept as text, ``???`` kept) or Hydra's own error
message. A ``pkg://verl.…`` entry in the primary config's ``hydra.searchpath`` would make Hydra import verl to
find the folder; it is mapped to the tree's folder (``file://<tree>/verl/…``) and passed as the
``hydra.searchpath`` override, which replaces the primary config's list. verl is never imported. A relative
``file://verl/…`` entry (relative to the working directory) is taken as run from the tree's root, as verl's own
example scripts are.

One compose costs about 0.2-0.4 s (and the first one imports Hydra), so each (tree, folder, config, group
choices) is composed once and kept: in the run's memo (``Session.compositions``), and as JSON beside the facts cache
(written to a temporary file and renamed, so a reader never sees half a file). The cache key includes the facts key
(tree listing + this package's code). For a covered release, every known config composed with no group choice ships
with the package (``data/compositions/<version>.json``, built by ``scripts/build_facts.py`` and proven current by
``tests/test_shipped_facts.py``): the site check and ``doctor`` on a usual script compose nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml

from verl_cookbook.hydra_overrides import error_text
from verl_cookbook.verl_source import VerlTree, cache_dir, write_atomic
from verl_cookbook.yaml_lines import safe_load


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


def options(tree: VerlTree, config_dir: Path, name: str, group: str) -> list[str]:
    """The options of config group ``group`` Hydra can find for this primary config: ``<group>/<option>.yaml`` in
    its folder and in its search path, sorted."""
    dirs = [config_dir]
    for entry in searchpath(tree, config_dir, name) or []:
        if entry.startswith("file://"):
            dirs.append(Path(entry[len("file://") :]))
    return sorted({p.stem for d in dirs for p in (d / group).glob("*.yaml") if p.is_file()})


def choice_packages(config_dir: Path, name: str, group: str, package: str | None = None) -> list[str]:
    """The parts of the config (dotted packages) that choosing an option of ``group`` fills, read from the primary
    config's ``defaults`` list: the entries whose option is ``${group}`` (``actor@actor_rollout_ref.actor:
    ${model_engine}_actor``: the option of ``model_engine`` names the actor's config file), and the choice's own
    package (``package``, or the package its entry names). A package Hydra writes at the top (``_global_``) is no
    part of it. Empty when the list cannot be read."""
    try:
        data = safe_load((config_dir / f"{name}.yaml").read_text(encoding="utf-8", errors="replace")) or {}
    except (OSError, yaml.YAMLError):
        return []
    defaults = data.get("defaults") if isinstance(data, dict) else None
    out: list[str] = [package] if package else []
    for entry in defaults if isinstance(defaults, list) else []:
        if not isinstance(entry, dict):
            continue
        for key, value in entry.items():
            head = str(key).split()[-1]  # `override model_engine` names the group too
            grp, _, pkg = head.partition("@")
            interpolates = f"${{{group}}}" in str(value)
            if not interpolates and not (grp == group and pkg and package is None):
                continue
            pkg = pkg or grp.replace("/", ".")
            if pkg != "_global_" and pkg not in out:
                out.append(pkg)
    return out


def selector_groups(config_dir: Path, name: str) -> list[str]:
    """The config groups whose choice names other entries' options in the primary config's ``defaults`` list
    (``${model_engine}_actor``): choosing one of them changes what whole parts of the config are, in order."""
    try:
        data = safe_load((config_dir / f"{name}.yaml").read_text(encoding="utf-8", errors="replace")) or {}
    except (OSError, yaml.YAMLError):
        return []
    defaults = data.get("defaults") if isinstance(data, dict) else None
    out: list[str] = []
    for entry in defaults if isinstance(defaults, list) else []:
        for value in entry.values() if isinstance(entry, dict) else []:
            for group in re.findall(r"\$\{([\w/]+)\}", str(value)):
                if group not in out:
                    out.append(group)
    return out


def _key(facts_key: str | None, tree: VerlTree, config_dir: Path, name: str, choices: tuple[str, ...]) -> str:
    text = "\0".join([facts_key or str(tree.root), str(config_dir), name, *choices])
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def compose(
    tree: VerlTree,
    config_dir: Path,
    name: str,
    choices: tuple[str, ...] = (),
    facts_key: str | None = None,
    memo: dict[str, dict] | None = None,
) -> dict:
    """``{"config": data}`` or ``{"error": Hydra's message}`` for ``name`` composed from ``config_dir`` with the
    group overrides ``choices`` (override text, as on the command line). ``memo``: the run's compositions (read and
    filled); with a facts key, the disk cache too."""
    memo = {} if memo is None else memo
    key = _key(facts_key, tree, config_dir, name, choices)
    if key in memo:
        return memo[key]
    path = cache_dir() / "compose" / f"{key}.json"
    if facts_key is not None and path.is_file():
        try:
            memo[key] = json.loads(path.read_text(encoding="utf-8"))
            return memo[key]
        except (OSError, ValueError):
            pass
    memo[key] = result = _compose(tree, config_dir, name, choices)
    if facts_key is not None:
        try:
            write_atomic(path, json.dumps(result))
        except OSError:
            pass  # a read-only cache only costs speed
    return result


SHIPPED_DIR = Path(__file__).resolve().parent.parent / "data" / "compositions"


def shipped_key(config_dir: str, name: str) -> str:
    """How a shipped composition is named: the config's folder relative to the tree's root, and its name."""
    return f"{config_dir}/{name}"


def shipped_text(compositions: dict[str, dict]) -> str:
    """Compositions as they ship: a JSON object with one config per line (a refresh shows as changed lines)."""
    lines = [
        f"{json.dumps(k)}:{json.dumps(v, ensure_ascii=False, separators=(',', ':'))}" for k, v in compositions.items()
    ]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def shipped(version: str) -> dict[str, dict]:
    """The default compositions shipped for release ``version`` (empty when none ship). Reads only this package."""
    try:
        return json.loads((SHIPPED_DIR / f"{version}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):  # not covered, or a package installed without its data: compose instead
        return {}


def compose_known(tree: VerlTree, configs: dict[str, dict]) -> dict[str, dict]:
    """Every config of ``configs`` (the facts' ``entry_points.configs``: name -> {dir, file}) composed with no group
    choice, keyed as they ship."""
    return {shipped_key(c["dir"], name): _compose(tree, tree.root / c["dir"], name, ()) for name, c in configs.items()}


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
        with warnings.catch_warnings(), omegaconf_on_libyaml():
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
        from yaml._yaml import CParser as c_parser  # what yaml.cyaml's loaders are built on
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
