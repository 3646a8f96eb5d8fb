"""Engine facts: every backend name given to ``CheckpointEngineRegistry.register``, read with ``ast``.

For each registration: class, module, constructor parameters (following ``*args/**kwargs`` to base
classes), the third-party modules imported at module level and the import guard, from which the
hardware the engine can load on is derived (the name ``nccl`` is registered by the NCCL engine on
CUDA and by the HCCL engine on Ascend; the last module imported wins).
"""

from __future__ import annotations

import ast
from pathlib import Path

from verl_cookbook.facts.parts import nodes_near, parse_near, walk_lines
from verl_cookbook.facts.pyast import dotted_name, function_params
from verl_cookbook.verl_source import VerlTree

PKG = "verl/checkpoint_engine"
INIT = f"{PKG}/__init__.py"
INJECTING_CALLERS = ("verl/workers/engine_workers.py", f"{PKG}/base.py")  # where verl calls the registry
# Modules that only load on one kind of accelerator.
CUDA_ONLY_MODULES = {"cupy", "nixl", "ray.util.collective"}
DEVICES = ("cuda", "npu")


def _module_name(rel: str) -> str:
    return rel.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


# What the parts of an engine module this family reads name: its imports and import guard, its classes (their
# registration, bases and constructor) and the device comparisons; other methods are left out.
_MODULE_WORDS = ("import", "ImportError", "class", "__init__", "device")


class _ModuleInfo:
    def __init__(self, rel: str, root: Path) -> None:
        self.rel = rel
        self.source = (root / rel).read_text(encoding="utf-8", errors="replace")
        self.tree = parse_near(self.source, rel, _MODULE_WORDS)
        self.classes = {n.name: n for n in self.tree.body if isinstance(n, ast.ClassDef)}
        self.imports = self._module_imports()
        self.guard = self._guard()

    def _module_imports(self) -> list[dict]:
        """Top-level imports, including those inside ``with`` blocks; optional ones (in ``try``) are marked."""
        found = []

        def visit(body: list[ast.stmt], optional: bool) -> None:
            for stmt in body:
                if isinstance(stmt, ast.Import):
                    for alias in stmt.names:
                        found.append({"module": alias.name, "line": stmt.lineno, "optional": optional, "level": 0})
                elif isinstance(stmt, ast.ImportFrom):
                    found.append(
                        {"module": stmt.module or "", "line": stmt.lineno, "optional": optional, "level": stmt.level}
                    )
                elif isinstance(stmt, ast.With):
                    visit(stmt.body, optional)
                elif isinstance(stmt, ast.Try):
                    visit(stmt.body, True)

        visit(self.tree.body, False)
        return found

    def _guard(self) -> dict | None:
        """A module-level ``if <cond>: raise ImportError(...)``: the condition and the message."""
        for stmt in self.tree.body:
            if isinstance(stmt, ast.If) and any(
                isinstance(s, ast.Raise) and "ImportError" in ast.unparse(s.exc or ast.Constant(None))
                for s in stmt.body
            ):
                cond = ast.unparse(stmt.test)
                msg = next(
                    (ast.unparse(s.exc) for s in stmt.body if isinstance(s, ast.Raise) and s.exc is not None), ""
                )
                return {"condition": cond, "raise": msg, "line": stmt.lineno}
        return None


def _registrations(mod: _ModuleInfo) -> list[tuple[str, ast.ClassDef, int]]:
    out = []
    for cls in mod.classes.values():
        for dec in cls.decorator_list:
            if not isinstance(dec, ast.Call) or not dec.args:
                continue
            name = dotted_name(dec.func) or ""
            if not name.endswith("CheckpointEngineRegistry.register"):
                continue
            arg = dec.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                out.append((arg.value, cls, dec.lineno))
    return out


def _init_import_order(tree: VerlTree, modules: dict[str, _ModuleInfo]) -> list[str]:
    """Engine modules in the order ``verl/checkpoint_engine/__init__.py`` imports them."""
    init = modules.get(INIT)
    if init is None:
        if not tree.exists(INIT):
            return []
        init = _ModuleInfo(INIT, tree.root)
    order = []
    lines = {}
    for node in ast.walk(init.tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            rel = f"{PKG}/{node.module.replace('.', '/')}.py"
            order.append(rel)
            lines[rel] = node.lineno  # the last one, as before
    # ast.walk is breadth-first; sort by line to get source order
    return sorted(set(order), key=lambda r: lines[r])


def _hardware(mod: _ModuleInfo, modules: dict[str, _ModuleInfo], seen: set[str] | None = None) -> dict:
    """Which devices a module can be imported on, and why (guard or import), following sibling imports."""
    seen = seen or set()
    seen.add(mod.rel)
    reasons = []
    devices = set(DEVICES)
    if mod.guard:
        cond = mod.guard["condition"]
        if "npu" in cond:
            devices &= {"npu"}
            reasons.append(f"import guard `if {cond}: raise ImportError` ({mod.rel}:{mod.guard['line']})")
        elif "cuda" in cond:
            devices &= {"cuda"}
            reasons.append(f"import guard `if {cond}: raise ImportError` ({mod.rel}:{mod.guard['line']})")
    for imp in mod.imports:
        if imp["optional"]:
            continue
        if imp["level"] == 0 and any(
            imp["module"] == m or imp["module"].startswith(m + ".") for m in CUDA_ONLY_MODULES
        ):
            devices &= {"cuda"}
            reasons.append(f"imports {imp['module']} ({mod.rel}:{imp['line']})")
        if imp["level"] >= 1 or imp["module"].startswith("verl.checkpoint_engine."):
            target = _resolve_relative(mod.rel, imp)
            if target in modules and target not in seen and target != f"{PKG}/base.py":
                sub = _hardware(modules[target], modules, seen)
                if set(sub["devices"]) != set(DEVICES):
                    devices &= set(sub["devices"])
                    reasons.append(f"imports {_module_name(target)} ({mod.rel}:{imp['line']})")
    return {"devices": sorted(devices), "reasons": reasons}


def _resolve_relative(rel: str, imp: dict) -> str:
    if imp["level"] == 0:
        return imp["module"].replace(".", "/") + ".py"
    base = Path(rel).parent
    for _ in range(imp["level"] - 1):
        base = base.parent
    return str(base / (imp["module"].replace(".", "/") + ".py"))


def _constructor(cls: ast.ClassDef, mod: _ModuleInfo, modules: dict[str, _ModuleInfo]) -> dict:
    """Constructor parameters, merged with the base class's when ``*args/**kwargs`` are passed on."""
    init = next(
        (n for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == "__init__"), None
    )
    own: dict = {"params": [], "varargs": None, "varkw": None, "line": cls.lineno}
    if init is not None:
        own = function_params(init, mod.source)
        for p in own["params"]:
            p["source"] = f"{mod.rel}:{p['line']}"
    if init is not None and not (own["varargs"] or own["varkw"]):
        return {"params": own["params"], "source": f"{mod.rel}:{own['line']}", "inherits": None}
    # follow the first base class we can find in verl.checkpoint_engine
    for base in cls.bases:
        base_name = dotted_name(base) or ""
        short = base_name.split(".")[-1]
        if short in ("CheckpointEngine", "object", ""):
            continue
        for other in modules.values():
            if short in other.classes:
                inherited = _constructor(other.classes[short], other, modules)
                names = {p["name"] for p in own["params"]}
                params = own["params"] + [p for p in inherited["params"] if p["name"] not in names]
                return {
                    "params": params,
                    "source": f"{mod.rel}:{own['line']}",
                    "inherits": {"class": short, "module": _module_name(other.rel)},
                }
    return {"params": own["params"], "source": f"{mod.rel}:{own['line']}", "inherits": None}


def _device_comparisons(mod: _ModuleInfo) -> list[dict]:
    """``self.device == "npu"``-style comparisons: the device values an engine treats specially."""
    out = []
    lines = [i for i, line in enumerate(mod.source.splitlines(), 1) if "device" in line]  # where such a node lies
    for node in walk_lines(mod.tree, lines)[0] if lines else ():
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq | ast.NotEq):
            left, right = node.left, node.comparators[0]
            if (dotted_name(left) or "") == "self.device" and isinstance(right, ast.Constant):
                out.append({"value": right.value, "source": f"{mod.rel}:{node.lineno}", "code": ast.unparse(node)})
    return out


_CALLER_WORDS = ("CheckpointEngineRegistry", "engine_kwargs")  # what injected_kwargs and kwargs_lookups look for


def _callers(tree: VerlTree) -> dict[str, list[ast.AST]]:
    """Each of ``INJECTING_CALLERS`` (that the tree has): its nodes on the lines that name ``CheckpointEngineRegistry``
    or ``engine_kwargs``, in ``ast.walk`` order, from one parse of the parts that name them."""
    out: dict[str, list[ast.AST]] = {}
    for rel in INJECTING_CALLERS:
        source = tree.read(rel) if tree.exists(rel) else ""
        out[rel] = nodes_near(source, rel, _CALLER_WORDS)[0] if any(w in source for w in _CALLER_WORDS) else []
    return out


def injected_kwargs(callers: dict[str, list[ast.AST]]) -> list[dict]:
    """Keyword arguments verl itself passes to ``CheckpointEngineRegistry.new`` (a user may not repeat them)."""
    out = []
    for rel, nodes in callers.items():
        for node in nodes:
            if isinstance(node, ast.Call) and (dotted_name(node.func) or "").endswith("CheckpointEngineRegistry.new"):
                names = [kw.arg for kw in node.keywords if kw.arg]
                out.append({"kwargs": names, "source": f"{rel}:{node.lineno}"})
    return out


def kwargs_lookups(callers: dict[str, list[ast.AST]]) -> list[dict]:
    """Where verl picks ``engine_kwargs[<backend>]`` (so kwargs under any other key are ignored)."""
    out = []
    for rel, nodes in callers.items():
        for node in nodes:
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "get"
                and (dotted_name(node.func.value) or "").endswith("engine_kwargs")
            ):
                out.append({"code": ast.unparse(node), "source": f"{rel}:{node.lineno}"})
    return out


def extract(tree: VerlTree) -> dict:
    """``{"registrations": [...], "import_order": [...], "resolution": {backend: {device: class}}}``."""
    modules: dict[str, _ModuleInfo] = {}
    for path in sorted((tree.root / PKG).rglob("*.py")):
        rel = path.relative_to(tree.root).as_posix()
        modules[rel] = _ModuleInfo(rel, tree.root)
    order = _init_import_order(tree, modules)
    registrations = []
    for rel, mod in modules.items():
        for name, cls, line in _registrations(mod):
            hw = _hardware(mod, modules)
            imports = sorted(
                {
                    i["module"].split(".")[0]
                    for i in mod.imports
                    if i["level"] == 0 and not i["optional"] and i["module"].split(".")[0] not in _STDLIB | {"verl"}
                }
            )
            registrations.append(
                {
                    "backend": name,
                    "class": cls.name,
                    "module": _module_name(rel),
                    "file": rel,
                    "source": f"{rel}:{line}",
                    "constructor": _constructor(cls, mod, modules),
                    "devices": hw["devices"],
                    "device_reasons": hw["reasons"],
                    "guard": mod.guard,
                    "requires": imports,
                    "device_comparisons": _device_comparisons(mod),
                    # base.py is imported first by the package __init__; the rest in __init__'s order
                    "import_rank": -1 if rel == f"{PKG}/base.py" else (order.index(rel) if rel in order else None),
                }
            )
    resolution: dict[str, dict[str, str]] = {}
    for reg in sorted(registrations, key=lambda r: (r["import_rank"] is None, r["import_rank"] or 0)):
        if reg["import_rank"] is None:
            continue  # never imported by verl.checkpoint_engine: not registered at runtime
        for dev in reg["devices"]:
            resolution.setdefault(reg["backend"], {})[dev] = reg["class"]  # last import wins
    callers = _callers(tree)
    return {
        "registrations": sorted(registrations, key=lambda r: (r["backend"], r["source"])),
        "import_order": order,
        "resolution": resolution,
        "injected_kwargs": injected_kwargs(callers),
        "kwargs_lookups": kwargs_lookups(callers),
        "source": INIT,
    }


_STDLIB = {
    "asyncio",
    "concurrent",
    "collections",
    "dataclasses",
    "functools",
    "gc",
    "itertools",
    "json",
    "logging",
    "math",
    "os",
    "re",
    "socket",
    "struct",
    "sys",
    "threading",
    "time",
    "types",
    "typing",
    "unittest",
    "uuid",
    "__future__",
    "abc",
    "contextlib",
    "enum",
    "queue",
    "weakref",
    "copy",
    "pickle",
    "io",
    "traceback",
}
