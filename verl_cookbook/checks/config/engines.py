"""Engine rules: backend names no checkpoint engine registers (or not on the device), ``engine_kwargs`` under a
name other than the backend in effect, keyword arguments the engine's constructor does not take or takes with
another type, and ``device: npu`` for an engine that selects its NPU path by it."""

from __future__ import annotations

from typing import Any

from verl_cookbook.checks.config.field_types import type_error
from verl_cookbook.checks.config.model import (
    Assignment,
    CheckedConfig,
    closest,
    lookup_path,
)
from verl_cookbook.findings import Finding
from verl_cookbook.rules.engines import (
    ENGINE_INJECTED_KWARG,
    ENGINE_KWARGS_IGNORED,
    ENGINE_KWARGS_NOT_MAPPING,
    ENGINE_NOT_ON_DEVICE,
    ENGINE_NPU_DEVICE,
    ENGINE_UNKNOWN_BACKEND,
    ENGINE_UNKNOWN_KWARG,
    ENGINE_UNKNOWN_MODEL_BACKEND,
    ENGINE_WRONG_TYPE,
)

CKPT = "actor_rollout_ref.rollout.checkpoint_engine"  # where the rollout's checkpoint engine is configured
# The configs whose `strategy` names the engine their worker builds, and the model type it is built for
# (verl/workers/engine_workers.py: `EngineRegistry.new(model_type=..., backend=engine_config.strategy)`).
STRATEGY_KEYS = {
    ("actor_rollout_ref", "actor", "strategy"): "language_model",
    ("actor_rollout_ref", "ref", "strategy"): "language_model",
    ("critic", "strategy"): "value_model",
}


class EngineRules(CheckedConfig):
    """The engine rules of :class:`~verl_cookbook.checks.config.checker.ConfigChecker`."""

    def _check_engines(self, assigns: list[Assignment], base: dict, blocks: list[tuple[str, ...]]) -> list[Finding]:
        """``blocks``: where ``base`` holds a checkpoint_engine block (``model.ckpt_prefixes``)."""
        findings: list[Finding] = []
        for prefix in blocks:
            mine = [a for a in assigns if a.path[: len(prefix)] == prefix and a.op not in ("delete", "group")]
            if not mine:
                continue
            findings.extend(self._check_block(prefix, mine, base))
        return findings

    def _check_model_engines(self, assigns: list[Assignment]) -> list[Finding]:
        """``engine/unknown-model-backend``: a ``strategy`` assigned a name no ``EngineRegistry.register`` of the
        release registers for the model type (on the device, when known). What the missing engine's keys would have
        been (``<config>.<strategy>.*``) is folded under it."""
        findings: list[Finding] = []
        for a in assigns:
            model_type = STRATEGY_KEYS.get(a.path)
            if model_type is None or a.op in ("delete", "group") or not isinstance(a.value, str):
                continue
            registered = self.facts.model_backends(model_type, self.device)
            if registered is None or a.value in registered:
                continue
            anywhere = self.facts.model_backends(model_type) or {}
            sources = sorted({s for v in (registered or anywhere).values() for s in v})
            findings.append(
                ENGINE_UNKNOWN_MODEL_BACKEND.at(
                    a.file,
                    a.line,
                    a.col,
                    fact=f"EngineRegistry.register({model_type}): {', '.join(sorted(registered or anywhere))}",
                    fact_source=", ".join(sources) or None,
                    key=a.dotted,
                    name=a.value,
                    model_type=model_type,
                    release=self.facts.tree.version or self.facts.tree.label,
                    device=self.device.upper() if self.device and registered else None,
                    offered=sorted(registered),
                    suggestion=closest(a.value, sorted(registered)),
                    under=[".".join((*a.path[:-1], a.value))],
                )
            )
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
                findings.append(
                    ENGINE_KWARGS_IGNORED.at(
                        a0.file,
                        a0.line,
                        a0.col,
                        fact="; ".join(sorted({k["code"] for k in self._lookups()})) or None,
                        fact_source=", ".join(k["source"] for k in self._lookups()) or None,
                        path=f"{ckpt}.engine_kwargs.{key}",
                        key=key,
                        in_effect=backend,
                        registered_as="nccl" if key == "hccl" and backend == "nccl" else None,
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
            nccl = [r for r in self.facts.registrations if r["backend"] == "nccl" and "npu" in r["devices"]]
            hccl = str(backend) == "hccl" and bool(nccl)  # on Ascend the HCCL engine is registered as `nccl`
            return [
                ENGINE_UNKNOWN_BACKEND.at(
                    *where,
                    fact=self._registered_text(),
                    fact_source=nccl[0]["source"] if hccl else self.facts.data["engines"]["source"],
                    case="kwargs-key" if as_kwargs_key else ("hccl" if str(backend) == "hccl" else ""),
                    name=str(backend),
                    suggestion=None if hccl else closest(str(backend), known),
                    registered_as="nccl" if hccl else None,
                    as_kwargs_key=as_kwargs_key,
                )
            ]
        if self.device and not self.facts.engines_for(backend, self.device):
            regs = [r for r in self.facts.registrations if r["backend"] == backend]
            why = "; ".join(regs[0]["device_reasons"]) if regs else ""
            return [
                ENGINE_NOT_ON_DEVICE.at(
                    *where,
                    fact=why or None,
                    fact_source=regs[0]["source"] if regs else None,
                    case=backend if backend in ENGINE_NOT_ON_DEVICE.extra_cases else "",
                    name=backend,
                    device=self.device.upper(),
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
                    ENGINE_KWARGS_NOT_MAPPING.at(
                        a.file,
                        a.line,
                        a.col,
                        fact_source=engines[0]["constructor"]["source"],
                        path=f"{ckpt}.engine_kwargs.{backend}",
                        value=value,
                    )
                )
                continue
            name = sub[0]
            if name in injected:
                instead = f"{CKPT}.update_weights_bucket_megabytes" if name == "bucket_size" else None
                findings.append(
                    ENGINE_INJECTED_KWARG.at(
                        a.file, a.line, a.col, fact_source=injected[name], backend=backend, name=name, instead=instead
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
                        ENGINE_UNKNOWN_KWARG.at(
                            a.file,
                            a.line,
                            a.col,
                            fact=f"{eng['class']}.__init__ accepts: {', '.join(accepted)}",
                            fact_source=eng["constructor"]["source"],
                            backend=backend,
                            name=name,
                            cls=eng["class"],
                            devices=where_dev,
                            suggestion=closest(name, accepted),
                        )
                    )
                    continue
                p = params[name]
                default = p["default"]
                literal_default = not (isinstance(default, str) and p["annotation"] not in (None, "str"))
                expected = type_error(default, value, p["annotation"]) if literal_default else None
                if expected:
                    findings.append(
                        ENGINE_WRONG_TYPE.at(
                            a.file,
                            a.line,
                            a.col,
                            fact=f"{name}: {p['annotation']} = {default!r}",
                            fact_source=p["source"],
                            backend=backend,
                            name=name,
                            expected=expected,
                            got=type(value).__name__,
                            value=value,
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
                ENGINE_NPU_DEVICE.at(
                    a.file,
                    a.line,
                    a.col,
                    fact=f"device: {params['device']['annotation']} = {params['device']['default']!r}",
                    fact_source=f"{params['device']['source']}; {npu_cmp[0]['source']}",
                    backend=backend,
                    default=params["device"]["default"],
                    code=npu_cmp[0]["code"],
                )
            )
        return findings
