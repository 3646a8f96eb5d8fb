"""Hydra command-line overrides, read by Hydra's own ``OverridesParser`` (hydra-core 1.3, the line verl runs).

The one place the package parses an override: the shell reader (``shell.hydra_cli``) splits a launch script's
arguments with it and the config checker (``checks.config``) applies them with it. Hydra is imported on
first use only, so commands that never meet an override don't pay for it."""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass
from typing import Any


class OverrideError(ValueError):
    """An override Hydra refuses; the message is Hydra's own."""

    def __init__(self, message: str, pos: int = 0) -> None:
        super().__init__(message)
        self.pos = pos


@functools.lru_cache(maxsize=1)
def parser() -> Any:
    """Hydra's override parser (built once: creating it costs a few milliseconds)."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    return OverridesParser.create()


@functools.lru_cache(maxsize=4096)
def _parsed(text: str) -> Any:
    return parser().parse_overrides([text])[0]


def parse_one(text: str) -> Any:
    """Hydra's ``Override`` for one argument, as ``parser().parse_overrides([text])[0]`` gives it (raising the same
    ``HydraException``). A site check asks for the same few dozen texts about 300 times, at about half a millisecond
    each in Hydra's ANTLR parser: the parse is memoised (a pure function of the text), and every caller gets its
    own copy."""
    return copy.deepcopy(_parsed(text))


def error_text(e: BaseException) -> str:
    """Hydra's message, with the OmegaConf error it wraps (as Hydra prints both)."""
    msg = str(e).strip()
    cause = e.__cause__
    if cause is not None and str(cause).strip() and str(cause).strip() not in msg:
        msg += "\n" + str(cause).strip()
    return msg


def hydra_message(e: BaseException) -> str:
    """Hydra's error text, as it prints it, without the search-path listing it appends to a missing option."""
    msg = error_text(e)
    msg = msg.split("\nConfig search path:")[0].split("\nSee https://hydra.cc")[0].strip()
    return _caret_to_text(msg)


def _caret_to_text(msg: str) -> str:
    """Hydra's lexer error is the override on one line and a ``^`` under the offending character on the next; a
    finding is one line, so the caret becomes the character and its position."""
    lines = msg.splitlines()
    head = "LexerNoViableAltException: "
    if len(lines) == 2 and lines[0].startswith(head) and lines[1].strip() == "^":
        text, i = lines[0][len(head) :], lines[1].index("^") - len(head)
        if 0 <= i < len(text):
            return f"{lines[0]} (Hydra's lexer stops at character {i + 1}, `{text[i]}`)"
    return msg


def op(ov: Any) -> str:
    """set | add (``+``) | force (``++``) | delete (``~``) for a Hydra ``Override``."""
    return "add" if ov.is_add() else "force" if ov.is_force_add() else "delete" if ov.is_delete() else "set"


def parse_hydra(text: str) -> Any:
    """Hydra's ``Override`` for one argument; raises :class:`OverrideError` with Hydra's message."""
    from hydra.errors import HydraException

    try:
        return parse_one(text)
    except HydraException as e:
        raise OverrideError(hydra_message(e)) from e


@dataclass
class ParsedOverride:
    op: str  # set | add | force | delete
    key: str
    value: Any  # as Hydra returns it; for a sweep, its first value (None when Hydra can't enumerate it)
    has_value: bool
    group: bool  # a config-group override (`a/b=x`, `key@pkg=x`), not a config value
    sweep: bool = False  # `a,b`, `choice(…)`, `range(…)`, `interval(…)`, `glob(…)`: runs only with --multirun


def _first_of_sweep(value: Any) -> Any:
    """A sweep's first value, deterministically (not shuffled); None for ``interval``/``glob``."""
    from hydra.core.override_parser.types import ChoiceSweep, RangeSweep

    if isinstance(value, ChoiceSweep):
        return value.list[0] if value.list else None
    if isinstance(value, RangeSweep) and value.start is not None and value.stop is not None:
        step = value.step or 1
        if (step > 0 and value.start < value.stop) or (step < 0 and value.start > value.stop):
            return value.start
    return None


def parse_override(arg: str) -> ParsedOverride:
    """One override argument (after the shell's quote removal), split by Hydra. Raises :class:`OverrideError`."""
    ov = parse_hydra(arg)
    kind = op(ov)
    sweep = ov.is_sweep_override()
    value = _first_of_sweep(ov.value()) if sweep else ov.value()
    group = ov.package is not None or "/" in ov.key_or_group
    return ParsedOverride(kind, ov.key_or_group, value, kind != "delete" or "=" in arg, group, sweep)


def parse_override_value(text: str) -> Any:
    """An override value as Hydra reads it (``null`` -> None, ``1_000`` -> 1000, ``[a,b]`` -> list, ``{a:1}`` ->
    dict, ``int(3.0)`` -> 3, ``a,b`` -> Hydra's ``ChoiceSweep``). Raises :class:`OverrideError`."""
    return parse_hydra(f"k={text}").value()
