"""Model-engine facts: every ``EngineRegistry.register(model_type=…, backend=…, device=…)`` in
``verl/workers/engine``, read with ``ast``: which training backend (the ``strategy`` of an actor, ref or critic
config) a release can build, for which model type and on which devices, with file:line.

The registry is filled at import time and an engine whose module fails to import (megatron not installed, say) is
simply absent, so what one process registers depends on what it has installed; this family records what the release
declares, which is what a machine with every engine's dependencies registers. ``EngineRegistry.get_engine_cls``
asserts the backend is among these (``Unknown backend: …``, verl/workers/engine/base.py in 0.9.1).
"""

from __future__ import annotations

import ast
from typing import Any

from verl_cookbook.facts.parts import nodes_near
from verl_cookbook.facts.pyast import dotted_name
from verl_cookbook.verl_source import VerlTree

PKG = "verl/workers/engine"
BASE = f"{PKG}/base.py"
_REGISTER = "EngineRegistry.register"


def _constant(node: ast.AST | None) -> Any:
    """A string, or a list of strings, written literally; None otherwise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.List | ast.Tuple) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts
    ):
        return [e.value for e in node.elts]  # type: ignore[attr-defined]
    return None


def _as_list(value: Any) -> list[str]:
    return [] if value is None else [value] if isinstance(value, str) else list(value)


def _default_device(tree: VerlTree) -> tuple[list[str], str | None]:
    """The default of ``register``'s ``device`` parameter, and where it is written."""
    if not tree.exists(BASE):
        return [], None
    for node in ast.walk(ast.parse(tree.read(BASE), filename=BASE)):
        if isinstance(node, ast.FunctionDef) and node.name == "register":
            args = node.args.args + node.args.kwonlyargs
            defaults = [None] * (len(node.args.args) - len(node.args.defaults)) + list(node.args.defaults)
            defaults += list(node.args.kw_defaults)
            for arg, default in zip(args, defaults, strict=True):
                if arg.arg == "device" and default is not None:
                    return _as_list(_constant(default)), f"{BASE}:{default.lineno}"
    return [], None


def extract(tree: VerlTree) -> dict:
    """``{"registrations": [{model_type, backends, devices, class, source}], "default_device": {...}}``."""
    default, default_src = _default_device(tree)
    registrations = []
    for path in sorted((tree.root / PKG).rglob("*.py")) if (tree.root / PKG).is_dir() else []:
        rel = path.relative_to(tree.root).as_posix()
        text = tree.read(rel)
        if _REGISTER not in text:
            continue
        nodes, _ = nodes_near(text, rel, (_REGISTER,))  # the classes a register call decorates, not whole files
        for node in nodes:
            if not isinstance(node, ast.ClassDef):
                continue
            for dec in node.decorator_list:
                if not (isinstance(dec, ast.Call) and (dotted_name(dec.func) or "").endswith(_REGISTER)):
                    continue
                kw = {k.arg: _constant(k.value) for k in dec.keywords if k.arg}
                given = dict(zip(("model_type", "backend", "device"), (_constant(a) for a in dec.args), strict=False))
                kw = {**given, **kw}
                registrations.append(
                    {
                        "model_type": kw.get("model_type"),
                        "backends": _as_list(kw.get("backend")),
                        "devices": _as_list(kw["device"]) if "device" in kw else default,
                        "class": node.name,
                        "source": f"{rel}:{dec.lineno}",
                    }
                )
    registrations.sort(key=lambda r: str(r["source"]))
    return {"registrations": registrations, "default_device": {"devices": default, "source": default_src}}
