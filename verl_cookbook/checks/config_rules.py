"""Rules for config assignments, shared by YAML fragments and Hydra overrides.

An :class:`Assignment` is one key path set to one value: a YAML leaf (``op="yaml"``) or a command-line override
(``set``/``add``/``force``/``delete`` for ``k=v``/``+k=v``/``++k=v``/``~k``, ``group`` for a config-group choice
such as ``model_engine=megatron``). Overrides are judged by Hydra itself: each is parsed with Hydra's
``OverridesParser`` (from ``raw``, the user's own text, when the reader kept it), group choices are composed by
Hydra from the tree's config folder (:mod:`verl_cookbook.facts.compose`), and the other overrides are applied to
the composed config with Hydra's own ``_apply_overrides_to_config`` — so a finding quotes the error Hydra prints.
Types come from the dataclass a node's ``_target_`` names (:func:`conversion_error`). On top: backend names no
engine registers, ``engine_kwargs`` under a name other than the backend in effect, kwargs the engine's
constructor does not take, legacy keys the entry point never reads, and (for a whole command) mandatory ``???``
values nobody sets.
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
import functools
import os
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from verl_cookbook.facts import Facts
from verl_cookbook.findings import Finding
from verl_cookbook.hydra_overrides import hydra_message, op, parse_one

CKPT_LEAF = "checkpoint_engine"
DEVICES = {"npu": "npu", "gpu": "cuda", "cuda": "cuda"}
_PREFIX = {"set": "", "add": "+", "force": "++", "delete": "~", "group": "", "yaml": ""}
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
        text = _PREFIX.get(self.op, "") + self.dotted
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


def did_you_mean(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f"; did you mean `{close[0]}`?" if close else ""


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


def type_error(default: Any, value: Any, annotation: str | None = None) -> str | None:
    """Why ``value`` cannot stand where a Python default is ``default`` (an engine constructor's keyword argument,
    passed as is); None if it can."""
    if isinstance(value, str) and value.startswith("${"):
        return None  # an interpolation: resolved by OmegaConf at run time
    if value is None:
        return None
    expected = None
    if default is None:
        ann = (annotation or "").replace("Optional[", "").rstrip("]")
        expected = {"str": str, "int": int, "bool": bool, "float": float, "dict": dict, "list": list}.get(ann)
        if expected is None:
            return None
    elif isinstance(default, bool):
        expected = bool
    elif isinstance(default, int):
        expected = int
    elif isinstance(default, float):
        expected = float
    elif isinstance(default, str):
        expected = str
    elif isinstance(default, dict):
        expected = dict
    elif isinstance(default, list):
        expected = list
    if expected is None:
        return None
    ok = {
        bool: isinstance(value, bool),
        int: isinstance(value, int) and not isinstance(value, bool),
        float: isinstance(value, int | float) and not isinstance(value, bool),
        str: isinstance(value, str | int | float) and not isinstance(value, bool),
        dict: isinstance(value, dict),
        list: isinstance(value, list),
    }[expected]
    if ok:
        return None
    return f"expected {expected.__name__}, got {type(value).__name__} {value!r}"


# -- types from verl's dataclasses ----------------------------------------------------------------------------
_TYPING = {
    "int": int,
    "float": float,
    "str": str,
    "bool": bool,
    "bytes": bytes,
    "Any": Any,
    "None": None,
    "list": list,
    "dict": dict,
    "tuple": tuple,
    "List": typing.List,  # noqa: UP006 - the names verl's annotations use
    "Dict": typing.Dict,  # noqa: UP006
    "Tuple": typing.Tuple,  # noqa: UP006
    "Optional": typing.Optional,
    "Union": typing.Union,
}


def _annotation(text: str) -> Any:
    """A Python type for annotation text, with every name that is not a builtin or typing name (another
    dataclass, an enum, ``torch.dtype``) turned into ``Any``: what can't be judged, isn't. Raises on Literal etc."""
    import ast

    def conv(node: ast.AST) -> Any:
        if isinstance(node, ast.Constant):
            if node.value is None:
                return None
            if isinstance(node.value, str):
                return conv(ast.parse(node.value, mode="eval").body)
            raise ValueError(node.value)
        if isinstance(node, ast.Name | ast.Attribute):
            name = node.id if isinstance(node, ast.Name) else node.attr
            if isinstance(node, ast.Attribute) and not (isinstance(node.value, ast.Name) and node.value.id == "typing"):
                return Any
            return _TYPING.get(name, Any)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return typing.Union[conv(node.left), conv(node.right)]  # noqa: UP007
        if isinstance(node, ast.Subscript):
            base = conv(node.value)
            if base is Any:
                return Any
            args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            conv_args = tuple(conv(a) for a in args)
            if base in (typing.Optional,):
                return typing.Optional[conv_args[0]]  # noqa: UP007, UP045
            if base in (typing.Union,):
                return typing.Union[conv_args]  # noqa: UP007
            origin = {list: typing.List, dict: typing.Dict, tuple: typing.Tuple}.get(base, base)  # noqa: UP006
            if origin is typing.Tuple:  # noqa: UP006
                return typing.List[conv_args[0]] if conv_args else list  # noqa: UP006 - OmegaConf stores it as a list
            return origin[conv_args if len(conv_args) > 1 else conv_args[0]]
        raise ValueError(ast.dump(node))

    return conv(ast.parse(text, mode="eval").body)


@functools.lru_cache(maxsize=512)
def _probe(tp: Any) -> Any:
    """A one-field OmegaConf structured config of type ``tp``; None when OmegaConf can't represent ``tp``."""
    from omegaconf import MISSING, OmegaConf
    from omegaconf.errors import OmegaConfBaseException

    try:
        dc = dataclasses.make_dataclass("Field", [("value", tp, dataclasses.field(default=MISSING))])
        return OmegaConf.structured(dc)
    except (OmegaConfBaseException, TypeError, ValueError):
        return None


def conversion_error(annotation: str, value: Any) -> str | None:
    """OmegaConf's own message when ``value`` cannot be converted to a field annotated ``annotation`` (what
    ``OmegaConf.merge(OmegaConf.structured(Config), cfg)`` in verl's ``omega_conf_to_dataclass`` raises); None when
    it converts, when the value is null, an interpolation or ``???``, or when the annotation can't be judged.
    An int for a float converts; ``"0.7"`` for a float converts; a union converts when one member does."""
    from omegaconf import OmegaConf
    from omegaconf.errors import OmegaConfBaseException

    if value is None or (isinstance(value, str) and ("${" in value or value == UNKNOWN)):
        return None
    try:
        tp = _annotation(annotation)
    except (ValueError, SyntaxError, TypeError):
        return None
    members = typing.get_args(tp) if typing.get_origin(tp) is typing.Union else (tp,)
    members = tuple(m for m in members if m is not type(None))
    if any(m is Any for m in members):
        return None
    first = None
    for m in members:
        probe = _probe(m)
        if probe is None:
            return None
        try:
            OmegaConf.merge(probe, {"value": value})
            return None
        except OmegaConfBaseException as e:
            first = first or str(e).splitlines()[0]
    return first


def _ckpt_prefixes(base: dict) -> list[tuple[str, ...]]:
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


# -- Hydra --------------------------------------------------------------------------------------------------------
def assignment_from_override(text: str, file: str, line: int, col: int = 1) -> Assignment | Finding:
    """One command-line override (after the shell's quote removal), parsed by Hydra's ``OverridesParser``: an
    :class:`Assignment` carrying ``raw=text`` (so the checker re-reads the user's own text), or an
    ``override/malformed`` finding quoting Hydra. For a shell reader that no longer keeps its own grammar."""
    from hydra.errors import HydraException

    try:
        ov = parse_one(text)
    except HydraException as e:
        return Finding(file, line, col, "override/malformed", f"Hydra cannot parse `{text}`: {hydra_message(e)}")
    value = list(ov.sweep_string_iterator()) if ov.is_sweep_override() else ov.value()
    return Assignment(tuple(ov.key_or_group.split(".")), value, file, line, col, op(ov), raw=text)


def entry_point_findings(facts: Facts, module: str, file: str, line: int, col: int = 1) -> list[Finding]:
    """A ``python -m verl.…`` module that does not exist in this verl (scripts written for older verl still call
    ``verl.trainer.main_generation``)."""
    if not module.startswith("verl.") or facts.entry_point(module):
        return []
    rel = module.replace(".", "/")
    if facts.tree.exists(f"{rel}.py") or facts.tree.exists(f"{rel}/__main__.py"):
        return []
    entries = sorted(facts.entry_points())
    label = facts.tree.version or facts.tree.label
    return [
        Finding(
            file,
            line,
            col,
            "command/unknown-entry-point",
            f"`python -m {module}`: verl {label} has no module `{module}`, so Python stops with "
            f"'No module named {module}'" + did_you_mean(module, entries),
            fact="Hydra entry points: " + ", ".join(f"{m} ({facts.entry_point(m)['config_name']})" for m in entries),
            fact_source=", ".join(facts.entry_point(m)["source"] for m in entries[:3])
            + (" …" if len(entries) > 3 else ""),
        )
    ]


def resolve_config(
    facts: Facts, module: str | None, config_name: str | None = None, config_path: str | None = None
) -> tuple[str, Path | None, str | None]:
    """(config name, config folder, why it is unreadable) for a command: ``@hydra.main`` of ``module`` names the
    default, ``--config-name``/``-cn`` replaces the name and ``--config-path``/``-cp`` the folder (relative to the
    folder of the entry point's file, as Hydra resolves it)."""
    entry = facts.entry_point(module or "") if module else None
    name = config_name or (entry["config_name"] if entry else "ppo_trainer")
    if name.endswith(".yaml"):
        name = name[: -len(".yaml")]
    folder: Path | None = None
    if config_path:
        if config_path.startswith("pkg://"):
            folder = facts.tree.root.joinpath(*config_path[len("pkg://") :].strip("/").split("."))
        elif os.path.isabs(config_path):
            folder = Path(config_path)
        elif entry:
            base = (facts.tree.root / entry["source"].rsplit(":", 1)[0]).parent
            folder = Path(os.path.normpath(base / config_path))
        if folder is None or not folder.is_dir():
            return name, None, f"--config-path {config_path}: no such folder here; the config was not composed"
    elif entry and entry.get("config_dir"):
        folder = facts.tree.root / entry["config_dir"]
    return name, folder or facts.config_dir(name), None


class ConfigChecker:
    """Judges assignments against the config ``config`` (a primary config of verl) as Hydra composes it.

    ``config_dir``: the folder to compose it from (``--config-path``; default: the folder verl keeps it in).
    ``entry_point``: the module that runs it (``verl.trainer.main_ppo``), which decides which legacy keys are read;
    default: every entry point whose ``@hydra.main`` names ``config``."""

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

    def check(
        self,
        assigns: list[Assignment],
        *,
        mode: str = "config",
        delta: bool = False,
        unknown: set[tuple[str, ...]] | None = None,
        whole_command: bool = False,
        multirun: bool = False,
    ) -> list[Finding]:
        """``mode``: "config" (a fragment to apply) or "defaults" (a fragment claiming verl's defaults).
        ``delta``: also evaluate verl's ``delta_sharded`` run-time guards on the merged config; ``unknown``:
        paths whose value is not known statically (a shell variable), which no rule treats as known.
        ``whole_command``: the assignments are every override of one command, so a mandatory ``???`` value they
        leave unset is reported; ``multirun``: the command has ``--multirun`` (sweeps are allowed)."""
        if self.base is None:
            a = assigns[0] if assigns else None
            return [
                Finding(
                    a.file if a else "?",
                    a.line if a else 1,
                    a.col if a else 1,
                    "config/unknown-config",
                    f"Hydra cannot compose verl's config `{self.config}`: {_hydra_message_text(self.composed)}",
                    fact=f"configs: {', '.join(self.facts.config_names())}",
                )
            ]
        unknown = unknown or set()
        findings: list[Finding] = []
        overrides = [a for a in assigns if a.op != "yaml"]
        fragment = [a for a in assigns if a.op == "yaml"]
        base = self.base
        applied: list[Assignment] = []
        merged: dict | None = None  # this check's config after its own assignments; nothing kept between checks
        if overrides:
            found, base, merged, applied = self._apply(overrides, unknown, multirun)
            findings.extend(found)
        if fragment:
            for a in fragment:
                findings.extend(self._check_path(a, mode, base))
            merged = merged_config(merged or base, fragment, unknown)
        cfg = merged
        values = applied + fragment
        if mode == "config":
            findings.extend(self._check_types(values, cfg, unknown))
            findings.extend(self._check_legacy([a for a in values if lookup_path(base, a.path)[0] != "unknown"]))
            findings.extend(self._check_engines(values, base))
            if delta:
                findings.extend(self._check_delta(values, cfg, base))
            if whole_command and overrides:
                findings.extend(self._check_missing(cfg, unknown, overrides[0]))
        return findings

    # -- Hydra's override semantics ---------------------------------------------------------------------------
    def _apply(
        self, overrides: list[Assignment], unknown: set[tuple[str, ...]], multirun: bool
    ) -> tuple[list[Finding], dict, dict, list[Assignment]]:
        """Parse each override with Hydra, compose the group choices, apply the rest one by one with Hydra's
        ``_apply_overrides_to_config``. Returns (findings, composed base, merged config, applied assignments)."""
        from hydra.errors import HydraException

        findings: list[Finding] = []
        groups = self.facts.config_groups(self.config, self.config_dir)
        parsed: list[tuple[Assignment, Any]] = []
        for a in overrides:
            text = a.override_text()
            if a.path in unknown and a.op != "delete" and a.raw is None:
                text = f"{_PREFIX.get(a.op, '')}{a.dotted}={UNKNOWN!r}".replace('"', "'")
            try:
                ov = parse_one(text)
            except HydraException as e:
                findings.append(
                    Finding(
                        a.file, a.line, a.col, "override/malformed", f"Hydra cannot parse `{text}`: {hydra_message(e)}"
                    )
                )
                continue
            if ov.is_hydra_override():
                continue  # Hydra's own config (hydra.run.dir=…), not verl's
            if ov.is_sweep_override():
                if not multirun:
                    findings.append(self._sweep_finding(a, ov))
                    continue
                first = next(iter(ov.sweep_string_iterator()), None)
                key = ov.get_key_element()
                ov = parse_one(f"{key}={first}" if first is not None else key)
            parsed.append((a, ov))
        choices = [
            (a, ov)
            for a, ov in parsed
            if ov.key_or_group in groups and not isinstance(ov.value(), dict) and not ov.is_hydra_override()
        ]
        values = [(a, ov) for a, ov in parsed if (a, ov) not in choices]
        composed = self.composed
        hidden: list[tuple[str, ...]] = []  # packages of a group choice Hydra cannot compose: not judged
        meant = self._meant_choices(values, choices, groups)
        while choices or meant:
            chosen = tuple(ov.input_line for _a, ov in choices) + meant
            composed = self.facts.compose(self.config, chosen, self.config_dir)
            if "error" not in composed:
                break
            if meant:  # what a misplaced choice meant does not compose either: judge the rest without it
                meant, composed = (), self.composed
                continue
            bad = next((c for c in choices if f"'{c[1].key_or_group}/" in composed["error"]), choices[0])
            a, ov = bad
            findings.append(
                Finding(
                    a.file,
                    a.line,
                    a.col,
                    "override/group",
                    f"Hydra cannot compose `{self.config}` with `{a.override_text()}`: {_hydra_message_text(composed)}",
                    fact_source=self.facts.config_source("", self.config),
                )
            )
            hidden.append(tuple((ov.package or ov.key_or_group.replace("/", ".")).split(".")))
            choices = [c for c in choices if c is not bad]
            composed = self.composed
        values = [(a, ov) for a, ov in values if not _below_any(tuple(ov.key_or_group.split(".")), hidden)]
        base = composed["config"]
        merged, applied, errors = _apply_values(base, values)
        for a, ov, msg in errors:
            findings.append(self._override_finding(a, ov, msg, base))
        return findings, base, merged, applied

    def _meant_choices(self, values: list[tuple[Assignment, Any]], choices: list, groups: set[str]) -> tuple[str, ...]:
        """``group=option`` for each group choice written under a node (``actor_rollout_ref.actor.model_engine=
        megatron``, a key verl's config does not have) when the command makes no choice of that group itself.
        The override is still reported (``config/unknown-key``, with the fix); the rest of the command is judged
        on the config the fix gives, so the keys of the meant option (``….megatron.*``) are not reported too."""
        made = {ov.key_or_group for _a, ov in choices}
        out: dict[str, str] = {}
        for _a, ov in values:
            path = tuple(ov.key_or_group.split("."))
            group, option = path[-1], ov.value()
            plain = not (ov.is_delete() or ov.is_add() or ov.is_force_add())  # `+a.b.group=x` adds a key of yours
            if not plain or len(path) < 2 or group not in groups or group in made or group in out:
                continue
            unknown_key = lookup_path(self.composed["config"], path)[0] == "unknown"
            if isinstance(option, str) and option != UNKNOWN and unknown_key:
                out[group] = f"{group}={option}"
        return tuple(out.values())

    def _sweep_finding(self, a: Assignment, ov: Any) -> Finding:
        from hydra._internal.config_loader_impl import ConfigLoaderImpl
        from hydra.errors import HydraException
        from hydra.types import RunMode

        try:
            ConfigLoaderImpl.validate_sweep_overrides_legal([ov], RunMode.RUN, from_shell=True)
            msg = f"'{ov.input_line}' is a sweep"
        except HydraException as e:
            msg = hydra_message(e)
        return Finding(
            a.file, a.line, a.col, "override/sweep-without-multirun", f"Hydra refuses `{ov.input_line}`: {msg}"
        )

    def _override_finding(self, a: Assignment, ov: Any, msg: str, base: dict) -> Finding:
        where = (a.file, a.line, a.col)
        path = tuple(ov.key_or_group.split("."))
        quoted = msg.replace("\n", " ")
        if msg.startswith("Could not override"):
            state, depth, node = lookup_path(base, path)
            if state == "leaf":
                return Finding(
                    *where,
                    "config/not-a-mapping",
                    f"`{'.'.join(path[:depth])}` is a value in verl's config, not a mapping, so `{ov.key_or_group}` "
                    f"cannot be set; Hydra: {quoted}",
                    fact=f"default: {node!r}",
                    fact_source=self.src(path[:depth]),
                )
            if state == "open":
                return Finding(
                    *where,
                    "override/needs-plus",
                    f"`{ov.key_or_group}` is not in verl's `{self.config}` config (its parent is empty there), so "
                    f"Hydra rejects `{ov.input_line}`: {quoted}",
                    fact_source=self.src(path[:depth]),
                )
            parent = ".".join(path[:depth]) or "(top level)"
            key = path[depth] if depth < len(path) else path[-1]
            choices = sorted(node) if isinstance(node, dict) else []
            hint = did_you_mean(key, choices)
            case = "suggested" if hint else ""
            if key in self.facts.config_groups(self.config, self.config_dir) and len(path) > 1:
                hint = f"; `{key}` is a config group: choose it on its own, `{key}={ov.input_line.partition('=')[2]}`"
                case = "group"
            return Finding(
                *where,
                "config/unknown-key",
                f"unknown key `{ov.key_or_group}`: verl's `{self.config}` config has no `{key}` under `{parent}`, "
                f"so Hydra stops: {quoted}" + hint,
                fact=f"keys under {parent}: {', '.join(choices[:12])}{' …' if len(choices) > 12 else ''}",
                fact_source=self.src(path[:depth]) if depth else self.facts.config_source("", self.config),
                data={"key": ov.key_or_group, "case": case},
            )
        if msg.startswith("Could not append"):
            node = lookup_path(base, path)[2]
            return Finding(
                *where,
                "override/plus-on-existing",
                f"`{ov.key_or_group}` already exists in verl's `{self.config}` config, so Hydra rejects "
                f"`{ov.input_line}`: {quoted}",
                fact=f"default: {node!r}",
                fact_source=self.src(path),
            )
        if msg.startswith("Could not delete"):
            return Finding(
                *where,
                "override/delete-missing",
                f"`{ov.input_line}`: Hydra: {quoted}",
                fact_source=self.src(path[:-1]),
            )
        if "looks like a config group" in msg:
            groups = sorted(self.facts.config_groups(self.config, self.config_dir))
            return Finding(
                *where,
                "override/unknown-group",
                f"Hydra: {quoted}" + did_you_mean(ov.key_or_group, groups),
                fact=f"config groups: {', '.join(groups)}",
                fact_source=self.facts.config_source("", self.config),
            )
        return Finding(
            *where, "override/rejected", f"Hydra rejects `{ov.input_line}`: {quoted}", fact_source=self.src(path)
        )

    # -- YAML fragments -------------------------------------------------------------------------------------------
    def _check_path(self, a: Assignment, mode: str, base: dict) -> list[Finding]:
        state, depth, node = lookup_path(base, a.path)
        where = (a.file, a.line, a.col)
        if state == "unknown" and self._in_dict_field(base, a.path[: depth + 1]):
            return []  # a new entry of a dict-typed field (distillation.teacher_models.<name>): a file may add it
        if state == "unknown":
            parent = ".".join(a.path[:depth]) or "(top level)"
            key = a.path[depth]
            choices = sorted(node)
            hint = did_you_mean(key, choices)
            return [
                Finding(
                    *where,
                    "config/unknown-key",
                    f"unknown key `{a.dotted}`: verl's config has no `{key}` under `{parent}`" + hint,
                    fact=f"keys under {parent}: {', '.join(choices[:12])}{' …' if len(choices) > 12 else ''}",
                    fact_source=self.src(a.path[:depth]) if depth else self.facts.config_source("", self.config),
                    data={"key": a.dotted, "case": "suggested" if hint else ""},
                )
            ]
        if state == "leaf":
            return [
                Finding(
                    *where,
                    "config/not-a-mapping",
                    f"`{'.'.join(a.path[:depth])}` is a value in verl's config, not a mapping; "
                    f"`{a.dotted}` cannot be set",
                    fact=f"default: {node!r}",
                    fact_source=self.src(a.path[:depth]),
                )
            ]
        exists = state == "found"
        out: list[Finding] = []
        if exists and mode == "defaults" and not isinstance(a.value, dict) and a.value != node:
            out.append(
                Finding(
                    *where,
                    "defaults/mismatch",
                    f"`{a.dotted}` is shown as the default {a.value!r}, but verl's default is {node!r}",
                    fact=f"default: {node!r}",
                    fact_source=self._default_source(a.path),
                )
            )
        elif mode == "defaults" and not exists:
            out.append(
                Finding(
                    *where,
                    "defaults/not-a-default",
                    f"`{a.dotted}` is shown as a default, but verl's default config has no such key",
                    fact_source=self.src(a.path[:depth]),
                )
            )
        return out

    def _default_source(self, path: tuple[str, ...]) -> str | None:
        if len(path) >= 2 and path[-2] == CKPT_LEAF:
            fld = self.facts.checkpoint_field(path[-1])
            if fld:
                return f"{self.src(path)}; {fld['source']}"
        return self.src(path)

    # -- types ----------------------------------------------------------------------------------------------------
    def _dataclass_of(self, cfg: dict, path: tuple[str, ...]) -> tuple[int, str, dict[str, dict]] | None:
        """(k, class, fields) for the nearest node above ``path`` that has a ``_target_`` (at ``path[:k]``)."""
        nodes: list[Any] = [cfg]
        for key in path[:-1]:
            last = nodes[-1]
            nodes.append(last.get(key) if isinstance(last, dict) else None)
        for k in range(len(nodes) - 1, -1, -1):
            target = nodes[k].get("_target_") if isinstance(nodes[k], dict) else None
            if isinstance(target, str):
                dc = self.facts.dataclass_fields(target) if self.facts.converted(path[:k]) else None
                return (k, *dc) if dc else None
        return None

    def _in_dict_field(self, cfg: dict, path: tuple[str, ...]) -> bool:
        return self.dict_field(path, cfg) is not None

    def dict_field(self, path: tuple[str, ...], cfg: dict | None = None) -> tuple[str, ...] | None:
        """The path of the dict-typed dataclass field that ``path`` lies below (``distillation.teacher_models``
        for ``distillation.teacher_models.math.key``), or None."""
        dc = self._dataclass_of(cfg if cfg is not None else self.base or {}, path)
        if dc is None or dc[0] >= len(path) - 1:
            return None
        k, _cls, fields = dc
        ann = (fields.get(path[k]) or {}).get("annotation", "")
        return path[: k + 1] if ann.replace("Optional[", "").replace("typing.", "").lower().startswith("dict") else None

    def _check_types(self, assigns: list[Assignment], cfg: dict, unknown: set[tuple[str, ...]]) -> list[Finding]:
        """A value the dataclass that verl converts the node to (its ``_target_``) cannot take; a key it has no
        field for (added with ``+``: Hydra takes it, building the dataclass raises TypeError). A key below a
        field (``engine_kwargs.nccl.x`` below ``engine_kwargs: dict``) gets no type judgment."""
        out: list[Finding] = []
        for a in assigns:
            if a.op in ("delete", "group") or a.path in unknown or not a.path or a.path[-1] == "_target_":
                continue
            dc = self._dataclass_of(cfg, a.path)
            if dc is None:
                continue
            k, cls, fields = dc
            name = a.path[k]
            node = ".".join(a.path[:k]) or "(top level)"
            short = cls.rpartition(".")[2]
            if name not in fields:
                if a.op not in ("add", "force"):
                    continue  # a YAML key or `k=v` that the config lacks is reported as an unknown key
                out.append(
                    Finding(
                        a.file,
                        a.line,
                        a.col,
                        "config/not-a-field",
                        f"`{a.dotted}`: Hydra adds it, but verl turns `{node}` into {short}, which "
                        f"has no field `{name}`, so building it raises TypeError (unexpected keyword argument)"
                        + did_you_mean(name, sorted(fields)),
                        fact=f"{short} fields: {', '.join(sorted(f for f in fields if f != '_target_')[:12])} …",
                        fact_source=self.facts.data["dataclasses"]["classes"][cls]["source"],
                    )
                )
                continue
            if k != len(a.path) - 1:
                continue
            err = conversion_error(fields[name]["annotation"], a.value)
            if err:
                out.append(
                    Finding(
                        a.file,
                        a.line,
                        a.col,
                        "config/wrong-type",
                        f"`{a.dotted}`: {a.value!r} is not a `{fields[name]['annotation']}` ({short}.{name}): "
                        f"OmegaConf: {err}",
                        fact=f"{short}.{name}: {fields[name]['annotation']}",
                        fact_source=fields[name]["source"],
                    )
                )
        return out

    # -- whole commands ---------------------------------------------------------------------------------------
    def _readers(self) -> list[str]:
        if self.entry_point:
            return [self.entry_point]
        return sorted(m for m, e in self.facts.entry_points().items() if e["config_name"] == self.config)

    def _check_legacy(self, assigns: list[Assignment]) -> list[Finding]:
        """Keys Hydra accepts (the config has them) that the entry point never reads: legacy keys that only some
        other entry point migrates to their new place."""
        readers = self._readers()
        if not readers:
            return []
        out: list[Finding] = []
        for fn, mig in self.facts.migrations().items():
            migrating = sorted(m for m, e in self.facts.entry_points().items() if fn in e["migrates"])
            if not migrating or any(r in migrating for r in readers):
                continue
            for a in assigns:
                if a.op in ("delete", "group") or not a.path or a.path[0] not in mig["keys"] or a.value is None:
                    continue
                new = _renamed(a.dotted, mig["renames"])
                out.append(
                    Finding(
                        a.file,
                        a.line,
                        a.col,
                        "config/legacy-key",
                        f"warning: `{a.dotted}` is a legacy key: Hydra accepts it, but {', '.join(readers)} never "
                        f"read{'s' if len(readers) == 1 else ''} it; only {', '.join(migrating)} migrate"
                        f"{'s' if len(migrating) == 1 else ''} it ({fn})" + (f"; set `{new}` instead" if new else ""),
                        fact=f"{fn} moves {', '.join(mig['keys'])}",
                        fact_source=mig["source"],
                    )
                )
        return out

    def _check_missing(self, cfg: dict, unknown: set[tuple[str, ...]], anchor: Assignment) -> list[Finding]:
        """Mandatory values (``???``) the command leaves unset. A ``???`` below a node whose ``enable`` is false
        (e.g. the reward model's rollout) is not read and not reported."""
        out: list[Finding] = []

        def walk(node: Any, path: tuple[str, ...]) -> None:
            if isinstance(node, dict):
                if node.get("enable") is False:
                    return
                for k, v in node.items():
                    walk(v, (*path, str(k)))
            elif node == UNKNOWN and path not in unknown:
                out.append(
                    Finding(
                        anchor.file,
                        anchor.line,
                        anchor.col,
                        "config/missing-value",
                        f"`{'.'.join(path)}` is mandatory (`???` in verl's `{self.config}` config) and this command "
                        f"never sets it: verl stops with MissingMandatoryValue when it reads it; "
                        f"add `{'.'.join(path)}=…`",
                        fact_source=self.src(path),
                    )
                )

        walk(cfg, ())
        return out

    def _check_delta(self, assigns: list[Assignment], cfg: dict, base: dict) -> list[Finding]:
        """A ``delta_sharded`` setup that one of verl's ``raise`` statements rejects at run time."""
        from verl_cookbook.doctor_rules import delta_guards

        out: list[Finding] = []
        for prefix in _ckpt_prefixes(base):
            block = lookup_path(cfg, prefix)[2]
            if not isinstance(block, dict) or block.get("backend") != delta_guards.DELTA:
                continue
            mine = [a for a in assigns if a.path[: len(prefix)] == prefix] or assigns
            anchor = next((a for a in mine if a.path[len(prefix) :] == ("backend",)), mine[0])
            key = str(self.facts.tree.root)
            guards = self.facts.session.guards  # read once per run
            if key not in guards:
                guards[key] = delta_guards.extract_guards(self.facts.tree)
            for guard in guards[key]:
                verdict = delta_guards.evaluate(guard, cfg)
                if verdict.fires is not True:
                    continue
                read = [p for p in verdict.read if p[-1] != "backend"]
                where = next((hit for p in reversed(read) if (hit := _last_assignment_to(assigns, p))), anchor)
                settings = ", ".join(dict.fromkeys(t for p in read if (t := _setting_text(cfg, p))))
                out.append(
                    Finding(
                        where.file,
                        where.line,
                        where.col,
                        "delta/rejected",
                        f"verl rejects this delta_sharded setup at run time: {guard.error}: "
                        f"{delta_guards.render_message(guard, cfg)}" + (f" ({settings})" if settings else ""),
                        fact=f"if {guard.condition_text}: raise {guard.error}",
                        fact_source=guard.source,
                    )
                )
        return out

    # -- engines -----------------------------------------------------------------------------
    def _check_engines(self, assigns: list[Assignment], base: dict) -> list[Finding]:
        findings: list[Finding] = []
        for prefix in _ckpt_prefixes(base):
            mine = [a for a in assigns if a.path[: len(prefix)] == prefix and a.op not in ("delete", "group")]
            if not mine:
                continue
            findings.extend(self._check_block(prefix, mine, base))
        return findings

    def _check_block(self, prefix: tuple[str, ...], assigns: list[Assignment], base: dict) -> list[Finding]:
        n = len(prefix)
        defaults = lookup_path(base, prefix)[2] or {}
        backend = defaults.get("backend")
        backend_a = None
        kwargs: dict[str, list[tuple[Assignment, tuple[str, ...], Any]]] = {}
        for a in assigns:
            rest = a.path[n:]
            if rest == ("backend",):
                backend, backend_a = a.value, a
            elif rest[:1] == ("engine_kwargs",):
                if len(rest) == 1 and isinstance(a.value, dict):
                    for k, v in a.value.items():
                        if isinstance(v, dict):
                            for kw, val in v.items():
                                kwargs.setdefault(str(k), []).append((a, (kw,), val))
                        else:
                            kwargs.setdefault(str(k), []).append((a, (), v))
                elif len(rest) == 2:
                    if isinstance(a.value, dict):
                        for kw, val in a.value.items():
                            kwargs.setdefault(rest[1], []).append((a, (kw,), val))
                    else:
                        kwargs.setdefault(rest[1], []).append((a, (), a.value))
                elif len(rest) >= 3:
                    kwargs.setdefault(rest[1], []).append((a, rest[2:], a.value))
        findings: list[Finding] = []
        known = self.facts.backends()
        ckpt = ".".join(prefix)
        if backend_a is not None:
            findings.extend(self._check_backend_name(backend, backend_a, ckpt))
        for key, items in kwargs.items():
            a0 = items[0][0]
            if key != backend:
                hint = ""
                if key == "hccl" and backend == "nccl":
                    hint = " (on Ascend the HCCL engine is registered as `nccl`: put these under engine_kwargs.nccl)"
                findings.append(
                    Finding(
                        a0.file,
                        a0.line,
                        a0.col,
                        "engine/kwargs-ignored",
                        f"`{ckpt}.engine_kwargs.{key}` is silently ignored: verl only reads "
                        f"engine_kwargs[<backend>], and the backend in effect is `{backend}`{hint}",
                        fact="; ".join(sorted({k["code"] for k in self._lookups()})) or None,
                        fact_source=", ".join(k["source"] for k in self._lookups()) or None,
                        data={"key": key, "in_effect": backend},
                    )
                )
                if key not in known and key != backend:
                    findings.extend(self._check_backend_name(key, a0, ckpt, as_kwargs_key=True))
                continue
            findings.extend(self._check_kwargs(backend, items, ckpt))
        findings.extend(self._check_device_kwarg(backend, kwargs.get(str(backend), []), backend_a, assigns, ckpt))
        return findings

    def _lookups(self) -> list[dict]:
        return self.facts.data["engines"].get("kwargs_lookups", [])

    def _injected(self) -> list[dict]:
        return self.facts.data["engines"].get("injected_kwargs", [])

    def _registered_text(self) -> str:
        """The backend names verl registers, narrowed to the device when one is declared."""
        if self.device:
            on_dev = [b for b in self.facts.backends() if self.facts.engines_for(b, self.device)]
            return f"registered backends on {self.device.upper()}: {', '.join(on_dev)}"
        return f"registered backends: {', '.join(self.facts.backends())}"

    def _check_backend_name(self, backend: Any, a: Assignment, ckpt: str, as_kwargs_key: bool = False) -> list[Finding]:
        known = self.facts.backends()
        where = (a.file, a.line, a.col)
        if not isinstance(backend, str) or backend not in known:
            if str(backend) == "hccl":
                nccl = [r for r in self.facts.registrations if r["backend"] == "nccl" and "npu" in r["devices"]]
                hint = (
                    "; on Ascend write `nccl`: the HCCL engine registers itself under that name"
                    if nccl
                    else did_you_mean(str(backend), known)
                )
                fact_source = nccl[0]["source"] if nccl else self.facts.data["engines"]["source"]
            else:
                hint = did_you_mean(str(backend), known)
                fact_source = self.facts.data["engines"]["source"]
            what = f"engine_kwargs key `{backend}`" if as_kwargs_key else f"backend `{backend}`"
            return [
                Finding(
                    *where,
                    "engine/unknown-backend",
                    f"{what}: no checkpoint engine registers that name{hint}",
                    fact=self._registered_text(),
                    fact_source=fact_source,
                    data={
                        "name": str(backend),
                        "as_kwargs_key": as_kwargs_key,
                        "case": "kwargs-key" if as_kwargs_key else ("hccl" if str(backend) == "hccl" else ""),
                    },
                )
            ]
        if self.device and not self.facts.engines_for(backend, self.device):
            regs = [r for r in self.facts.registrations if r["backend"] == backend]
            why = "; ".join(regs[0]["device_reasons"]) if regs else ""
            return [
                Finding(
                    *where,
                    "engine/not-on-device",
                    f"backend `{backend}` is not registered on {self.device.upper()}: its module does not import there",
                    fact=why or None,
                    fact_source=regs[0]["source"] if regs else None,
                    data={"name": backend, "device": self.device, "case": backend},
                )
            ]
        return []

    def _check_kwargs(self, backend: str, items: list, ckpt: str) -> list[Finding]:
        engines = self.facts.engines_for(backend, self.device)
        if not engines:
            return []
        injected = {k: i["source"] for i in self._injected() for k in i["kwargs"]}
        findings = []
        for a, sub, value in items:
            if not sub:
                findings.append(
                    Finding(
                        a.file,
                        a.line,
                        a.col,
                        "engine/kwargs-not-mapping",
                        f"`{ckpt}.engine_kwargs.{backend}` must be a mapping of constructor arguments, got {value!r}",
                        fact_source=engines[0]["constructor"]["source"],
                    )
                )
                continue
            name = sub[0]
            if name in injected:
                findings.append(
                    Finding(
                        a.file,
                        a.line,
                        a.col,
                        "engine/injected-kwarg",
                        f"`engine_kwargs.{backend}.{name}`: verl passes `{name}` to the engine itself, so this "
                        f"raises TypeError (multiple values for keyword argument)"
                        + (
                            " — set actor_rollout_ref.rollout.checkpoint_engine.update_weights_bucket_megabytes"
                            if name == "bucket_size"
                            else ""
                        ),
                        fact_source=injected[name],
                    )
                )
                continue
            # With the device unknown, a kwarg one of the backend's engines takes is not reported against
            # another (`multi_sender` is NCCL's on GPU; the HCCL engine behind `nccl` on NPU lacks it).
            takers = [e for e in engines if any(p["name"] == name for p in e["constructor"]["params"])]
            for eng in engines if self.device else (takers or engines[:1]):
                params = {p["name"]: p for p in eng["constructor"]["params"]}
                where_dev = "/".join(d.upper() for d in eng["devices"])
                if name not in params:
                    accepted = [p for p in params if p not in injected]
                    findings.append(
                        Finding(
                            a.file,
                            a.line,
                            a.col,
                            "engine/unknown-kwarg",
                            f"`engine_kwargs.{backend}.{name}`: {eng['class']} (`{backend}` on {where_dev}) takes "
                            f"no argument `{name}`, so building the engine raises TypeError"
                            + did_you_mean(name, accepted),
                            fact=f"{eng['class']}.__init__ accepts: {', '.join(accepted)}",
                            fact_source=eng["constructor"]["source"],
                        )
                    )
                    continue
                p = params[name]
                default = p["default"]
                literal_default = not (isinstance(default, str) and p["annotation"] not in (None, "str"))
                err = type_error(default, value, p["annotation"]) if literal_default else None
                if err:
                    findings.append(
                        Finding(
                            a.file,
                            a.line,
                            a.col,
                            "engine/wrong-type",
                            f"`engine_kwargs.{backend}.{name}`: {err}",
                            fact=f"{name}: {p['annotation']} = {default!r}",
                            fact_source=p["source"],
                        )
                    )
        return findings

    def _check_device_kwarg(
        self, backend: Any, items: list, backend_a: Assignment | None, assigns: list[Assignment], ckpt: str
    ) -> list[Finding]:
        """An engine that compares ``self.device`` with "npu" needs ``device: npu`` on Ascend."""
        if self.device != "npu" or not isinstance(backend, str):
            return []
        findings = []
        for eng in self.facts.engines_for(backend, "npu"):
            npu_cmp = [c for c in eng.get("device_comparisons", []) if c["value"] == "npu"]
            params = {p["name"]: p for p in eng["constructor"]["params"]}
            if not npu_cmp or "device" not in params:
                continue
            given = [v for _a, sub, v in items if sub == ("device",)]
            if given and given[-1] == "npu":
                continue
            a = (items[0][0] if items else None) or backend_a or assigns[0]
            findings.append(
                Finding(
                    a.file,
                    a.line,
                    a.col,
                    "engine/npu-device",
                    f"`{backend}` on Ascend needs `engine_kwargs.{backend}.device: npu` "
                    f"(default {params['device']['default']!r}); `{npu_cmp[0]['code']}` is what selects the "
                    f"NPU path",
                    fact=f"device: {params['device']['annotation']} = {params['device']['default']!r}",
                    fact_source=f"{params['device']['source']}; {npu_cmp[0]['source']}",
                )
            )
        return findings


def _last_assignment_to(assigns: list[Assignment], path: tuple[str, ...]) -> Assignment | None:
    """The last assignment to ``path``, to a mapping above it or to a key below it."""
    hits = [a for a in assigns if a.path[: min(len(a.path), len(path))] == path[: min(len(a.path), len(path))]]
    return hits[-1] if hits else None


def _setting_text(cfg: dict, path: tuple[str, ...]) -> str | None:
    node: Any = cfg
    for k in path:
        node = node.get(k) if isinstance(node, dict) else None
    return f"{'.'.join(path)}={node!r}" if node is not None and not isinstance(node, dict) else None


def _hydra_message_text(composed: dict) -> str:
    return str(composed.get("error", "")).split("\nConfig search path:")[0].strip().replace("\n\n", "\n")


def _renamed(dotted: str, renames: dict[str, str]) -> str | None:
    """Where a migration moves ``dotted`` (the longest old prefix named in its ``# config.a -> config.b`` notes)."""
    best = None
    for old, new in renames.items():
        if (dotted == old or dotted.startswith(old + ".")) and (best is None or len(old) > len(best[0])):
            best = (old, new)
    return best[1] + dotted[len(best[0]) :] if best else None


def _prune_paths(node: Any, paths: list[tuple[str, ...]]) -> tuple[Any, dict | None]:
    """The part of ``node`` that overrides at ``paths`` can touch: along each path only the keys on it, below the
    deepest existing key the whole subtree. Returns (pruned, shape) where shape marks the partial levels (None
    for a whole subtree). Applying an override to the pruned config gives what it gives on the whole config, at a
    fraction of the cost of building the whole config (what can differ, an interpolation reaching a pruned-away
    node, is retried on the whole config)."""
    if not isinstance(node, dict) or any(len(p) == 0 for p in paths):
        return node, None
    out: dict = {}
    shape: dict = {}
    by_key: dict[str, list[tuple[str, ...]]] = {}
    for p in paths:
        by_key.setdefault(p[0], []).append(p[1:])
    for k, sub in by_key.items():
        if k in node:
            out[k], shape[k] = _prune_paths(node[k], sub)
    return out, shape


def _graft(base: Any, new: Any, shape: dict | None) -> Any:
    """``base`` with the pruned part replaced by ``new`` (the pruned part after the overrides)."""
    if shape is None or not isinstance(new, dict) or not isinstance(base, dict):
        return new
    out = dict(base)
    for k in shape:
        if k in new:
            out[k] = _graft(base[k], new[k], shape[k])
        else:
            out.pop(k, None)
    for k, v in new.items():
        if k not in shape:
            out[k] = v
    return out


def _below_any(path: tuple[str, ...], packages: list[tuple[str, ...]]) -> bool:
    return any(path[: len(p)] == p for p in packages)


def _apply_values(base: dict, values: list[tuple[Assignment, Any]]) -> tuple[dict, list[Assignment], list]:
    """Apply config overrides (parsed by Hydra) one by one with Hydra's own ``_apply_overrides_to_config`` on the
    composed config in struct mode, as Hydra does after composing. A rejected override is reported and not
    applied; the rest go on. Returns (merged config, applied assignments with Hydra's values, errors)."""
    from hydra._internal.config_loader_impl import ConfigLoaderImpl
    from hydra.errors import HydraException
    from omegaconf import OmegaConf
    from omegaconf.errors import OmegaConfBaseException

    def fresh(data: Any) -> Any:
        cfg = OmegaConf.create(data)
        OmegaConf.set_struct(cfg, True)
        return cfg

    pruned, shape = _prune_paths(base, [tuple(ov.key_or_group.split(".")) for _a, ov in values])
    cfg = fresh(pruned)
    whole = False
    ok: list[tuple[Assignment, Any]] = []
    errors: list = []
    for a, ov in values:
        try:
            ConfigLoaderImpl._apply_overrides_to_config([ov], cfg)
        except (HydraException, OmegaConfBaseException) as e:
            if whole:
                errors.append((a, ov, hydra_message(e)))
                continue
            cfg, whole = fresh(copy.deepcopy(base)), True
            ConfigLoaderImpl._apply_overrides_to_config([o for _a, o in ok], cfg)
            try:
                ConfigLoaderImpl._apply_overrides_to_config([ov], cfg)
            except (HydraException, OmegaConfBaseException) as e2:
                errors.append((a, ov, hydra_message(e2)))
                continue
        ok.append((a, ov))
    data = OmegaConf.to_container(cfg, resolve=False)
    merged = data if whole else _graft(base, data, shape)
    applied = [
        dataclasses.replace(a, path=tuple(ov.key_or_group.split(".")), value=ov.value(), op=op(ov)) for a, ov in ok
    ]
    return merged, applied, errors


def merged_config(base: dict, assigns: list[Assignment], unknown: set[tuple[str, ...]] | None = None) -> dict:
    """verl's defaults with YAML-fragment assignments merged in (deletions remove the key). Keys in ``unknown``
    (set from a shell variable) get OmegaConf's missing-value marker ``???``, which no rule treats as known.
    Overrides are applied by Hydra in :meth:`ConfigChecker.check` (the config each check judges)."""
    cfg = copy.deepcopy(base)
    for a in assigns:
        if unknown and a.path in unknown and a.op != "delete":
            a = dataclasses.replace(a, value=UNKNOWN)
        node = cfg
        for key in a.path[:-1]:
            if not isinstance(node.get(key), dict):
                node[key] = {}
            node = node[key]
        if a.op == "delete":
            node.pop(a.path[-1], None)
        elif isinstance(a.value, dict) and isinstance(node.get(a.path[-1]), dict):
            node[a.path[-1]] = _deep_merge(node[a.path[-1]], a.value)
        else:
            node[a.path[-1]] = copy.deepcopy(a.value)
    return cfg


def _deep_merge(a: dict, b: dict) -> dict:
    out = copy.deepcopy(a)
    for k, v in b.items():
        out[k] = _deep_merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out
