"""Hydra application: overrides parsed by Hydra's ``OverridesParser``, group choices composed by Hydra from the
tree's config folder (:mod:`verl_cookbook.facts.compose`), the other overrides applied to the composed config with
Hydra's own ``_apply_overrides_to_config`` — so a finding quotes the error Hydra prints. Also which config a
command runs (``@hydra.main``, ``--config-name``, ``--config-path``) and whether its entry point exists."""

from __future__ import annotations

import copy
import dataclasses
import os
from pathlib import Path
from typing import Any

from verl_cookbook.checks.config.model import (
    OP_PREFIX,
    UNKNOWN,
    Assignment,
    CheckedConfig,
    closest,
    closest_key,
    keys_under,
    lookup_path,
)
from verl_cookbook.checks.upgrade import MOVED_ENTRY_POINTS, replacement
from verl_cookbook.facts import Facts
from verl_cookbook.findings import Finding
from verl_cookbook.hydra_overrides import hydra_message, op, parse_one
from verl_cookbook.rules.config import (
    COMMAND_UNKNOWN_ENTRY_POINT,
    CONFIG_NOT_A_MAPPING,
    CONFIG_UNKNOWN_KEY,
    OVERRIDE_DELETE_MISSING,
    OVERRIDE_GROUP,
    OVERRIDE_MALFORMED,
    OVERRIDE_NEEDS_PLUS,
    OVERRIDE_PLUS_ON_EXISTING,
    OVERRIDE_REJECTED,
    OVERRIDE_SWEEP_WITHOUT_MULTIRUN,
    OVERRIDE_UNKNOWN_GROUP,
)


# -- Hydra --------------------------------------------------------------------------------------------------------
def assignment_from_override(text: str, file: str, line: int, col: int = 1) -> Assignment | Finding:
    """One command-line override (after the shell's quote removal), parsed by Hydra's ``OverridesParser``: an
    :class:`Assignment` carrying ``raw=text`` (so the checker re-reads the user's own text), or an
    ``override/malformed`` finding quoting Hydra. For a shell reader that no longer keeps its own grammar."""
    from hydra.errors import HydraException

    try:
        ov = parse_one(text)
    except HydraException as e:
        return OVERRIDE_MALFORMED.at(file, line, col, override=text, hydra=hydra_message(e))
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
    known = facts.entry_points()
    entries = sorted(known)
    label = facts.tree.version or facts.tree.label
    return [
        COMMAND_UNKNOWN_ENTRY_POINT.at(
            file,
            line,
            col,
            fact="Hydra entry points: " + ", ".join(f"{m} ({known[m]['config_name']})" for m in entries),
            fact_source=", ".join(known[m]["source"] for m in entries[:3]) + (" …" if len(entries) > 3 else ""),
            module=module,
            release=label,
            # a module verl removed has a known history (checks/upgrade.py): its replacement where this release has
            # one, else nothing; the nearest name would be another trainer
            suggestion=replacement(facts, module) if module in MOVED_ENTRY_POINTS else closest(module, entries),
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


class HydraApplication(CheckedConfig):
    """How :class:`~verl_cookbook.checks.config.checker.ConfigChecker` applies a command's overrides."""

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
                text = f"{OP_PREFIX.get(a.op, '')}{a.dotted}={UNKNOWN!r}".replace('"', "'")
            try:
                ov = parse_one(text)
            except HydraException as e:
                findings.append(OVERRIDE_MALFORMED.at(a.file, a.line, a.col, override=text, hydra=hydra_message(e)))
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
        meant = self._meant_choices(values, choices, groups)
        span = [min(a.line for a in overrides), max(a.line for a in overrides)]
        while choices or meant:
            chosen = tuple(ov.input_line for _a, ov in choices) + meant
            composed = self.facts.compose(self.config, chosen, self.config_dir)
            if "error" not in composed:
                break
            if meant:  # what a misplaced choice meant does not compose either: judge the rest without it
                meant, composed = (), self.composed
                continue
            bad = next((c for c in choices if f"'{c[1].key_or_group}/" in composed["error"]), choices[0])
            # the keys below what the choice fills are still judged (against the default option), and folded
            # under this finding: shown once, kept for tools (verl_cookbook/folding.py)
            findings.append(self._group_finding(*bad, composed, span))
            choices = [c for c in choices if c is not bad]
            composed = self.composed
        base = composed["config"]
        merged, applied, errors = _apply_values(base, values)
        for a, ov, msg in errors:
            findings.append(self._override_finding(a, ov, msg, base))
        return findings, base, merged, applied

    def _group_finding(self, a: Assignment, ov: Any, composed: dict, span: list[int]) -> Finding:
        """``override/group`` for a choice Hydra cannot compose. For an option the release lacks: the options it has,
        the last release (or verl's main branch) that had it, and what the option fills (``under``), whose keys are
        folded under the finding; otherwise Hydra's own message."""
        from verl_cookbook.facts import compose, history

        group, option = ov.key_or_group, ov.value()
        folder = self.config_dir or self.facts.config_dir(self.config)
        error = hydra_error_text(composed)
        where = (a.file, a.line, a.col)
        common: dict[str, Any] = {"override": a.override_text(), "span": span}
        if folder is None or not isinstance(option, str) or f"Could not find '{group}/{option}'" not in error:
            return OVERRIDE_GROUP.at(
                *where, fact_source=self.facts.config_source("", self.config), config=self.config, error=error, **common
            )
        under = compose.choice_packages(folder, self.config, group, ov.package) or [group.replace("/", ".")]
        release = self.facts.tree.version or self.facts.tree.label
        offered = compose.options(self.facts.tree, folder, self.config, group)
        known: dict[str, Any] = {"group": group, "option": option, "release": release, "offered": offered}
        known["under"] = under
        # a config folder of verl's own `verl/trainer/config`: its history is recorded for the releases
        ours = folder.as_posix().endswith("verl/trainer/config")
        gone = history.gone_option(self.facts.tree.version, group, option) if ours else None
        if gone is None:
            return OVERRIDE_GROUP.at(*where, case="missing", **known, **common)
        case = "newer" if gone["last"] == "main" else "gone"
        return OVERRIDE_GROUP.at(*where, fact=gone["source"], case=case, last=gone["last"], **known, **common)

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
            msg = None
        except HydraException as e:
            msg = hydra_message(e)
        key = ov.key_or_group
        state, _depth, node = lookup_path(self.composed["config"], tuple(key.split(".")))
        value = ov.input_line.partition("=")[2]
        if state == "found" and isinstance(node, list) and not ov.is_delete() and "[" not in value:
            # a field whose default is a list: `a,b` meant the list [a,b] (Hydra's own first suggestion)
            return OVERRIDE_SWEEP_WITHOUT_MULTIRUN.at(
                a.file, a.line, a.col, override=ov.input_line, case="list", key=key, value=value,
                fact=f"default: {node!r}",
            )  # fmt: skip
        return OVERRIDE_SWEEP_WITHOUT_MULTIRUN.at(a.file, a.line, a.col, override=ov.input_line, hydra=msg)

    def _override_finding(self, a: Assignment, ov: Any, msg: str, base: dict) -> Finding:
        where = (a.file, a.line, a.col)
        path = tuple(ov.key_or_group.split("."))
        quoted = msg.replace("\n", " ")
        if msg.startswith("Could not override"):
            state, depth, node = lookup_path(base, path)
            if state == "leaf":
                return CONFIG_NOT_A_MAPPING.at(
                    *where,
                    fact=f"default: {node!r}",
                    fact_source=self.src(path[:depth]),
                    parent=".".join(path[:depth]),
                    key=ov.key_or_group,
                    hydra=quoted,
                )
            if state == "open":
                legacy = any(path and path[0] in m["keys"] for m in self.facts.migrations().values())
                return OVERRIDE_NEEDS_PLUS.at(
                    *where,
                    fact_source=self.src(path[:depth]),
                    key=ov.key_or_group,
                    config=self.config,
                    override=ov.input_line,
                    hydra=quoted,
                    legacy=legacy or None,
                )
            parent = ".".join(path[:depth])
            key = path[depth] if depth < len(path) else path[-1]
            choices = sorted(node) if isinstance(node, dict) else []
            suggestion = closest_key(key, choices)
            group = key in self.facts.config_groups(self.config, self.config_dir) and len(path) > 1
            return CONFIG_UNKNOWN_KEY.at(
                *where,
                fact=keys_under(parent, choices),
                fact_source=self.src(path[:depth]) if depth else self.facts.config_source("", self.config),
                case="group" if group else "suggested" if suggestion else "",
                key=ov.key_or_group,
                config=self.config,
                name=key,
                parent=parent,
                suggestion=None if group else suggestion,
                value=ov.input_line.partition("=")[2] if group else None,
                hydra=quoted,
            )
        if msg.startswith("Could not append"):
            node = lookup_path(base, path)[2]
            return OVERRIDE_PLUS_ON_EXISTING.at(
                *where,
                fact=f"default: {node!r}",
                fact_source=self.src(path),
                key=ov.key_or_group,
                config=self.config,
                override=ov.input_line,
                hydra=quoted,
            )
        if msg.startswith("Could not delete"):
            return OVERRIDE_DELETE_MISSING.at(
                *where, fact_source=self.src(path[:-1]), override=ov.input_line, hydra=quoted
            )
        if "looks like a config group" in msg:
            groups = sorted(self.facts.config_groups(self.config, self.config_dir))
            return OVERRIDE_UNKNOWN_GROUP.at(
                *where,
                fact=f"config groups: {', '.join(groups)}",
                fact_source=self.facts.config_source("", self.config),
                override=ov.input_line,
                suggestion=closest(ov.key_or_group, groups),
                hydra=quoted,
            )
        return OVERRIDE_REJECTED.at(*where, fact_source=self.src(path), override=ov.input_line, hydra=quoted)


def hydra_error_text(composed: dict) -> str:
    return str(composed.get("error", "")).split("\nConfig search path:")[0].strip().replace("\n\n", "\n")


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
    data: Any = OmegaConf.to_container(cfg, resolve=False)
    merged = data if whole else _graft(base, data, shape)
    applied = [
        dataclasses.replace(a, path=tuple(ov.key_or_group.split(".")), value=ov.value(), op=op(ov)) for a, ov in ok
    ]
    return merged, applied, errors
