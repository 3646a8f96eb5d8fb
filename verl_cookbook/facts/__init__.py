"""Facts about verl, extracted statically from its source, each with its source file and line.

The facts of every release the site covers (``data/releases.yaml``) ship with this package, built by
``scripts/build_facts.py`` and proven current by ``tests/test_shipped_facts.py`` (re-extracted from the release and
compared byte for byte): such a release needs no extraction, and its facts load without verl's source or the
network (:func:`shipped_facts`). Any other tree (``--verl-src``, a release not covered, ``--no-cache``) is
extracted in this process: every fact family (one module each) filters verl's files by their bytes and parses, of
each file it keeps, the definitions that name what it looks for (``facts/parts.py``), or the whole file when it needs
it all. The result is cached as JSON, keyed by the tree's file listing (path, size, mtime),
this package's own source and the libraries that judge, so a warm run only reads the cache.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from verl_cookbook.fingerprints import engines_fingerprint, package_fingerprint, tree_fingerprint
from verl_cookbook.session import Session
from verl_cookbook.verl_source import (
    VerlSourceError,
    VerlTree,
    cache_dir,
    missing_core_files,
    write_atomic,
)

# One entry per fact family: name -> its module under facts/, which has ``extract(tree)``. Add a module, list it
# here. The modules are imported when facts are extracted, not when cached facts are read (a warm run).
FAMILY_MODULES: dict[str, str] = {
    "config": "config",
    "engines": "engines",
    "model_engines": "model_engines",
    "entry_points": "entry_points",
    "dataclasses": "dataclass_types",
    "trainer": "trainer",
    "merger": "merger",
    "env": "env",
    "delta_guards": "delta_guards",
}


def families(names: Iterable[str] | None = None) -> dict[str, Callable[[VerlTree], Any]]:
    """name -> extractor, in the order the facts hold them: every family, or those ``names`` (only their
    modules are imported)."""
    wanted = FAMILY_MODULES if names is None else set(names)
    return {
        name: importlib.import_module(f"verl_cookbook.facts.{module}").extract
        for name, module in FAMILY_MODULES.items()
        if name in wanted
    }


class Facts:
    """All extracted facts for one verl tree, with lookups the checks need."""

    def __init__(
        self,
        data: dict,
        tree: VerlTree,
        key: str | None = None,
        session: Session | None = None,
        whole: Callable[[str], VerlTree] | None = None,
        release: str | None = None,
    ) -> None:
        self.data = data
        self.tree = tree
        self.release = release  # the covered release whose facts (and default compositions) ship, when they do
        self._whole = whole  # why -> the whole release, when ``tree`` is only what ships of it
        self.key = key  # identifies tree + extractor code; None for hand-made facts (no result caching)
        self.session = session or Session()  # what this run keeps while it runs (see ``session``)
        self._key_lines: dict[str, Mapping[str, int]] = {}  # generated config -> its key lines, read when first cited

    def source_tree(self, why: str) -> VerlTree:
        """A tree that holds every file of this release, for a check that reads verl files beyond what ships
        (a claim's ``file=``, a citation, a snippet's import). ``tree`` itself when whole; else the release, obtained
        once per run, ``why`` naming the page and line that need it (said when it cannot be obtained)."""
        if self.tree.whole or self._whole is None:
            return self.tree
        memo = self.session.whole_trees
        if self.tree.label not in memo:
            memo[self.tree.label] = self._whole(why)
        return memo[self.tree.label]

    # -- engines ---------------------------------------------------------------------------
    @property
    def registrations(self) -> list[dict]:
        return self.data["engines"]["registrations"]

    def backends(self) -> list[str]:
        """Backend names that verl.checkpoint_engine registers at runtime on some device."""
        return sorted(self.data["engines"]["resolution"])

    def engines_for(self, backend: str, device: str | None = None) -> list[dict]:
        """The engine classes that ``backend`` resolves to on ``device`` (or on any device)."""
        res = self.data["engines"]["resolution"].get(backend, {})
        if device:
            classes = {res[device]} if device in res else set()
        else:
            classes = set(res.values())
        return [r for r in self.registrations if r["backend"] == backend and r["class"] in classes]

    # -- config ----------------------------------------------------------------------------
    def model_backends(self, model_type: str, device: str | None = None) -> dict[str, list[str]] | None:
        """backend -> the ``EngineRegistry.register`` sources that register it for ``model_type`` (on ``device`` when
        given); None when these facts predate the family."""
        family = self.data.get("model_engines")
        if family is None:
            return None
        out: dict[str, list[str]] = {}
        for r in family["registrations"]:
            if r["model_type"] == model_type and (device is None or device in r["devices"]):
                for b in r["backends"]:
                    out.setdefault(b, []).append(r["source"])
        return out

    def config_names(self) -> list[str]:
        """Primary configs in the entry points' config folders (``ppo_trainer``, ``sft_trainer_engine``, ...)."""
        return sorted(self.data["entry_points"]["configs"])

    def config_dir(self, name: str) -> Path | None:
        c = self.data["entry_points"]["configs"].get(name)
        return self.tree.root / c["dir"] if c else None

    def compose(self, name: str, choices: tuple[str, ...] = (), config_dir: Path | None = None) -> dict:
        """``{"config": data}`` or ``{"error": Hydra's message}``: ``name`` composed by Hydra with the group
        overrides ``choices``, from ``config_dir`` (default: the folder verl keeps ``name`` in). Cached."""
        folder = config_dir or self.config_dir(name)
        if folder is None:
            return {"error": f"Cannot find primary config '{name}'. Check that it's in your config search path."}
        from verl_cookbook.facts import compose

        release = self.release
        if not choices and release is not None and folder.is_relative_to(self.tree.root):
            memo = self.session.shipped_compositions
            if release not in memo:
                memo[release] = compose.shipped(release)
            found = memo[release].get(compose.shipped_key(folder.relative_to(self.tree.root).as_posix(), name))
            if found is not None:
                return found
        return compose.compose(self.tree, folder, name, tuple(choices), self.key, self.session.compositions)

    def config_groups(self, name: str, config_dir: Path | None = None) -> set[str]:
        folder = config_dir or self.config_dir(name)
        if folder is None:
            return set()
        memo = self.session.config_groups
        if (folder, name) not in memo:
            from verl_cookbook.facts import compose

            memo[(folder, name)] = compose.groups(self.tree, folder, name)
        return memo[(folder, name)]

    def default_config(self, name: str = "ppo_trainer", choices: tuple[str, ...] = ()) -> dict | None:
        """verl's config ``name`` as Hydra composes it (interpolations unresolved), or None if it cannot."""
        return self.compose(name, choices).get("config")

    def config_source(self, path: str, name: str = "ppo_trainer") -> str | None:
        """``file:line`` of dotted key ``path``: in verl's generated ``_generated_<name>.yaml`` when there is one,
        else the primary config file. The generated file's key lines are read when first asked for (a run that
        replays every page from the cache never asks), once per process."""
        gen = self.data["config"]["generated"].get(name)
        if gen:
            line = self._generated_lines(gen["file"]).get(path)
            return f"{gen['file']}:{line}" if line else gen["file"]
        c = self.data["entry_points"]["configs"].get(name)
        return c["file"] if c else None

    def _generated_lines(self, rel: str) -> Mapping[str, int]:
        """Dotted key -> line in the tree's file ``rel``; empty when it cannot be read as YAML."""
        if rel not in self._key_lines:
            import yaml

            from verl_cookbook.yaml_lines import key_lines_kept

            try:
                self._key_lines[rel] = key_lines_kept(self.tree.read(rel))
            except (OSError, yaml.YAMLError):
                self._key_lines[rel] = {}
        return self._key_lines[rel]

    def entry_point(self, module: str) -> dict | None:
        """``{"config_name", "config_dir", "source", "migrates"}`` for a Hydra entry point of verl."""
        return self.data["entry_points"]["entry_points"].get(module)

    def entry_points(self) -> dict[str, dict]:
        return self.data["entry_points"]["entry_points"]

    def migrations(self) -> dict[str, dict]:
        return self.data["entry_points"]["migrations"]

    def converted(self, path: tuple[str, ...]) -> bool:
        """Whether verl turns the config node at ``path`` into its ``_target_`` dataclass (some
        ``omega_conf_to_dataclass`` call reaches it or an ancestor)."""
        return self.converted_at(path) is not None

    def converted_at(self, path: tuple[str, ...]) -> str | None:
        """``file:line`` of the ``omega_conf_to_dataclass`` call that turns the node at ``path`` (or an ancestor)
        into its ``_target_`` dataclass; None when none does."""
        from verl_cookbook.facts import dataclass_types

        return dataclass_types.converted_at(self.data["dataclasses"], path)

    def delta_guards(self) -> list:
        """verl's ``delta_sharded`` guards (``facts.delta_guards.Guard``), their code parsed once per run."""
        from verl_cookbook.facts import delta_guards

        key = str(self.tree.root)
        if key not in self.session.guards:
            self.session.guards[key] = delta_guards.from_facts(self.data.get("delta_guards") or [])
        return self.session.guards[key]

    def typed_merge(self, cls: str) -> str | None:
        """Where verl builds the dataclass ``cls`` (qualified or not) with OmegaConf's typed merge (``file:line`` of a
        ``dataclass_type=`` call), so that a value it cannot convert raises; None when verl only instantiates it."""
        return (self.data["dataclasses"].get("typed") or {}).get(cls.rpartition(".")[2])

    def dataclass_fields(self, target: str) -> tuple[str, dict[str, dict]] | None:
        """(class, fields through its bases) for the dataclass a ``_target_`` names; None if not a known one."""
        from verl_cookbook.facts import dataclass_types

        data = self.data["dataclasses"]
        q = dataclass_types.resolve(data, target)
        f = dataclass_types.fields(data, q) if q else None
        return (q, f) if q and f is not None else None

    def checkpoint_field(self, name: str) -> dict | None:
        dc = self.data["config"].get("checkpoint_engine_config") or {}
        return (dc.get("fields") or {}).get(name)

    def family(self, name: str) -> Any:
        return self.data.get(name)


def extract_all(tree: VerlTree) -> dict:
    """Every family's facts, in FAMILY_MODULES order, under ``{"verl": {"label", "version"}}``.

    A file a family reads that Python cannot parse (in the definitions the family reads of it) raises
    :class:`VerlSourceError` (exit code 2) naming the file, its line and the family: facts without it would be
    missing, not true."""
    from verl_cookbook.facts.pyast import Unparsable

    data: dict[str, Any] = {"verl": {"label": tree.label, "version": tree.version}}
    for name, extract in families().items():
        try:
            data[name] = extract(tree)
        except Unparsable as e:
            raise VerlSourceError(
                f"{tree.root / e.rel}:{e.line}:{e.col}: Python cannot parse this verl file ({e.why}); the facts about "
                f"{name.replace('_', ' ')} are read from it, so none are extracted from verl {tree.label}"
            ) from None
    return data


def require_whole_tree(tree: VerlTree) -> None:
    """Refuse a tree that lacks what every verl release has: facts from it would be empty, not true.

    Raises :class:`VerlSourceError` (exit code 2) naming the missing files.
    """
    missing = missing_core_files(tree.root)
    if missing:
        raise VerlSourceError(
            f"verl {tree.label} at {tree.root} is not a whole verl tree: it lacks {', '.join(missing)} "
            "(every verl release has them); no facts are extracted from it"
        )


def _require_registrations(tree: VerlTree, data: dict) -> None:
    if not data["engines"]["resolution"]:
        raise VerlSourceError(
            f"verl {tree.label} at {tree.root}: no checkpoint engine registers itself in "
            "verl/checkpoint_engine/ (every verl release registers some); no facts are extracted from it"
        )


def facts_key(tree: VerlTree) -> str:
    """What the facts of ``tree``, and every result cached under them, depend on: where the tree is, its files' sizes
    and times, this package's code, and the libraries (and Python) that judge (``engines_fingerprint``)."""
    parts = (str(tree.root), tree_fingerprint(tree), package_fingerprint(), engines_fingerprint())
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:32]


SHIPPED_DIR = Path(__file__).resolve().parent.parent / "data" / "facts"


def shipped_text(data: dict) -> str:
    """The facts as they ship: compact JSON, keys in the order the families give them, one line."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str) + "\n"


def shipped_facts(version: str) -> dict | None:
    """The facts shipped for release ``version``; None when it is not a covered release. Reads only this package's
    data: no verl source, no network."""
    from verl_cookbook.releases import covered_releases

    if version not in covered_releases():
        return None
    try:
        return json.loads((SHIPPED_DIR / f"{version}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):  # a package installed without its data: extract instead
        return None


def _release_of(tree: VerlTree) -> str | None:
    """The release ``tree`` is, when it is one unpacked by ``verl_source.from_release`` or what ships of one (never a
    checkout, an installed verl or a user's wheel). A checkout's label is its path: joined to the cache folder it
    would give the checkout itself, so the folder and the name are compared apart."""
    if not tree.whole:
        return tree.label
    releases = cache_dir() / "releases"
    return tree.label if tree.root.parent == releases and tree.root.name == tree.label else None


def load_facts(tree: VerlTree, use_cache: bool = True, whole: Callable[[str], VerlTree] | None = None) -> Facts:
    """Return the facts the checks compare pages with, read from a verl source tree.

    The facts of a covered release ship with this package; other trees are read from the cache when neither the
    tree nor this package changed, and are extracted (and cached) otherwise.

    Args:
        tree: the verl source, from `resolve`, `from_release` or `from_checkout`.
        use_cache: ``False`` (the command line's ``--no-cache``) extracts the facts afresh.
        whole: for a covered release read without its full source, a function that is given why a check needs
            the release's full source (the page and line) and returns its whole tree; ``None`` to check with what
            ships only.

    Returns:
        The `Facts` to pass to `check_paths`.

    Raises:
        VerlSourceError: the tree is not a whole verl tree, or this package ships no facts for its release.
    """
    if not tree.whole:  # what ships of a covered release: its facts ship too, whatever --no-cache says
        shipped = shipped_facts(tree.label)
        if shipped is None:
            raise VerlSourceError(f"verl {tree.label}: this package ships no facts for it (installed without data?)")
        return Facts(shipped, tree, facts_key(tree), whole=whole, release=tree.label)
    require_whole_tree(tree)
    key = facts_key(tree)
    release = _release_of(tree) if use_cache else None
    shipped = shipped_facts(release) if release else None
    if shipped is not None:
        return Facts(shipped, tree, key, release=release)
    path = cache_dir() / "facts" / f"{key}.json"
    if use_cache and path.is_file():
        try:
            return Facts(json.loads(path.read_text(encoding="utf-8")), tree, key)
        except (OSError, ValueError):  # unreadable, not UTF-8, not JSON: rebuild it
            pass
    data = extract_all(tree)
    _require_registrations(tree, data)
    if use_cache:
        try:
            write_atomic(path, json.dumps(data, default=str))
        except OSError:
            pass  # a read-only cache only costs speed
    return Facts(data, tree, key)
