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

from typing import Any

from verl_cookbook.checks.config.delta import DeltaRules
from verl_cookbook.checks.config.engines import EngineRules
from verl_cookbook.checks.config.field_types import FieldTypes
from verl_cookbook.checks.config.hydra_apply import HydraApplication, hydra_error_text
from verl_cookbook.checks.config.model import (
    CKPT_LEAF,
    UNKNOWN,
    Assignment,
    ckpt_prefixes,
    did_you_mean,
    lookup_path,
    merged_config,
)
from verl_cookbook.findings import Finding


class ConfigChecker(HydraApplication, FieldTypes, EngineRules, DeltaRules):
    """Judges assignments against the config ``config`` (a primary config of verl) as Hydra composes it.

    ``config_dir``: the folder to compose it from (``--config-path``; default: the folder verl keeps it in).
    ``entry_point``: the module that runs it (``verl.trainer.main_ppo``), which decides which legacy keys are read;
    default: every entry point whose ``@hydra.main`` names ``config``."""

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
            from verl_cookbook.rules.config import CONFIG_UNKNOWN_CONFIG

            a = assigns[0] if assigns else None
            return [
                CONFIG_UNKNOWN_CONFIG.at(
                    a.file if a else "?",
                    a.line if a else 1,
                    a.col if a else 1,
                    fact=f"configs: {', '.join(self.facts.config_names())}",
                    config=self.config,
                    error=hydra_error_text(self.composed),
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
        cfg = merged if merged is not None else {}  # no assignments: nothing is judged on it
        values = applied + fragment
        if mode == "config":
            findings.extend(self._check_types(values, cfg, unknown))
            findings.extend(self._check_legacy([a for a in values if lookup_path(base, a.path)[0] != "unknown"]))
            # the checkpoint_engine blocks, walked for once: the engine rules judge assignments into them, the delta
            # rule a block whose backend is delta_sharded
            touched = any(CKPT_LEAF in a.path for a in values)
            blocks = ckpt_prefixes(base) if touched or delta else []
            findings.extend(self._check_engines(values, base, blocks))
            if delta:
                findings.extend(self._check_delta(values, cfg, blocks))
            if whole_command and overrides:
                findings.extend(self._check_missing(cfg, unknown, overrides[0]))
        return findings

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
                    data={"key": a.dotted},
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


def _renamed(dotted: str, renames: dict[str, str]) -> str | None:
    """Where a migration moves ``dotted`` (the longest old prefix named in its ``# config.a -> config.b`` notes)."""
    best = None
    for old, new in renames.items():
        if (dotted == old or dotted.startswith(old + ".")) and (best is None or len(old) > len(best[0])):
            best = (old, new)
    return best[1] + dotted[len(best[0]) :] if best else None
