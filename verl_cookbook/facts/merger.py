"""Model-merger facts: the command line of ``python -m verl.model_merger``, read from its argparse calls with ``ast``.

verl builds the parser in ``verl/model_merger/base_model_merger.py:parse_args``: a top-level parser with
required subcommands (``merge``, ``test``) that share a parent parser's options. This module follows
the variables (``ArgumentParser(...)``, ``add_subparsers(...)``, ``add_parser(name, parents=[...])``)
and every ``add_argument`` call on them, so each subcommand gets its own options with flags, choices,
default, ``required`` and the line they are declared on. A tree without a model merger yields ``{}``.
"""

from __future__ import annotations

import ast
from typing import Any

from verl_cookbook.facts.parts import parse_near
from verl_cookbook.facts.pyast import literal_or_source
from verl_cookbook.verl_source import VerlTree

PKG = "verl/model_merger"
MODULE = "verl.model_merger"


def _kw(call: ast.Call, name: str) -> ast.AST | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _literal(node: ast.AST | None, source: str, default: Any = None) -> Any:
    if node is None:
        return default
    return literal_or_source(node, source)


def _dest(flags: list[str]) -> str:
    longs = [f for f in flags if f.startswith("--")]
    name = (longs[0] if longs else flags[0]).lstrip("-")
    return name.replace("-", "_")


def _option(call: ast.Call, source: str, rel: str) -> dict | None:
    flags = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    if not flags:
        return None
    action = _literal(_kw(call, "action"), source)
    positional = not flags[0].startswith("-")
    if action in ("store_true", "store_false"):
        default = _literal(_kw(call, "default"), source, action == "store_false")
    else:
        default = _literal(_kw(call, "default"), source)
    type_node = _kw(call, "type")
    choices = _literal(_kw(call, "choices"), source)
    return {
        "flags": flags,
        "dest": _literal(_kw(call, "dest"), source) or (flags[0] if positional else _dest(flags)),
        "positional": positional,
        "action": action,
        "takes_value": action not in ("store_true", "store_false", "store_const", "count", "help", "version"),
        "type": ast.unparse(type_node) if type_node is not None else None,
        "choices": list(choices) if isinstance(choices, list | tuple) else None,
        "default": default,
        "required": bool(_literal(_kw(call, "required"), source, False)) or positional,
        "nargs": _literal(_kw(call, "nargs"), source),
        "help": _literal(_kw(call, "help"), source),
        "source": f"{rel}:{call.lineno}",
    }


class _Parsers(ast.NodeVisitor):
    """Follow argparse objects through simple assignments in one module."""

    def __init__(self, source: str, rel: str) -> None:
        self.source = source
        self.rel = rel
        self.parsers: dict[str, dict] = {}  # variable -> {"options": [...], "parents": [...], ...}
        self.subparsers: dict[str, dict] = {}  # variable -> {"owner": parser var, "dest", "required", "commands"}

    def visit_Assign(self, node: ast.Assign) -> None:
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call):
            var, call = node.targets[0].id, node.value
            func = call.func
            fname = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            owner = func.value.id if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else None
            if fname == "ArgumentParser":
                self.parsers[var] = {"options": [], "parents": [], "source": f"{self.rel}:{node.lineno}"}
            elif fname == "add_subparsers" and owner in self.parsers:
                self.subparsers[var] = {
                    "owner": owner,
                    "dest": _literal(_kw(call, "dest"), self.source),
                    "required": bool(_literal(_kw(call, "required"), self.source, False)),
                    "source": f"{self.rel}:{node.lineno}",
                    "commands": [],
                }
            elif fname == "add_parser" and owner in self.subparsers and call.args:
                name = _literal(call.args[0], self.source)
                parents_node = _kw(call, "parents")
                parents = (
                    [p.id for p in parents_node.elts if isinstance(p, ast.Name)]
                    if isinstance(parents_node, ast.List | ast.Tuple)
                    else []
                )
                self.parsers[var] = {
                    "options": [],
                    "parents": parents,
                    "source": f"{self.rel}:{node.lineno}",
                    "name": name,
                    "help": _literal(_kw(call, "help"), self.source),
                }
                self.subparsers[owner]["commands"].append(var)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "add_argument"
            and isinstance(func.value, ast.Name)
            and func.value.id in self.parsers
        ):
            opt = _option(node, self.source, self.rel)
            if opt:
                self.parsers[func.value.id]["options"].append(opt)
        self.generic_visit(node)


def _options_of(var: str, parsers: dict[str, dict], seen: frozenset[str] = frozenset()) -> list[dict]:
    p = parsers[var]
    out: list[dict] = []
    for parent in p["parents"]:
        if parent in parsers and parent not in seen:
            out.extend(_options_of(parent, parsers, seen | {var}))
    return out + p["options"]


_WORDS = ("ArgumentParser", "add_subparsers", "add_parser", "add_argument")


def extract(tree: VerlTree) -> dict:
    """``{"module", "source", "subcommand": {dest, required}, "options": [...], "subcommands": {name: {...}}}``."""
    pkg = tree.root / PKG
    if not pkg.is_dir():
        return {}
    for path in sorted(pkg.glob("*.py")):
        rel = f"{PKG}/{path.name}"
        source = path.read_text(encoding="utf-8", errors="replace")
        if "add_argument" not in source:
            continue
        mod = parse_near(source, rel, _WORDS)  # the functions that build a parser
        for fn in [n for n in ast.walk(mod) if isinstance(n, ast.FunctionDef)]:
            v = _Parsers(source, rel)
            v.visit(fn)
            if not v.subparsers and not any(p["options"] for p in v.parsers.values()):
                continue
            children = {c for s in v.subparsers.values() for c in s["commands"]}
            children |= {parent for p in v.parsers.values() for parent in p["parents"]}
            tops = [var for var in v.parsers if var not in children]
            if not tops:
                continue
            top = tops[0]
            sub = next((s for s in v.subparsers.values() if s["owner"] == top), None)
            subcommands = {}
            for var in sub["commands"] if sub else []:
                p = v.parsers[var]
                subcommands[p["name"]] = {
                    "help": p.get("help"),
                    "source": p["source"],
                    "options": _options_of(var, v.parsers),
                }
            return {
                "module": MODULE,
                "file": rel,
                "source": f"{rel}:{fn.lineno}",
                "function": fn.name,
                "subcommand": {"dest": sub["dest"], "required": sub["required"], "source": sub["source"]}
                if sub
                else None,
                "options": _options_of(top, v.parsers),
                "subcommands": subcommands,
            }
    return {}
