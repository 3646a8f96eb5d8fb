"""verl's config dataclasses, read with ``ast``: the class a node's ``_target_`` names and its fields' annotations.

``extract`` returns ``{"classes": {"verl.workers.config.rollout.RolloutConfig": {"source", "bases", "fields"}}}``
where ``bases`` are the base-class names as written and ``fields`` maps each annotated field to its annotation
text and ``file:line``. :func:`resolve` turns a ``_target_`` (which may name a re-export such as
``verl.workers.config.RolloutConfig``) into the defining class; :func:`fields` merges the fields of the class and
its bases (a subclass's field wins), as ``dataclasses.fields`` would.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from verl_cookbook.facts.parts import parse_near
from verl_cookbook.facts.pyast import dotted_name
from verl_cookbook.verl_source import VerlTree


def _module_name(tree: VerlTree, path: Path) -> str:
    parts = path.relative_to(tree.root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_dataclass(node: ast.ClassDef) -> bool:
    for dec in node.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        if (dotted_name(target) or "").split(".")[-1] == "dataclass":
            return True
    return False


_TARGET = re.compile(r"^\s*_target_:\s*([\w.]+)", re.M)


def _module_files(tree: VerlTree, module: str) -> list[Path]:
    """The file of ``module``, or every file of the package ``module``."""
    base = tree.root.joinpath(*module.split("."))
    if base.is_dir():
        return sorted(base.glob("*.py"))
    f = base.with_suffix(".py")
    return [f] if f.is_file() else []


def _imported_modules(mod: ast.Module, module: str, is_pkg: bool) -> set[str]:
    """Modules this one imports from: all of them for a package's ``__init__`` (its re-exports), else only
    those that provide a base class of a class defined here."""
    bases = {(dotted_name(b) or "").split(".")[0] for c in mod.body if isinstance(c, ast.ClassDef) for b in c.bases}
    out = set()
    for node in mod.body:
        if isinstance(node, ast.ImportFrom) and (is_pkg or any((a.asname or a.name) in bases for a in node.names)):
            if node.level:
                parts = module.split(".")
                keep = len(parts) - node.level + (1 if is_pkg else 0)
                base = ".".join(parts[:keep])
                name = f"{base}.{node.module}" if node.module else base
            else:
                name = node.module or ""
            if name.startswith("verl"):
                out.add(name)
    return out


def extract(tree: VerlTree) -> dict:
    """The classes in every module a ``_target_`` in verl's YAML names, and in the modules they import from
    (where their base classes live). Reading only these keeps it to a few dozen files."""
    targets: set[str] = set()
    for path in tree.package.rglob("*.yaml"):
        text = path.read_text(encoding="utf-8", errors="replace")
        if "_target_" in text:
            targets.update(m.group(1).rpartition(".")[0] for m in _TARGET.finditer(text))
    todo = [m for m in sorted(targets) if m.startswith("verl")]
    done: set[Path] = set()
    classes: dict[str, dict] = {}
    while todo:
        for path in _module_files(tree, todo.pop()):
            if path in done:
                continue
            done.add(path)
            rel = path.relative_to(tree.root).as_posix()
            text = path.read_text(encoding="utf-8", errors="replace")
            mod = parse_near(text, rel, ("class", "import"))  # the classes' fields and bases, the imports
            module = _module_name(tree, path)
            todo.extend(_imported_modules(mod, module, path.name == "__init__.py"))
            classes.update(_classes(mod, text, rel, module))
    return {"classes": classes, "converted": converted(tree), "typed": typed_merges(tree)}


_CONVERT = re.compile(r"omega_conf_to_dataclass\(\s*([A-Za-z_][\w.]*)")
CONVERT_SCANNED = ("trainer", "workers", "experimental")


def converted(tree: VerlTree) -> dict[str, str]:
    """Which config nodes verl turns into their ``_target_`` dataclass: ``{suffix: file:line}`` from every
    ``omega_conf_to_dataclass(<arg>)`` call. ``self.config.actor_rollout_ref.rollout`` gives the suffix
    ``actor_rollout_ref.rollout``; a variable ``critic_omega_profiler_config`` gives ``profiler`` (its last word
    once ``_config`` is dropped) and ``checkpoint_engine_cfg`` gives ``checkpoint_engine``. A node whose path (or an
    ancestor's) ends with a suffix is converted, its subtree with it (Hydra's instantiate is recursive); a node no
    call reaches (``reward``, ``algorithm``) is read as a plain DictConfig and gets no type judgment."""
    out: dict[str, str] = {}
    for sub in CONVERT_SCANNED:
        for path in sorted((tree.package / sub).rglob("*.py")):
            data = path.read_bytes()
            if b"omega_conf_to_dataclass(" not in data:  # most files: not decoded
                continue
            text = data.decode("utf-8", errors="replace")
            rel = path.relative_to(tree.root).as_posix()
            for m in _CONVERT.finditer(text):
                arg = m.group(1)
                line = text.count("\n", 0, m.start()) + 1
                for suffix in _suffixes(arg):
                    out.setdefault(suffix, f"{rel}:{line}")
    return out


_TYPED_CALL = re.compile(r"omega_conf_to_dataclass\([^()]*?\bdataclass_type\s*=\s*([A-Za-z_][\w.]*)")


def typed_merges(tree: VerlTree) -> dict[str, str]:
    """The classes verl builds with OmegaConf's typed merge: ``{class name (last dotted part): file:line}`` of the
    first ``omega_conf_to_dataclass(…, dataclass_type=Cls)`` call naming each, anywhere in the package. Only these
    calls take the typed branch, which rejects a value that does not convert; a call with the node alone
    instantiates its ``_target_`` and checks no type (verl 0.9.1 ``verl/utils/config.py:42-64``)."""
    out: dict[str, str] = {}
    for path in sorted(tree.package.rglob("*.py")):
        data = path.read_bytes()
        if b"dataclass_type" not in data or b"omega_conf_to_dataclass(" not in data:  # most files: not decoded
            continue
        text = data.decode("utf-8", errors="replace")
        rel = path.relative_to(tree.root).as_posix()
        for m in _TYPED_CALL.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            out.setdefault(m.group(1).rpartition(".")[2], f"{rel}:{line}")
    return dict(sorted(out.items()))


def _suffixes(arg: str) -> list[str]:
    parts = arg.split(".")
    if "config" in parts[:-1]:
        rest = parts[len(parts) - 1 - parts[::-1].index("config") :][1:]
        return [".".join(rest)] if rest else []
    name = parts[-1].lstrip("_")
    for end in ("_config", "_cfg"):
        if name.endswith(end):
            name = name[: -len(end)]
            break
    else:
        return []
    words = [w for w in name.split("_") if w and w != "omega"]
    full = "_".join(words)
    return sorted({full, words[-1]}) if words else []


def converted_at(data: dict, path: tuple[str, ...]) -> str | None:
    """``file:line`` of the ``omega_conf_to_dataclass`` call that converts the node at ``path`` (or the nearest
    ancestor a call reaches); None when none does."""
    conv = data.get("converted") or {}
    for k in range(len(path), 0, -1):
        for suffix, where in conv.items():
            seg = tuple(suffix.split("."))
            if path[:k][-len(seg) :] == seg:
                return where
    return None


def _classes(mod: ast.Module, text: str, rel: str, module: str) -> dict[str, dict]:
    classes: dict[str, dict] = {}
    for node in mod.body:
        if not isinstance(node, ast.ClassDef):
            continue
        fields: dict[str, dict] = {}
        for stmt in node.body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                ann = ast.unparse(stmt.annotation)
                if ann.startswith(("ClassVar", "typing.ClassVar")):
                    continue
                fields[stmt.target.id] = {"annotation": ann, "source": f"{rel}:{stmt.lineno}"}
        classes[f"{module}.{node.name}"] = {
            "source": f"{rel}:{node.lineno}",
            "dataclass": _is_dataclass(node),
            "bases": [b for b in (dotted_name(x) for x in node.bases) if b],
            "fields": fields,
        }
    return classes


def resolve(data: dict, target: str, near: str | None = None) -> str | None:
    """The qualified name of the class ``target`` names: exact, else the one class of that name defined in
    ``target``'s package (``verl.workers.config.RolloutConfig`` -> ``verl.workers.config.rollout.RolloutConfig``).
    ``near``: a module to prefer among several (a base class is looked up next to its subclass first)."""
    classes = data["classes"]
    if target in classes:
        return target
    module, _, name = target.rpartition(".")
    cands = [q for q in classes if q.rpartition(".")[2] == name]
    if near:
        same = [q for q in cands if q.rpartition(".")[0] == near]
        if same:
            return same[0]
    if module:
        inside = [q for q in cands if q.startswith(module + ".")]
        if len(inside) == 1:
            return inside[0]
        cands = inside or cands
    return cands[0] if len(cands) == 1 else None


def fields(data: dict, qualname: str) -> dict[str, dict] | None:
    """All fields of ``qualname`` including its bases', or None when the class or a base is not a known dataclass
    (then nobody can say which keyword arguments it takes)."""
    classes = data["classes"]
    out: dict[str, dict] = {}
    seen: set[str] = set()

    def walk(q: str) -> bool:
        if q in seen:
            return True
        seen.add(q)
        c = classes[q]
        module = q.rpartition(".")[0]
        for b in c["bases"]:
            if b.split(".")[-1] in ("object", "Mapping", "ABC", "Generic"):
                continue
            bq = resolve(data, b, near=module)
            if bq is None or not walk(bq):
                return False
        out.update(c["fields"])
        return True

    if qualname not in classes or not classes[qualname]["dataclass"] or not walk(qualname):
        return None
    return out
