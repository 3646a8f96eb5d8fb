"""Entry points: every ``@hydra.main`` in verl, the config it names, and the legacy-key migrations each runs.

Read with ``ast`` (never imported). ``extract`` returns::

    {"entry_points": {module: {"config_name", "config_dir", "source", "migrates": [function, ...]}},
     "configs": {name: {"dir", "file"}},          # primary configs in the entry points' config folders
     "migrations": {function: {"source", "keys": [top-level key, ...], "renames": {old: new}}}}

``config_dir`` is tree-relative (``verl/trainer/config``), resolved from ``config_path`` the way Hydra does it
for a file run with ``python -m``: relative to the folder of the file that declares ``@hydra.main``.
A *migration* is a function that copies legacy keys to their new place and then deletes the legacy top-level
keys (``del config.reward_model``); an entry point that never calls it never reads those keys.
"""

from __future__ import annotations

import ast
import os
import re
from collections import deque
from pathlib import Path

from verl_cookbook.facts.parts import parse_near
from verl_cookbook.facts.pyast import dotted_name
from verl_cookbook.verl_source import VerlTree

SCANNED = ("trainer", "experimental")  # where verl keeps its entry points and the migrations they call
_RENAME = re.compile(r"#\s*config\.([\w.]+)\s*->\s*(?:config\.)?([\w.]+)")


def _module_name(tree: VerlTree, path: Path) -> str:
    return ".".join(path.relative_to(tree.root).with_suffix("").parts)


_DEL_WORD = re.compile(r"\bdel\b")
# What the definitions this family reads name: ``@hydra.main``, and a ``del`` statement (the keyword and the character
# Python allows after it).
_WORDS = ("hydra.main", "del ", "del\t", "del(", "del[", "del\\")


def _hydra_main(fn: ast.FunctionDef) -> ast.Call | None:
    for dec in fn.decorator_list:
        if isinstance(dec, ast.Call) and dotted_name(dec.func) in ("hydra.main", "main"):
            if dotted_name(dec.func) == "main" and not any(k.arg == "config_name" for k in dec.keywords):
                continue
            return dec
    return None


def _kw(call: ast.Call, name: str) -> str | None:
    for k in call.keywords:
        if k.arg == name and isinstance(k.value, ast.Constant) and isinstance(k.value.value, str):
            return k.value.value
    return None


def _walk_around(mod: ast.Module, lines: list[int]) -> list[ast.AST]:
    """The nodes ``ast.walk(mod)`` yields, less the statements whose lines hold none of ``lines`` (and what is
    inside them): a ``del`` statement is on a line with the word ``del``, inside every statement around it."""
    out: list[ast.AST] = []
    todo: deque[ast.AST] = deque([mod])
    while todo:  # breadth first, as ast.walk
        node = todo.popleft()
        if isinstance(node, ast.stmt) and not any(node.lineno <= n <= (node.end_lineno or node.lineno) for n in lines):
            continue
        out.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return out


def _assigned_moves(fn: ast.FunctionDef) -> dict[str, str]:
    """``old -> new`` from the function's ``cfg.new = cfg.old`` statements (cfg its first parameter): where a
    migration really puts a value, which its comments may say less precisely."""
    cfg = fn.args.args[0].arg if fn.args.args else ""
    moves: dict[str, str] = {}
    for node in ast.walk(fn):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        new, old = dotted_name(node.targets[0]), dotted_name(node.value)
        if new and old and new.startswith(cfg + ".") and old.startswith(cfg + "."):
            moves.setdefault(old[len(cfg) + 1 :], new[len(cfg) + 1 :])
    return moves


def _migrations(mod: ast.Module, text: str, rel: str) -> dict[str, dict]:
    out: dict[str, dict] = {}
    lines = text.splitlines()
    del_lines = [i for i, line in enumerate(lines, 1) if _DEL_WORD.search(line)]
    for fn in _walk_around(mod, del_lines):
        if not isinstance(fn, ast.FunctionDef):
            continue
        keys = []
        for node in ast.walk(fn):
            if isinstance(node, ast.Delete):
                for t in node.targets:
                    name = dotted_name(t)
                    if (
                        name
                        and name.count(".") == 1
                        and name.split(".")[0] == (fn.args.args[0].arg if fn.args.args else "")
                    ):
                        keys.append(name.split(".")[1])
        if not keys:
            continue
        body = "\n".join(lines[fn.lineno - 1 : fn.end_lineno])
        renames = {m.group(1): m.group(2) for m in _RENAME.finditer(body)}
        renames.update(_assigned_moves(fn))  # the code wins over its comment (reward_manager goes to `….name`)
        out[fn.name] = {"source": f"{rel}:{fn.lineno}", "keys": keys, "renames": renames}
    return out


def extract(tree: VerlTree) -> dict:
    entries: dict[str, dict] = {}
    migrations: dict[str, dict] = {}
    texts: dict[str, str] = {}
    files = [p for sub in SCANNED for p in sorted((tree.package / sub).rglob("*.py"))]
    for path in files:
        data = path.read_bytes()
        has_main = b"hydra.main" in data
        has_del = b"del config." in data
        if not (has_main or has_del):
            continue
        text = data.decode("utf-8", errors="replace")
        rel = path.relative_to(tree.root).as_posix()
        mod = parse_near(text, rel, _WORDS)
        if has_del:
            migrations.update(_migrations(mod, text, rel))
        if not has_main:
            continue
        for fn in mod.body:
            if not isinstance(fn, ast.FunctionDef) or (dec := _hydra_main(fn)) is None:
                continue
            name = _kw(dec, "config_name")
            cpath = _kw(dec, "config_path")
            if cpath is None and dec.args and isinstance(dec.args[0], ast.Constant):
                cpath = dec.args[0].value if isinstance(dec.args[0].value, str) else None
            cdir = None
            if cpath is not None and not cpath.startswith("pkg://"):
                cdir = Path(os.path.normpath(path.parent / cpath))
            elif cpath and cpath.startswith("pkg://"):
                cdir = tree.root.joinpath(*cpath[len("pkg://") :].split("."))
            module = _module_name(tree, path)
            texts[module] = text
            entries[module] = {
                "config_name": name,
                "config_dir": cdir.relative_to(tree.root).as_posix()
                if cdir and cdir.is_relative_to(tree.root)
                else None,
                "source": f"{rel}:{dec.lineno}",
            }
    for module, e in entries.items():
        e["migrates"] = sorted(f for f in migrations if re.search(rf"\b{re.escape(f)}\s*\(", texts[module]))
    configs: dict[str, dict] = {}
    dirs = sorted(
        {e["config_dir"] for e in entries.values() if e["config_dir"]}, key=lambda d: (d != "verl/trainer/config", d)
    )
    for d in dirs:
        for p in sorted((tree.root / d).glob("*.yaml")):
            if p.name.startswith("_"):
                continue
            configs.setdefault(p.stem, {"dir": d, "file": f"{d}/{p.name}"})
    return {"entry_points": entries, "configs": configs, "migrations": migrations}
