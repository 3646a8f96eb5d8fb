"""``delta_sharded`` guards evaluated against a user's config: the interpreter for the guards that
``facts.delta_guards`` reads from verl's source.

Each condition is evaluated by a small interpreter that maps the names verl uses (``self.config``,
``engine_kwargs`` ...) onto the user's merged config. A guard whose condition uses anything the interpreter cannot
know (a call into vLLM, the model's config) is not reported, never guessed; each finding cites the ``file:line``
of the ``raise``.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yaml

from verl_cookbook.facts.delta_guards import Guard
from verl_cookbook.facts.pyast import dotted_name


class Unknown:
    """A value the static interpreter cannot know."""

    def __repr__(self) -> str:
        return "<unknown>"


UNKNOWN = Unknown()


@dataclass(frozen=True)
class Ref:
    """A path into the user's merged config."""

    path: tuple[str, ...]


# -- the interpreter ---------------------------------------------------------------------------
_CMP = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
    ast.Is: lambda a, b: a is b,
    ast.IsNot: lambda a, b: a is not b,
}
_ARITH = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_MISSING = object()
_INTERP = re.compile(r"^\$\{(?:oc\.select:)?([\w.]+)(?:,(.*))?\}$")


class Evaluator:
    """Evaluates a guard condition against ``config`` (verl's defaults merged with the user's settings).

    ``read`` collects the config paths the evaluation looked at, so a finding can point at the user's line.
    """

    def __init__(self, config: dict, guard: Guard) -> None:
        self.config = config
        self.guard = guard
        self.read: list[tuple[str, ...]] = []

    def lookup(self, path: tuple[str, ...]) -> Any:
        node: Any = self.config
        for key in path:
            if not isinstance(node, dict) or key not in node:
                return _MISSING
            node = node[key]
        return node

    def value(self, v: Any) -> Any:
        if isinstance(v, Ref):
            self.read.append(v.path)
            got = self.resolve(self.lookup(v.path))
            if got is _MISSING or got == "???" or (isinstance(got, str) and got.startswith("${")):
                return UNKNOWN
            return got
        return v

    def resolve(self, got: Any, depth: int = 0) -> Any:
        """A whole-value interpolation in verl's defaults, ``${a.b}`` or ``${oc.select:a.b,default}``, followed
        to the value it names (so ``rollout.n_gpus_per_node`` is ``trainer.n_gpus_per_node``); anything else as is."""
        m = _INTERP.match(got) if isinstance(got, str) and depth < 10 else None
        if m is None:
            return got
        target = self.lookup(tuple(m.group(1).split(".")))
        if target is _MISSING or target == "???":  # OmegaConf's oc.select falls back only for a missing key
            if m.group(2) is None:
                return _MISSING
            try:
                return yaml.safe_load(m.group(2))
            except yaml.YAMLError:
                return _MISSING
        return self.resolve(target, depth + 1)

    def truth(self, node: ast.expr) -> bool | Unknown:
        v = self.value(self.eval(node))
        if v is UNKNOWN:
            return UNKNOWN
        try:
            return bool(v)
        except Exception:
            return UNKNOWN

    def eval(self, node: ast.expr, depth: int = 0) -> Any:  # noqa: C901 - one case per node kind
        if depth > 40:
            return UNKNOWN
        d = depth + 1
        dotted = dotted_name(node)
        if dotted in self.guard.spec.names:
            return Ref(self.guard.spec.names[dotted])
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id in self.guard.locals:
                return self.eval(self.guard.locals[node.id], d)
            return {"None": None, "True": True, "False": False}.get(node.id, UNKNOWN)
        if isinstance(node, ast.Attribute):
            return self._attr(self.eval(node.value, d), node.attr, _MISSING)
        if isinstance(node, ast.Set | ast.List | ast.Tuple):
            items = [self.value(self.eval(e, d)) for e in node.elts]
            if any(i is UNKNOWN for i in items):
                return UNKNOWN
            try:
                return set(items) if isinstance(node, ast.Set) else list(items)
            except TypeError:
                return UNKNOWN
        if isinstance(node, ast.Dict):
            return {} if not node.keys else UNKNOWN
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            t = self.truth(node.operand)
            return UNKNOWN if t is UNKNOWN else not t
        if isinstance(node, ast.BoolOp):
            return self._boolop(node, d)
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _CMP:
            left = self.value(self.eval(node.left, d))
            right = self.value(self.eval(node.comparators[0], d))
            if left is UNKNOWN or right is UNKNOWN:
                return UNKNOWN
            try:
                return _CMP[type(node.ops[0])](left, right)
            except TypeError:
                return UNKNOWN
        if isinstance(node, ast.BinOp) and type(node.op) in _ARITH:
            left = self.value(self.eval(node.left, d))
            right = self.value(self.eval(node.right, d))
            if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (left, right)):
                return UNKNOWN
            try:
                return _ARITH[type(node.op)](left, right)
            except ArithmeticError:
                return UNKNOWN
        if isinstance(node, ast.Call):
            return self._call(node, d)
        return UNKNOWN

    def _boolop(self, node: ast.BoolOp, d: int) -> Any:
        is_and = isinstance(node.op, ast.And)
        saw_unknown = False
        last: Any = None
        for v in node.values:
            last = self.value(self.eval(v, d))
            if last is UNKNOWN:
                saw_unknown = True
                continue
            if bool(last) != is_and:  # `and` stops at a falsy value, `or` at a truthy one
                return last
        return UNKNOWN if saw_unknown else last

    def _attr(self, base: Any, attr: str, default: Any) -> Any:
        if base is UNKNOWN:
            return UNKNOWN
        if isinstance(base, Ref):
            got = self.lookup(base.path)
            if isinstance(got, dict) and attr not in got:
                return default if default is not _MISSING else UNKNOWN
            return Ref((*base.path, attr))
        if isinstance(base, dict):
            return base.get(attr, default) if default is not _MISSING else base.get(attr, UNKNOWN)
        return UNKNOWN

    def _call(self, node: ast.Call, d: int) -> Any:
        if node.keywords:
            return UNKNOWN
        func = node.func
        args = node.args
        if isinstance(func, ast.Name) and func.id == "getattr" and len(args) in (2, 3):
            name = self.value(self.eval(args[1], d))
            if not isinstance(name, str):
                return UNKNOWN
            default = self.eval(args[2], d) if len(args) == 3 else _MISSING
            return self._attr(self.eval(args[0], d), name, default)
        if isinstance(func, ast.Name) and func.id in ("int", "float", "bool", "str", "len") and len(args) == 1:
            v = self.value(self.eval(args[0], d))
            if v is UNKNOWN:
                return UNKNOWN
            try:
                convert: dict[str, Callable[[Any], Any]] = {
                    "int": int,
                    "float": float,
                    "bool": bool,
                    "str": str,
                    "len": len,
                }
                return convert[func.id](v)
            except (TypeError, ValueError):
                return UNKNOWN
        if isinstance(func, ast.Attribute) and func.attr == "get" and len(args) in (1, 2):
            key = self.value(self.eval(args[0], d))
            if not isinstance(key, str):
                return UNKNOWN
            default = self.eval(args[1], d) if len(args) == 2 else None
            return self._attr(self.eval(func.value, d), key, default)
        return UNKNOWN


@dataclass
class Verdict:
    guard: Guard
    fires: bool | Unknown
    read: list[tuple[str, ...]]


def render_message(guard: Guard, config: dict) -> str:
    """The raise's message with the f-string fields the interpreter can fill in filled in (``!r`` honoured)."""
    node = guard.message_node
    if not isinstance(node, ast.JoinedStr):
        return guard.message
    ev = Evaluator(config, guard)
    parts = []
    for v in node.values:
        if isinstance(v, ast.Constant):
            parts.append(str(v.value))
            continue
        if not isinstance(v, ast.FormattedValue):  # an f-string holds constants and formatted values only
            continue
        got = ev.value(ev.eval(v.value))
        if got is UNKNOWN or isinstance(got, Ref):
            parts.append("{" + ast.unparse(v.value) + "}")
        else:
            parts.append(repr(got) if v.conversion == ord("r") else str(got))
    return "".join(parts)


def evaluate(guard: Guard, config: dict) -> Verdict:
    """Does ``guard`` raise for ``config``? True, False, or UNKNOWN (then it is not reported)."""
    ev = Evaluator(config, guard)
    for path, want in guard.spec.requires.items():
        got = ev.lookup(path)
        if got is _MISSING or got == "???":
            return Verdict(guard, UNKNOWN, [path])
        if got != want:
            return Verdict(guard, False, [path])
    result: bool | Unknown = True
    for cond in guard.conditions:
        t = ev.truth(cond)
        if t is False:
            return Verdict(guard, False, ev.read)
        if t is UNKNOWN:
            result = UNKNOWN
    return Verdict(guard, result, ev.read)
