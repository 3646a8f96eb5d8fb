"""The model the config rules share: an :class:`Assignment` (one key path set to one value, a YAML leaf or a
command-line override), paths in a config tree, verl's defaults with a YAML fragment merged in, and
:class:`CheckedConfig`, the config a :class:`~verl_cookbook.checks.config.checker.ConfigChecker` judges against."""

from __future__ import annotations

import dataclasses
import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from verl_cookbook.facts import Facts

CKPT_LEAF = "checkpoint_engine"
DEVICES = {"npu": "npu", "gpu": "cuda", "cuda": "cuda"}
OP_PREFIX = {"set": "", "add": "+", "force": "++", "delete": "~", "group": "", "yaml": ""}
UNKNOWN = "???"  # OmegaConf's missing-value marker: what a value known only at run time becomes


@dataclass
class Assignment:
    path: tuple[str, ...]
    value: Any
    file: str
    line: int
    col: int = 1
    op: str = "yaml"  # yaml | set | add (+) | force (++) | delete (~) | group (a config-group choice)
    raw: str | None = None  # the override as written (after shell quote removal); Hydra parses this text

    @property
    def dotted(self) -> str:
        return ".".join(self.path)

    def override_text(self) -> str:
        """The override as Hydra reads it: ``raw`` when known, else rebuilt from op, path and value."""
        if self.raw is not None:
            return self.raw
        text = OP_PREFIX.get(self.op, "") + self.dotted
        if self.op == "delete" and self.value is None:
            return text
        return f"{text}={override_value(self.value)}"


def override_value(value: Any) -> str:
    """``value`` in Hydra's override grammar (strings quoted, so Hydra gives back exactly this value)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value) if isinstance(value, int) or value == value and abs(value) != float("inf") else str(value)
    if isinstance(value, list | tuple):
        return "[" + ",".join(override_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{_dict_key(k)}:{override_value(v)}" for k, v in value.items()) + "}"
    text = str(value)
    if text.startswith("${") and text.endswith("}"):
        return text  # an interpolation, as written
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _dict_key(k: Any) -> str:
    s = str(k)
    return s if s.replace("_", "").replace("-", "").isalnum() else override_value(s)


def closest(word: str, choices: list[str], cutoff: float = 0.6) -> str | None:
    """The choice ``word`` was most likely meant to be (a finding's ``suggestion``), or None."""
    close = difflib.get_close_matches(word, choices, n=1, cutoff=cutoff)
    return close[0] if close else None


# An unknown config key is offered a sibling only when it is nearly the same word: a key of another release or
# another section (`rollout_correction`, `tool_kwargs`) is not a misspelling of the nearest sibling (`rollout_n`,
# `val_kwargs`), and a published list of findings must not send the reader to an unrelated key.
KEY_CUTOFF = 0.8


# verl's parallelism keys, long and short: a key naming one kind of parallelism is never offered a key of another,
# however near the spelling (`dp_model_parallel_size` is not `pipeline_model_parallel_size`: following that fix would
# set pipeline parallelism silently). The long forms are those of verl's generated trainer configs
# (`data_parallel_size`, `tensor_model_parallel_size`, `expert_tensor_parallel_size`, …); longest first.
_PARALLEL_LONG = (
    ("expert_tensor_model_parallel", "etp"),
    ("expert_tensor_parallel", "etp"),
    ("expert_model_parallel", "ep"),
    ("expert_parallel", "ep"),
    ("virtual_pipeline_model_parallel", "vpp"),
    ("pipeline_model_parallel", "pp"),
    ("pipeline_parallel", "pp"),
    ("tensor_model_parallel", "tp"),
    ("tensor_parallel", "tp"),
    ("data_model_parallel", "dp"),
    ("data_parallel", "dp"),
    ("context_model_parallel", "cp"),
    ("context_parallel", "cp"),
    ("ulysses_sequence_parallel", "sp"),
    ("sequence_parallel", "sp"),
)
_PARALLEL_SHORT = frozenset(short for _long, short in _PARALLEL_LONG)


def parallel_form(key: str) -> tuple[str, frozenset[str]]:
    """``key`` with each kind of parallelism it names written short, and those kinds: `data_parallel_size` and
    `dp_model_parallel_size` are both (`dp_size`, {dp}); a key naming none is itself with no kinds."""
    words = key.split("_")
    out: list[str] = []
    kinds: set[str] = set()
    i = 0
    while i < len(words):
        short, n = _parallel_at(words, i)
        kinds |= {short} if short else set()
        out.append(short or words[i])
        i += n
    return "_".join(out), frozenset(kinds)


def _parallel_at(words: list[str], i: int) -> tuple[str, int]:
    """(the short kind, how many words) of a parallelism named at ``words[i]``, or ("", 1)."""
    for long, short in _PARALLEL_LONG:
        n = long.count("_") + 1
        if words[i : i + n] == long.split("_"):
            return short, n
    if words[i] not in _PARALLEL_SHORT:
        return "", 1
    n = 1  # `dp_model_parallel_size`, `tp_parallel_size`: the rest of the long form names the same kind
    while i + n < len(words) and words[i + n] in ("model", "parallel"):
        n += 1
    return words[i], n


def closest_key(word: str, choices: list[str], cutoff: float = KEY_CUTOFF) -> str | None:
    """The key an unknown config key is a misspelling of (the suggestion of ``config/unknown-key`` and
    ``config/not-a-field``, on a page's table or a command line), or None. Parallelism abbreviations are read as
    verl's keys spell them out, and a key naming one kind of parallelism is offered only a key naming the same."""
    short, kinds = parallel_form(word)
    if not kinds:
        return closest(word, choices, cutoff)
    same: dict[str, str] = {}
    for c in choices:
        c_short, c_kinds = parallel_form(c)
        if c_kinds == kinds:
            same.setdefault(c_short, c)  # the first of two spellings of one key (`tp_size`, `tensor_parallel_size`)
    near = closest(short, sorted(same), cutoff)  # `dp_model_parallel_size` -> `data_parallel_size`
    return same[near] if near else closest(word, sorted(same.values()), cutoff)  # a typo of the long form


def keys_under(parent: str, choices: list[str]) -> str:
    """The fact of an unknown-key finding: the keys verl's config has where the key was looked for."""
    return f"keys under {parent or '(top level)'}: {', '.join(choices[:12])}{' …' if len(choices) > 12 else ''}"


def lookup_path(base: Any, path: tuple[str, ...]) -> tuple[str, int, Any]:
    """Walk ``path`` in ``base``: ("found", depth, value) | ("open", depth, None) | ("unknown", depth, parent)
    | ("leaf", depth, value) when a non-mapping value sits where the path goes on."""
    node = base
    for depth, key in enumerate(path):
        if isinstance(node, dict):
            if key in node:
                node = node[key]
                continue
            if not node:  # an empty mapping in verl's defaults (e.g. engine_kwargs: {}) takes any key
                return ("open", depth, None)
            return ("unknown", depth, node)
        if node is None:  # a null default may be replaced by a mapping
            return ("open", depth, None)
        return ("leaf", depth, node)
    return ("found", len(path), node)


def ckpt_prefixes(base: dict) -> list[tuple[str, ...]]:
    """Every path in the default config that holds a checkpoint_engine block."""
    out = []

    def walk(node: Any, path: tuple[str, ...]) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k == CKPT_LEAF and isinstance(v, dict) and "backend" in v:
                    out.append((*path, k))
                else:
                    walk(v, (*path, k))

    walk(base, ())
    return out


class CheckedConfig:
    """A primary config of verl as Hydra composes it, with what every rule on it needs: the facts, the config's
    name and folder, the entry point that runs it, the device it runs on."""

    def __init__(
        self,
        facts: Facts,
        config: str = "ppo_trainer",
        device: str | None = None,
        *,
        config_dir: Path | None = None,
        entry_point: str | None = None,
    ) -> None:
        self.facts = facts
        self.config = config
        self.config_dir = config_dir
        self.entry_point = entry_point
        self.device = DEVICES.get(device or "", None)
        self.composed = facts.compose(config, (), config_dir)
        self.base = self.composed.get("config")

    def src(self, path: tuple[str, ...] | str) -> str | None:
        dotted = path if isinstance(path, str) else ".".join(path)
        return self.facts.config_source(dotted, self.config)


def merged_config(base: dict, assigns: list[Assignment], unknown: set[tuple[str, ...]] | None = None) -> dict:
    """verl's defaults with YAML-fragment assignments merged in (deletions remove the key). Keys in ``unknown``
    (set from a shell variable) get OmegaConf's missing-value marker ``???``, which no rule treats as known.
    Overrides are applied by Hydra in :meth:`ConfigChecker.check` (the config each check judges).

    Neither ``base`` nor the assignments are changed: the mappings along each assigned path are copied, and the
    rest is shared with ``base`` (as ``hydra_apply._graft`` shares it), so the result is read, never written."""
    cfg = dict(base)
    for a in assigns:
        if unknown and a.path in unknown and a.op != "delete":
            a = dataclasses.replace(a, value=UNKNOWN)
        node = cfg
        for key in a.path[:-1]:
            child = node.get(key)
            node[key] = dict(child) if isinstance(child, dict) else {}
            node = node[key]
        if a.op == "delete":
            node.pop(a.path[-1], None)
        elif isinstance(a.value, dict) and isinstance(node.get(a.path[-1]), dict):
            node[a.path[-1]] = _deep_merge(node[a.path[-1]], a.value)
        else:
            node[a.path[-1]] = a.value
    return cfg


def _deep_merge(a: dict, b: dict) -> dict:
    out = dict(a)
    for k, v in b.items():
        out[k] = _deep_merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def fitting_config(facts: Facts, paths: list[tuple[str, ...]], base: dict | None = None) -> str:
    """The primary config a fragment with these key paths (and no config choice of its own) is written for:
    ``ppo_trainer`` when every path is in it, else the config in its folder with the fewest paths verl's
    composition lacks (a fragment for the Megatron engine fits ``ppo_megatron_trainer``); a tie keeps
    ``ppo_trainer``. A key no config has is then reported as unknown against the config chosen."""
    if base is None:
        base = facts.default_config("ppo_trainer") or {}

    def unknown(cfg: Any) -> int:
        return sum(lookup_path(cfg, p)[0] == "unknown" for p in paths) if isinstance(cfg, dict) else len(paths) + 1

    best, fewest = "ppo_trainer", unknown(base)
    folder = facts.config_dir("ppo_trainer")
    for name in facts.config_names():
        if not fewest:
            break
        if name != "ppo_trainer" and facts.config_dir(name) == folder:
            n = unknown(facts.default_config(name))
            if n < fewest:
                best, fewest = name, n
    return best
