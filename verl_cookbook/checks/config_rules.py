"""Rules for config assignments, shared by YAML fragments and Hydra overrides.

An :class:`Assignment` is one key path set to one value (a YAML leaf, or ``key=value`` on a command
line). The rules judge each against verl's generated default config and the engine facts: unknown
keys, wrong types, Hydra's ``+`` rules, backend names no engine registers, ``engine_kwargs`` under a
name other than the backend in effect, and kwargs the engine's constructor does not take.
"""

from __future__ import annotations

import copy
import difflib
from dataclasses import dataclass
from typing import Any

from verl_cookbook.facts import Facts
from verl_cookbook.findings import Finding

CKPT_LEAF = "checkpoint_engine"
DEVICES = {"npu": "npu", "gpu": "cuda", "cuda": "cuda"}
_GUARDS: dict[str, list] = {}  # delta_sharded guards per verl tree


@dataclass
class Assignment:
    path: tuple[str, ...]
    value: Any
    file: str
    line: int
    col: int = 1
    op: str = "yaml"  # yaml | set | add (+) | force (++) | delete (~)

    @property
    def dotted(self) -> str:
        return ".".join(self.path)


def did_you_mean(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f"; did you mean `{close[0]}`?" if close else ""


def _lookup(base: Any, path: tuple[str, ...]) -> tuple[str, int, Any]:
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
    """Why ``value`` cannot stand where verl's default is ``default``; None if it can."""
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


class ConfigChecker:
    def __init__(self, facts: Facts, config: str = "ppo_trainer", device: str | None = None) -> None:
        self.facts = facts
        self.config = config
        self.device = DEVICES.get(device or "", None)
        self.base = facts.default_config(config)

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
    ) -> list[Finding]:
        """``mode``: "config" (a fragment to apply) or "defaults" (a fragment claiming verl's defaults).
        ``delta``: also evaluate verl's ``delta_sharded`` run-time guards on the merged config; ``unknown``:
        paths whose value is not known statically (a shell variable), which no guard treats as known."""
        if self.base is None:
            a = assigns[0] if assigns else None
            return [
                Finding(
                    a.file if a else "?",
                    a.line if a else 1,
                    1,
                    "config/unknown-config",
                    f"verl has no generated config `{self.config}`",
                    fact=f"configs: {', '.join(self.facts.config_names())}",
                )
            ]
        findings: list[Finding] = []
        for a in assigns:
            findings.extend(self._check_path(a, mode))
        if mode == "config":
            findings.extend(self._check_engines(assigns))
            if delta:
                findings.extend(self._check_delta(assigns, unknown))
        return findings

    def _check_delta(self, assigns: list[Assignment], unknown: set[tuple[str, ...]] | None) -> list[Finding]:
        """A ``delta_sharded`` setup that one of verl's ``raise`` statements rejects at run time."""
        from verl_cookbook.doctor_rules import delta_guards

        cfg = merged_config(self.base, assigns, unknown)
        out: list[Finding] = []
        for prefix in _ckpt_prefixes(self.base):
            block = _lookup(cfg, prefix)[2]
            if not isinstance(block, dict) or block.get("backend") != delta_guards.DELTA:
                continue
            mine = [a for a in assigns if a.path[: len(prefix)] == prefix] or assigns
            anchor = next((a for a in mine if a.path[len(prefix) :] == ("backend",)), mine[0])
            key = str(self.facts.tree.root)
            if key not in _GUARDS:
                _GUARDS[key] = delta_guards.extract_guards(self.facts.tree)
            for guard in _GUARDS[key]:
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

    # -- key paths -------------------------------------------------------------------------
    def _check_path(self, a: Assignment, mode: str) -> list[Finding]:
        state, depth, node = _lookup(self.base, a.path)
        where = (a.file, a.line, a.col)
        if state == "unknown":
            parent = ".".join(a.path[:depth]) or "(top level)"
            key = a.path[depth]
            choices = sorted(node)
            return [
                Finding(
                    *where,
                    "config/unknown-key",
                    f"unknown key `{a.dotted}`: verl's config has no `{key}` under `{parent}`"
                    + did_you_mean(key, choices),
                    fact=f"keys under {parent}: {', '.join(choices[:12])}{' …' if len(choices) > 12 else ''}",
                    fact_source=self.src(a.path[:depth]) if depth else self.facts.config_source("", self.config),
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
        if a.op == "set" and not exists:
            out.append(
                Finding(
                    *where,
                    "override/needs-plus",
                    f"`{a.dotted}` is not in verl's default config, so Hydra rejects `{a.dotted}=…`; "
                    f"write `+{a.dotted}=…` to add it",
                    fact_source=self.src(a.path[:depth]),
                )
            )
        elif a.op == "add" and exists:
            out.append(
                Finding(
                    *where,
                    "override/plus-on-existing",
                    f"`{a.dotted}` already exists in verl's default config, so Hydra rejects `+{a.dotted}=…`; "
                    f"drop the `+` (or use `++` to force)",
                    fact=f"default: {node!r}",
                    fact_source=self.src(a.path),
                )
            )
        elif a.op == "delete" and not exists:
            out.append(
                Finding(
                    *where,
                    "override/delete-missing",
                    f"`~{a.dotted}` deletes a key that verl's default config does not have",
                    fact_source=self.src(a.path[:depth]),
                )
            )
        if exists and a.op != "delete":
            annotation = None
            if len(a.path) >= 2 and a.path[-2] == CKPT_LEAF:
                fld = self.facts.checkpoint_field(a.path[-1])
                annotation = fld["annotation"] if fld else None
            err = type_error(node, a.value, annotation)
            if err and not (isinstance(node, dict) and isinstance(a.value, dict)):
                out.append(
                    Finding(
                        *where,
                        "config/wrong-type",
                        f"`{a.dotted}`: {err}",
                        fact=f"default: {node!r}",
                        fact_source=self.src(a.path),
                    )
                )
            if mode == "defaults" and not isinstance(a.value, dict) and a.value != node:
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

    # -- engines -----------------------------------------------------------------------------
    def _check_engines(self, assigns: list[Assignment]) -> list[Finding]:
        findings: list[Finding] = []
        for prefix in _ckpt_prefixes(self.base):
            mine = [a for a in assigns if a.path[: len(prefix)] == prefix and a.op != "delete"]
            if not mine:
                continue
            findings.extend(self._check_block(prefix, mine))
        return findings

    def _check_block(self, prefix: tuple[str, ...], assigns: list[Assignment]) -> list[Finding]:
        n = len(prefix)
        defaults = _lookup(self.base, prefix)[2] or {}
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
            # Device unknown: a kwarg is wrong only if no engine the name resolves to (on any device) takes it.
            takers = [e for e in engines if name in {p["name"] for p in e["constructor"]["params"]}]
            if self.device is None and takers:
                engines_here = takers
            else:
                engines_here = engines
            for eng in engines_here:
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


def merged_config(base: dict, assigns: list[Assignment], unknown: set[tuple[str, ...]] | None = None) -> dict:
    """verl's defaults with the user's assignments applied (deletions remove the key). Keys in ``unknown``
    (set from a shell variable) get OmegaConf's missing-value marker ``???``, which no rule treats as known."""
    cfg = copy.deepcopy(base)
    for a in assigns:
        if unknown and a.path in unknown and a.op != "delete":
            a = Assignment(a.path, "???", a.file, a.line, a.col, a.op)
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
