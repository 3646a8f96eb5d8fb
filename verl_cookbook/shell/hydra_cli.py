"""The arguments of a verl entry point as Hydra reads its command line, from the words the shell reader produced.

Hydra overrides follow Hydra 1.3's override grammar (https://hydra.cc/docs/advanced/override_grammar/basic/,
``hydra/grammar/OverrideParser.g4``): ``key=value``, ``+key=value`` (add), ``++key=value`` (force),
``~key`` / ``~key=value`` (delete); values are ``null``, booleans, ints, floats, quoted strings,
``[a,b]`` lists, ``{a:1}`` dicts, ``${…}`` interpolations, unquoted strings, sweeps and functions. Hydra's own
parser splits each one (``hydra_overrides``). What is returned is data: the checks judge it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from verl_cookbook.hydra_overrides import OverrideError, ParsedOverride, parse_override
from verl_cookbook.shell.model import Command, Word

# Hydra's own command-line flags (hydra/_internal/utils.py get_args_parser): flag -> takes a value.
HYDRA_FLAGS = {
    "--help": False,
    "-h": False,
    "--hydra-help": False,
    "--version": False,
    "--cfg": True,
    "-c": True,
    "--resolve": False,
    "--package": True,
    "-p": True,
    "--run": False,
    "-r": False,
    "--multirun": False,
    "-m": False,
    "--shell-completion": False,
    "-sc": False,
    "--config-path": True,
    "-cp": True,
    "--config-name": True,
    "-cn": True,
    "--config-dir": True,
    "-cd": True,
    "--experimental-rerun": True,
    "--info": None,  # optional value
    "-i": None,
}
_INFO_CHOICES = {"all", "config", "defaults", "defaults-tree", "plugins", "searchpath"}


@dataclass
class Problem:
    """An argument Hydra would refuse. ``kind``: ``unknown-flag`` (``text`` is the flag), ``flag-needs-value``
    (the flag) or ``malformed`` (``text`` is the argument as parsed, ``error`` Hydra's message). A sweep without
    ``--multirun`` is Hydra's own verdict, given by the config checker, which ``info["multirun"]`` tells."""

    kind: str
    word: Word
    text: str
    error: str = ""


@dataclass
class Override:
    """A config-value override: ``key`` dotted, ``value`` as Hydra reads it (None when it comes from a shell
    expansion not known statically), ``op`` set | add | force | delete, ``raw`` the word as bash hands it to verl
    (None when part of it is such an expansion)."""

    key: str
    value: Any
    op: str
    word: Word
    raw: str | None


@dataclass
class CommandLine:
    """Everything Hydra would take from one command line. ``info`` has ``config_name`` (e.g.
    ``ppo_megatron_trainer``, or None for the entry point's own; ``config_name_at``: where the flag is written),
    ``config_path``, ``config_dir``, ``multirun``,
    ``groups`` (config-group overrides), ``hydra`` (overrides of Hydra's own ``hydra.*`` config), ``symbolic``
    (dotted keys whose value comes from a shell variable; their value is None) and ``opaque`` (arguments that are
    wholly a shell expansion such as ``$EXTRA_ARGS``)."""

    overrides: list[Override] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)


def read_command_line(cmd: Command) -> CommandLine:
    """The Hydra command line of ``cmd``: its arguments after the module."""
    info: dict[str, Any] = {
        "config_name": None,
        "config_path": None,
        "config_dir": None,
        "multirun": False,
        "groups": [],
        "hydra": [],
        "symbolic": [],
        "opaque": [],
    }
    out = CommandLine(info=info)
    words = cmd.module_words or [
        Word(a, ln, c)
        for a, ln, c in zip(cmd.argv[cmd.args_start :], cmd.arg_lines[cmd.args_start :], _cols(cmd), strict=False)
    ]
    pending: list[tuple[ParsedOverride, Word]] = []
    i = 0
    while i < len(words):
        w = words[i]
        arg = w.text
        i += 1
        if w.has_var and w.var_spans[0] == (0, len(arg)):
            info["opaque"].append(arg)
            continue
        if (
            arg.startswith("-")
            and not arg.startswith("--")
            and len(arg) > 1
            and arg[1].isalpha()
            or arg.startswith("--")
        ):
            flag, eq, val = arg.partition("=")
            if flag not in HYDRA_FLAGS:
                out.problems.append(Problem("unknown-flag", w, flag))
                if not eq and i < len(words) and "=" not in words[i].text and not words[i].text.startswith("-"):
                    i += 1  # its apparent value: one problem is enough
                continue
            takes = HYDRA_FLAGS[flag]
            if takes and not eq:
                if i >= len(words):
                    out.problems.append(Problem("flag-needs-value", w, flag))
                    continue
                val = words[i].text
                i += 1
            elif takes is None and not eq and i < len(words) and words[i].text in _INFO_CHOICES:
                i += 1
            if flag in ("--config-name", "-cn"):
                info["config_name"] = val[:-5] if val.endswith(".yaml") else val
                info["config_name_at"] = (w.line, w.col)
            elif flag in ("--config-path", "-cp"):
                info["config_path"] = val
            elif flag in ("--config-dir", "-cd"):
                info["config_dir"] = val
            elif flag in ("--multirun", "-m"):
                info["multirun"] = True
            continue
        at = arg.find("=")
        if w.has_var and w.var_in(0, at if at > 0 else len(arg)) and not arg.startswith("-"):
            info["opaque"].append(arg)  # the key itself is a shell expansion (or a placeholder)
            continue
        if w.has_var and at > 0 and not w.var_in(0, at):
            arg = arg[: at + 1] + "0"  # the value is a shell expansion: its key is still parsed and checked
        try:
            ov = parse_override(arg)
        except OverrideError as e:
            out.problems.append(Problem("malformed", w, arg, str(e)))
            continue
        pending.append((ov, w))
    for ov, w in pending:
        if ov.group:
            info["groups"].append(w.text)
            continue
        if ov.key == "hydra" or ov.key.startswith("hydra."):
            info["hydra"].append(w.text)
            continue
        if w.var_in(0, _key_end(w.text)):
            info["opaque"].append(w.text)
            continue
        value = ov.value
        if w.has_var and ov.has_value:
            value = None
            info["symbolic"].append(ov.key)
        elif ov.sweep and value is None:  # a sweep with --multirun is judged by its first value (Hydra's checker
            info["symbolic"].append(ov.key)  # refuses one without it: checks.config.hydra_apply)
        # raw: the word as bash hands it to verl, for Hydra's own parser in the checker (not when part of it
        # is a shell expansion not known statically)
        out.overrides.append(Override(ov.key, value, ov.op, w, None if w.has_var else w.text))
    return out


def _key_end(text: str) -> int:
    eq = text.find("=")
    return len(text) if eq < 0 else eq


def _cols(cmd: Command) -> list[int]:
    return cmd.arg_cols[cmd.args_start :] if cmd.arg_cols else [1] * (len(cmd.argv) - cmd.args_start)
