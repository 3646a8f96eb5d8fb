"""Types: what a value may be where verl's config holds it, judged where the value ends up. A value under a node
that verl converts to a dataclass with OmegaConf's typed merge must convert to the field's annotation the way
OmegaConf converts it (:func:`conversion_error`, ``config/wrong-type``); a value under a node verl instantiates must
already be what the field holds, for nothing converts it (:func:`unconverted_case`, ``config/unconverted-type``);
an engine constructor's keyword argument must match its Python default (:func:`type_error`).

verl's ``omega_conf_to_dataclass`` (verl 0.9.1 ``verl/utils/config.py:23``) has two branches. Called with only the
node (``dataclass_type`` None, verl/utils/config.py:42-50), it builds the node's ``_target_`` with
``hydra.utils.instantiate``, which passes the values to the constructor as they are: a string for a
``tuple[float, float]`` field is kept as a string, and the optimizer verl builds from it fails in torch
(tests/test_unconverted_type.py runs it). Only a call that names the class (``dataclass_type=…``) takes the typed
branch (``OmegaConf.merge(OmegaConf.structured(cls), cfg)``, verl/utils/config.py:52-64), which converts what it can
(``"0.5"`` for a float) and rejects the rest. In 0.9.1 the typed calls are ``HFModelConfig`` (the rollout servers:
vllm_async_server.py:1099, async_sglang_server.py:165, trtllm_async_server.py:116), ``ProfilerConfig``
(workers/engine_workers.py:487), ``DistillationTeacherModelConfig`` (workers/config/distillation.py:315) and
``SkipManagerConfig`` (utils/skip/skip_manager.py:40); every other node (the actor, its ``optim``, the rollout, the
critic …) is instantiated (the ``typed`` and ``converted`` facts of ``facts.dataclass_types``)."""

from __future__ import annotations

import dataclasses
import functools
import typing
from typing import Any

from verl_cookbook.checks.config.model import (
    UNKNOWN,
    Assignment,
    CheckedConfig,
    closest_key,
)
from verl_cookbook.findings import Finding
from verl_cookbook.rules.config import CONFIG_NOT_A_FIELD, CONFIG_UNCONVERTED_TYPE, CONFIG_WRONG_TYPE


def type_error(default: Any, value: Any, annotation: str | None = None) -> str | None:
    """The type ``value`` should have where a Python default is ``default`` (an engine constructor's keyword
    argument, passed as is), when it does not have it; None if it can stand there."""
    if isinstance(value, str) and value.startswith("${"):
        return None  # an interpolation: resolved by OmegaConf at run time
    if value is None:
        return None
    kinds = (bool, int, float, str, dict, list)  # bool before int: True is an int too
    if default is None:
        ann = (annotation or "").replace("Optional[", "").rstrip("]")
        expected = next((k for k in kinds if k.__name__ == ann), None)
    else:
        expected = next((k for k in kinds if isinstance(default, k)), None)
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
    return expected.__name__


# -- types from verl's dataclasses ----------------------------------------------------------------------------
_TYPING = {
    "int": int,
    "float": float,
    "str": str,
    "bool": bool,
    "bytes": bytes,
    "Any": Any,
    "None": None,
    "list": list,
    "dict": dict,
    "tuple": tuple,
    "List": typing.List,  # noqa: UP006 - the names verl's annotations use
    "Dict": typing.Dict,  # noqa: UP006
    "Tuple": typing.Tuple,  # noqa: UP006
    "Optional": typing.Optional,
    "Union": typing.Union,
}


def _annotation(text: str) -> Any:
    """A Python type for annotation text, with every name that is not a builtin or typing name (another
    dataclass, an enum, ``torch.dtype``) turned into ``Any``: what can't be judged, isn't. Raises on Literal etc."""
    import ast

    def conv(node: ast.AST) -> Any:
        if isinstance(node, ast.Constant):
            if node.value is None:
                return None
            if isinstance(node.value, str):
                return conv(ast.parse(node.value, mode="eval").body)
            raise ValueError(node.value)
        if isinstance(node, ast.Name | ast.Attribute):
            name = node.id if isinstance(node, ast.Name) else node.attr
            if isinstance(node, ast.Attribute) and not (isinstance(node.value, ast.Name) and node.value.id == "typing"):
                return Any
            return _TYPING.get(name, Any)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return typing.Union[conv(node.left), conv(node.right)]  # noqa: UP007
        if isinstance(node, ast.Subscript):
            base = conv(node.value)
            if base is Any:
                return Any
            args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            conv_args = tuple(conv(a) for a in args)
            if base in (typing.Optional,):
                return typing.Optional[conv_args[0]]  # noqa: UP007, UP045
            if base in (typing.Union,):
                return typing.Union[conv_args]  # noqa: UP007
            # generic aliases subscripted at run time with types read from verl's annotation text
            origin: Any = {list: typing.List, dict: typing.Dict, tuple: typing.Tuple}.get(base, base)  # noqa: UP006
            as_list: Any = typing.List  # noqa: UP006
            if origin is typing.Tuple:  # noqa: UP006
                return as_list[conv_args[0]] if conv_args else list  # OmegaConf stores a tuple as a list
            return origin[conv_args if len(conv_args) > 1 else conv_args[0]]
        raise ValueError(ast.dump(node))

    return conv(ast.parse(text, mode="eval").body)


@functools.lru_cache(maxsize=512)
def _probe(tp: Any) -> Any:
    """A one-field OmegaConf structured config of type ``tp``; None when OmegaConf can't represent ``tp``."""
    from omegaconf import MISSING, OmegaConf
    from omegaconf.errors import OmegaConfBaseException

    try:
        dc = dataclasses.make_dataclass("Field", [("value", tp, dataclasses.field(default=MISSING))])
        return OmegaConf.structured(dc)
    except (OmegaConfBaseException, TypeError, ValueError):
        return None


def conversion_error(annotation: str, value: Any) -> str | None:
    """OmegaConf's own message when ``value`` cannot be converted to a field annotated ``annotation`` (what
    ``OmegaConf.merge(OmegaConf.structured(Config), cfg)`` in verl's ``omega_conf_to_dataclass`` raises); None when
    it converts, when the value is null, an interpolation or ``???``, or when the annotation can't be judged.
    An int for a float converts; ``"0.7"`` for a float converts; a union converts when one member does."""
    from omegaconf import OmegaConf
    from omegaconf.errors import OmegaConfBaseException

    if value is None or (isinstance(value, str) and ("${" in value or value == UNKNOWN)):
        return None
    try:
        tp = _annotation(annotation)
    except (ValueError, SyntaxError, TypeError):
        return None
    members = typing.get_args(tp) if typing.get_origin(tp) is typing.Union else (tp,)
    members = tuple(m for m in members if m is not type(None))
    if any(m is Any for m in members):
        return None
    first = None
    for m in members:
        probe = _probe(m)
        if probe is None:
            return None
        try:
            OmegaConf.merge(probe, {"value": value})
            return None
        except OmegaConfBaseException as e:
            first = first or str(e).splitlines()[0]
    return first


_SEQUENCES = (list, tuple, typing.List, typing.Tuple, typing.Sequence)  # noqa: UP006 - verl's annotations
_MAPPINGS = (dict, typing.Dict, typing.Mapping)  # noqa: UP006


def unconverted_case(annotation: str, value: Any) -> str | None:
    """The case of ``config/unconverted-type`` when ``value``, passed on as it is (``hydra.utils.instantiate``
    converts nothing), cannot be what a field annotated ``annotation`` holds: ``""`` a string where no member of the
    annotation is a string (numbers, a list, a mapping), ``"list"`` a list where none is a sequence, ``"mapping"`` a
    mapping where none is one. None when it can, for null, an interpolation or ``???``, a number or a boolean (a
    number stands for a number of another kind, and Hydra reads ``1``/``True`` as written), and an annotation that
    can't be judged (another class, an enum, ``Any``)."""
    if value is None or (isinstance(value, str) and ("${" in value or value == UNKNOWN)):
        return None
    fits: tuple[Any, ...]
    if isinstance(value, str):
        case, fits = "", (str, bytes)
    elif isinstance(value, list):
        case, fits = "list", _SEQUENCES
    elif isinstance(value, dict):
        case, fits = "mapping", _MAPPINGS
    else:
        return None
    try:
        tp = _annotation(annotation)
    except (ValueError, SyntaxError, TypeError):
        return None
    members = typing.get_args(tp) if typing.get_origin(tp) is typing.Union else (tp,)
    kinds = [typing.get_origin(m) or m for m in members if m is not type(None) and m is not None]
    if not kinds or any(k is Any or not isinstance(k, type) and k not in (*_SEQUENCES, *_MAPPINGS) for k in kinds):
        return None
    return None if any(k in fits for k in kinds) else case


class FieldTypes(CheckedConfig):
    """The type rules of :class:`~verl_cookbook.checks.config.checker.ConfigChecker`."""

    def _dataclass_of(self, cfg: dict, path: tuple[str, ...]) -> tuple[int, str, dict[str, dict]] | None:
        """(k, class, fields) for the nearest node above ``path`` that has a ``_target_`` (at ``path[:k]``)."""
        nodes: list[Any] = [cfg]
        for key in path[:-1]:
            last = nodes[-1]
            nodes.append(last.get(key) if isinstance(last, dict) else None)
        for k in range(len(nodes) - 1, -1, -1):
            target = nodes[k].get("_target_") if isinstance(nodes[k], dict) else None
            if isinstance(target, str):
                dc = self.facts.dataclass_fields(target) if self.facts.converted(path[:k]) else None
                return (k, *dc) if dc else None
        return None

    def _unconverted(self, a: Assignment, cls: str, name: str, field: dict) -> list[Finding]:
        """``config/unconverted-type`` for a value verl hands to ``cls`` unconverted (``hydra.utils.instantiate``,
        verl/utils/config.py:42-50 in 0.9.1) that cannot be what the field ``name`` holds."""
        case = unconverted_case(field["annotation"], a.value)
        if case is None:
            return []
        short = cls.rpartition(".")[2]
        built = self.facts.converted_at(a.path[:-1]) or "omega_conf_to_dataclass"
        return [
            CONFIG_UNCONVERTED_TYPE.at(
                a.file, a.line, a.col, key=a.dotted, value=a.value, cls=short, field=name,
                annotation=field["annotation"], built=built, case=case,
                fact=f"{short}.{name}: {field['annotation']}", fact_source=field["source"],
            )
        ]  # fmt: skip

    def _typed_merged(self, cls: str) -> bool:
        """Whether verl builds the dataclass ``cls`` (qualified name) with OmegaConf's typed merge somewhere, so a
        value it cannot convert raises; nodes verl only instantiates from ``_target_`` get no type judgment."""
        return self.facts.typed_merge(cls) is not None

    def _in_dict_field(self, cfg: dict, path: tuple[str, ...]) -> bool:
        return self.dict_field(path, cfg) is not None

    def dict_field(self, path: tuple[str, ...], cfg: dict | None = None) -> tuple[str, ...] | None:
        """The path of the dict-typed dataclass field that ``path`` lies below (``distillation.teacher_models``
        for ``distillation.teacher_models.math.key``), or None."""
        dc = self._dataclass_of(cfg if cfg is not None else self.base or {}, path)
        if dc is None or dc[0] >= len(path) - 1:
            return None
        k, _cls, fields = dc
        ann = (fields.get(path[k]) or {}).get("annotation", "")
        return path[: k + 1] if ann.replace("Optional[", "").replace("typing.", "").lower().startswith("dict") else None

    def _check_types(self, assigns: list[Assignment], cfg: dict, unknown: set[tuple[str, ...]]) -> list[Finding]:
        """A value the dataclass that verl converts the node to (its ``_target_``) cannot take; a key it has no
        field for (added with ``+``: Hydra takes it, building the dataclass raises TypeError). A key below a
        field (``engine_kwargs.nccl.x`` below ``engine_kwargs: dict``) gets no type judgment."""
        out: list[Finding] = []
        for a in assigns:
            if a.op in ("delete", "group") or a.path in unknown or not a.path or a.path[-1] == "_target_":
                continue
            dc = self._dataclass_of(cfg, a.path)
            if dc is None:
                continue
            k, cls, fields = dc
            name = a.path[k]
            node = ".".join(a.path[:k])
            short = cls.rpartition(".")[2]
            if name not in fields:
                if a.op not in ("add", "force"):
                    continue  # a YAML key or `k=v` that the config lacks is reported as an unknown key
                out.append(
                    CONFIG_NOT_A_FIELD.at(
                        a.file,
                        a.line,
                        a.col,
                        fact=f"{short} fields: {', '.join(sorted(f for f in fields if f != '_target_')[:12])} …",
                        fact_source=self.facts.data["dataclasses"]["classes"][cls]["source"],
                        key=a.dotted,
                        cls=short,
                        node=node,
                        name=name,
                        suggestion=closest_key(name, sorted(fields), cutoff=0.6),
                    )
                )
                continue
            if k != len(a.path) - 1:
                continue
            if not self._typed_merged(cls):  # instantiated from `_target_`: the value is passed on as it is
                out.extend(self._unconverted(a, cls, name, fields[name]))
                continue
            err = conversion_error(fields[name]["annotation"], a.value)
            if err:
                out.append(
                    CONFIG_WRONG_TYPE.at(
                        a.file,
                        a.line,
                        a.col,
                        fact=f"{short}.{name}: {fields[name]['annotation']}",
                        fact_source=fields[name]["source"],
                        key=a.dotted,
                        value=a.value,
                        annotation=fields[name]["annotation"],
                        field=f"{short}.{name}",
                        error=err,
                    )
                )
        return out
