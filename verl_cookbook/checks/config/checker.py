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

from verl_cookbook.checks.config.delta import DeltaRules
from verl_cookbook.checks.config.engines import EngineRules
from verl_cookbook.checks.config.field_types import FieldTypes
from verl_cookbook.checks.config.hydra_apply import HydraApplication, hydra_error_text
from verl_cookbook.checks.config.model import (
    CKPT_LEAF,
    Assignment,
    ckpt_prefixes,
    closest_key,
    keys_under,
    lookup_path,
    merged_config,
)
from verl_cookbook.findings import Finding
from verl_cookbook.rules.config import (
    CONFIG_LEGACY_KEY,
    CONFIG_NOT_A_MAPPING,
    CONFIG_UNKNOWN_CONFIG,
    CONFIG_UNKNOWN_KEY,
    DEFAULTS_MISMATCH,
    DEFAULTS_NOT_A_DEFAULT,
)


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
        multirun: bool = False,
    ) -> list[Finding]:
        """``mode``: "config" (a fragment to apply) or "defaults" (a fragment claiming verl's defaults).
        ``delta``: also evaluate verl's ``delta_sharded`` run-time guards on the merged config; ``unknown``:
        paths whose value is not known statically (a shell variable), which no rule treats as known; ``multirun``:
        the command has ``--multirun`` (sweeps are allowed). A mandatory ``???`` value a command leaves unset is
        ``config/required-missing`` (checks/required_values.py), judged on the whole command by doctor."""
        if self.base is None:
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
            findings.extend(self._check_legacy([a for a in values if lookup_path(base, a.path)[0] != "unknown"], cfg))
            # the checkpoint_engine blocks, walked for once: the engine rules judge assignments into them, the delta
            # rule a block whose backend is delta_sharded
            touched = any(CKPT_LEAF in a.path for a in values)
            blocks = ckpt_prefixes(base) if touched or delta else []
            findings.extend(self._check_engines(values, base, blocks))
            findings.extend(self._check_model_engines(values))
            if delta:
                findings.extend(self._check_delta(values, cfg, blocks))
        return findings

    # -- YAML fragments -------------------------------------------------------------------------------------------
    def _check_path(self, a: Assignment, mode: str, base: dict) -> list[Finding]:
        state, depth, node = lookup_path(base, a.path)
        where = (a.file, a.line, a.col)
        if state == "unknown" and self._in_dict_field(base, a.path[: depth + 1]):
            return []  # a new entry of a dict-typed field (distillation.teacher_models.<name>): a file may add it
        if state == "unknown":
            parent = ".".join(a.path[:depth])
            key = a.path[depth]
            choices = sorted(node)
            suggestion = closest_key(key, choices)
            return [
                CONFIG_UNKNOWN_KEY.at(
                    *where,
                    fact=keys_under(parent, choices),
                    fact_source=self.src(a.path[:depth]) if depth else self.facts.config_source("", self.config),
                    case="suggested" if suggestion else "",
                    key=a.dotted,
                    config=self.config,
                    name=key,
                    parent=parent,
                    suggestion=suggestion,
                )
            ]
        if state == "leaf":
            return [
                CONFIG_NOT_A_MAPPING.at(
                    *where,
                    fact=f"default: {node!r}",
                    fact_source=self.src(a.path[:depth]),
                    parent=".".join(a.path[:depth]),
                    key=a.dotted,
                )
            ]
        exists = state == "found"
        out: list[Finding] = []
        if exists and mode == "defaults" and not isinstance(a.value, dict) and a.value != node:
            out.append(
                DEFAULTS_MISMATCH.at(
                    *where,
                    fact=f"default: {node!r}",
                    fact_source=self._default_source(a.path),
                    key=a.dotted,
                    shown=a.value,
                    default=node,
                )
            )
        elif mode == "defaults" and not exists:
            out.append(DEFAULTS_NOT_A_DEFAULT.at(*where, fact_source=self.src(a.path[:depth]), key=a.dotted))
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

    def _check_legacy(self, assigns: list[Assignment], cfg: dict | None = None) -> list[Finding]:
        """Keys Hydra accepts (the config has them) that the entry point never reads: legacy keys that only some
        other entry point migrates to their new place. When the new place already holds the value the legacy key
        asks for (in ``cfg``, the command's config), the finding says the run is as written (case ``same``)."""
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
                state, _depth, there = lookup_path(cfg or {}, tuple(new.split("."))) if new else ("", 0, None)
                same = state == "found" and not isinstance(there, (dict, list)) and str(there) == str(a.value)
                out.append(
                    CONFIG_LEGACY_KEY.at(
                        a.file,
                        a.line,
                        a.col,
                        fact=f"{fn} moves {', '.join(mig['keys'])}",
                        fact_source=mig["source"],
                        key=a.dotted,
                        readers=readers,
                        migrating=migrating,
                        function=fn,
                        new=new,
                        case="same" if same else None,
                        value=a.value if same else None,
                    )
                )
        return out


def _renamed(dotted: str, renames: dict[str, str]) -> str | None:
    """Where a migration moves ``dotted`` (the longest old prefix named in its ``# config.a -> config.b`` notes)."""
    best = None
    for old, new in renames.items():
        if (dotted == old or dotted.startswith(old + ".")) and (best is None or len(old) > len(best[0])):
            best = (old, new)
    return best[1] + dotted[len(best[0]) :] if best else None
