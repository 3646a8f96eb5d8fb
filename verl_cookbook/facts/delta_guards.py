"""``delta_sharded`` guards as facts: the conditional ``raise`` statements (and, for one function, the ``assert``
statements) that verl runs on a ``delta_sharded`` setup, found with ``ast`` in the files of :data:`GUARD_FILES`.

A guard is every ``if`` whose branch raises inside a function that mentions ``"delta_sharded"`` (its conditions,
the locals they read and the exception's message, each as source code), with the ``file:line`` of the ``raise``.
They are extracted once per tree and ship with the facts of each covered release; the doctor's interpreter
(``doctor_rules.delta_guards``) evaluates them against a user's merged config. When verl lifts a constraint the
``raise`` disappears, and so does the guard.

A file can also name one function whose every guard applies, ``assert`` statements included: the
``separate_async`` trainer's constructor asserts ``rollout.nnodes > 0`` and ``train_batch_size ==
parameter_sync_step * ppo_mini_batch_size`` for every backend, so a delta setup in that mode must pass them too.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from verl_cookbook.facts.parts import parse_near
from verl_cookbook.verl_source import VerlTree

ROLLOUT = ("actor_rollout_ref", "rollout")
DELTA = "delta_sharded"


@dataclass(frozen=True)
class GuardFile:
    """A verl file holding delta_sharded guards, and what its names mean in the trainer config."""

    rel: str
    names: dict[str, tuple[str, ...]]  # dotted name in verl's code -> config path
    requires: dict[tuple[str, ...], Any] = field(default_factory=dict)  # config path -> value for the file to apply
    # ``Class.method``: take every guard of that one function (asserts too), whether or not it names delta_sharded
    function: str | None = None


GUARD_FILES: tuple[GuardFile, ...] = (
    # CheckpointEngineWorker.__init__: the rollout engine must have a delta consumer.
    GuardFile("verl/checkpoint_engine/base.py", {"self.rollout_config": ROLLOUT}),
    # vLLMHttpServer._preprocess_engine_kwargs: engine_kwargs is rollout.engine_kwargs.vllm.
    GuardFile(
        "verl/workers/rollout/vllm_rollout/vllm_async_server.py",
        {"self.config": ROLLOUT, "engine_kwargs": (*ROLLOUT, "engine_kwargs", "vllm")},
        requires={(*ROLLOUT, "name"): "vllm"},
    ),
    # PPOTrainerSeparateAsync.__init__: asserts on batch sizes, rollout nodes and the backend.
    GuardFile(
        "verl/trainer/ppo/v1/trainer_separate_async.py",
        {"config": ()},
        requires={("trainer", "use_v1"): True, ("trainer", "v1", "trainer_mode"): "separate_async"},
        function="PPOTrainerSeparateAsync.__init__",
    ),
)


@dataclass
class Guard:
    """One ``raise`` under ``if`` conditions in a delta_sharded code path."""

    file: str
    line: int  # the raise
    error: str
    message: str
    conditions: list[ast.expr]
    locals: dict[str, ast.expr]
    spec: GuardFile
    message_node: ast.expr | None = None

    @property
    def source(self) -> str:
        return f"{self.file}:{self.line}"

    @property
    def condition_text(self) -> str:
        return " and ".join(ast.unparse(c) for c in self.conditions)


def _mentions_delta(fn: ast.AST) -> bool:
    return any(isinstance(n, ast.Constant) and n.value == DELTA for n in ast.walk(fn))


def _text(arg: ast.expr) -> str:
    """An exception message as written: a string, an f-string with its fields in braces, else the source."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.JoinedStr):
        parts = []
        for v in arg.values:  # constants and formatted values
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
            elif isinstance(v, ast.FormattedValue):
                parts.append("{" + ast.unparse(v.value) + "}")
        return "".join(parts)
    return ast.unparse(arg)


def _raise_info(node: ast.Raise) -> tuple[str, str]:
    exc = node.exc
    if isinstance(exc, ast.Call):
        name = ast.unparse(exc.func)
        return name, (_text(exc.args[0]) if exc.args else "")
    return (ast.unparse(exc) if exc is not None else "raise"), ""


def _collect(body: list[ast.stmt], conds: list[ast.expr], local: dict[str, ast.expr], out: list, spec, rel) -> None:
    """Guards in ``body``: each ``raise`` under ``if`` conditions and, for a :attr:`GuardFile.function`, each
    ``assert`` (it raises when its test is false)."""
    for stmt in body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            local[stmt.targets[0].id] = stmt.value
        elif isinstance(stmt, ast.If):
            _collect(stmt.body, [*conds, stmt.test], dict(local), out, spec, rel)
            if stmt.orelse:
                neg = ast.UnaryOp(op=ast.Not(), operand=stmt.test)
                _collect(stmt.orelse, [*conds, neg], dict(local), out, spec, rel)
        elif isinstance(stmt, ast.With):
            _collect(stmt.body, conds, local, out, spec, rel)
        elif isinstance(stmt, ast.Raise) and conds:
            error, message = _raise_info(stmt)
            node = stmt.exc.args[0] if isinstance(stmt.exc, ast.Call) and stmt.exc.args else None
            out.append(Guard(rel, stmt.lineno, error, message, list(conds), dict(local), spec, node))
        elif isinstance(stmt, ast.Assert) and spec.function:
            fails = ast.UnaryOp(op=ast.Not(), operand=stmt.test)
            message = _text(stmt.msg) if stmt.msg is not None else ""
            out.append(Guard(rel, stmt.lineno, "AssertionError", message, [*conds, fails], dict(local), spec, stmt.msg))


def extract_guards(tree: VerlTree) -> list[Guard]:
    """Every conditional ``raise`` in a function of :data:`GUARD_FILES` that mentions ``delta_sharded`` (of each file,
    only the definitions that name it, or the one function named, are parsed; ``_collect`` does not enter nested
    functions)."""
    guards: list[Guard] = []
    for spec in GUARD_FILES:
        if not tree.exists(spec.rel):
            continue
        words = tuple(spec.function.split(".")) if spec.function else (DELTA,)  # what the functions it reads name
        mod = parse_near(tree.read(spec.rel), spec.rel, words)
        if spec.function:
            fn = _function(mod, spec.function)
            if fn is not None:
                _collect(fn.body, [], {}, guards, spec, spec.rel)
            continue
        for node in ast.walk(mod):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _mentions_delta(node):
                found: list[Guard] = []
                _collect(node.body, [], {}, found, spec, spec.rel)
                guards.extend(g for g in found if any(_mentions_delta(c) for c in g.conditions) or _in_delta(g))
    return guards


def _function(mod: ast.Module, qualname: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The module-level ``Class.method`` (or function) named ``qualname``, or None when verl has none."""
    body: list[ast.stmt] = mod.body
    *owners, name = qualname.split(".")
    for owner in owners:
        cls = next((n for n in body if isinstance(n, ast.ClassDef) and n.name == owner), None)
        if cls is None:
            return None
        body = cls.body
    return next((n for n in body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == name), None)


def _in_delta(g: Guard) -> bool:
    """A guard nested in a branch whose condition (or a local it reads) names delta_sharded."""
    for c in g.conditions:
        for n in ast.walk(c):
            if isinstance(n, ast.Name) and n.id in g.locals and _mentions_delta(g.locals[n.id]):
                return True
    return False


def extract(tree: VerlTree) -> list[dict]:
    """The guards of ``tree`` as facts: conditions, locals and message as source code (``ast.unparse``)."""
    return [
        {
            "file": g.file,
            "line": g.line,
            "error": g.error,
            "message": g.message,
            "conditions": [ast.unparse(c) for c in g.conditions],
            "locals": {name: ast.unparse(v) for name, v in g.locals.items()},
            "guard_file": g.spec.rel,
            "message_code": ast.unparse(g.message_node) if g.message_node is not None else None,
        }
        for g in extract_guards(tree)
    ]


def from_facts(records: list[dict]) -> list[Guard]:
    """The guards :func:`extract` recorded, with their code parsed back into expressions (a record naming a guard
    file this package no longer lists is left out)."""
    specs = {spec.rel: spec for spec in GUARD_FILES}
    out = []
    for r in records:
        spec = specs.get(r["guard_file"])
        if spec is None:
            continue
        code = r["message_code"]
        out.append(
            Guard(
                r["file"],
                r["line"],
                r["error"],
                r["message"],
                [_expr(c) for c in r["conditions"]],
                {name: _expr(v) for name, v in r["locals"].items()},
                spec,
                _expr(code) if code is not None else None,
            )
        )
    return out


def _expr(code: str) -> ast.expr:
    return ast.parse(f"({code})", mode="eval").body
