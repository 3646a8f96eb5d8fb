"""One judge for a command that launches verl: a ``check="shell"`` block, a lenient list of override fragments and
``doctor`` hand it the same typed command line (:class:`Unit`, read by :func:`read_command`) and get the same
findings back (:func:`judge`). They differ only in the stages they ask for, declared here:

- ``STATIC``: what Hydra makes of the command line (malformed overrides, flags, sweeps without ``--multirun``) and of
  verl's config (keys, types, group choices, engines, ``delta_sharded`` guards), the keys an upgrade moved, and the
  lines a wrong backend name drags along;
- ``REQUIRED``: the values verl requires at start-up and the values it accepts (:mod:`.required_values`);
- ``STARTUP``: verl's own start-up checks, run from the same units in a separate process (``doctor --startup``,
  :mod:`verl_cookbook.startup`), never here.

The script around a command is judged by :func:`judge_script` for every caller too: the exports against the env
catalog (:mod:`.env_exports`) and what bash makes of the script as a whole (:mod:`.script_shape`).
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from verl_cookbook.checks import upgrade
from verl_cookbook.checks.command_line import overrides_to_assignments
from verl_cookbook.checks.config.checker import ConfigChecker
from verl_cookbook.checks.config.model import Assignment, merged_config
from verl_cookbook.checks.env_exports import check_exports
from verl_cookbook.checks.external_modules import external_modules_note
from verl_cookbook.checks.script_shape import script_findings
from verl_cookbook.checks.shell_placeholders import ELIDED
from verl_cookbook.facts import Facts
from verl_cookbook.findings import Finding
from verl_cookbook.rules.config import (
    CONFIG_LEGACY_KEY,
    CONFIG_NOT_A_FIELD,
    CONFIG_NOT_A_MAPPING,
    CONFIG_UNKNOWN_KEY,
    OVERRIDE_GROUP,
    OVERRIDE_NEEDS_PLUS,
    OVERRIDE_PLUS_ON_EXISTING,
)
from verl_cookbook.rules.engines import DELTA_REJECTED, ENGINE_KWARGS_IGNORED, ENGINE_UNKNOWN_BACKEND
from verl_cookbook.shell.model import Command, Script

DEFAULT_CONFIG = "ppo_trainer"
Where = Callable[[int], tuple[str, int]]  # a line of the code read -> (file, line) where it is written


class Stage(enum.Flag):
    STATIC = enum.auto()
    REQUIRED = enum.auto()
    STARTUP = enum.auto()


SHELL_BLOCK = Stage.STATIC  # check="shell" and lenient fragment lists: a page's command may show a part of one
DOCTOR = Stage.STATIC | Stage.REQUIRED  # doctor: a launch script is the whole command (--startup adds STARTUP)


@dataclass
class Unit:
    """One thing to judge: a verl trainer command of a script (what Hydra takes from its command line), or a YAML
    config (no command)."""

    assignments: list[Assignment]
    findings: list[Finding]  # what Hydra refuses on the command line (or the YAML reader)
    config: str  # the primary config in effect
    line: int
    note: str | None = None
    symbolic: set[tuple[str, ...]] = field(default_factory=set)  # keys whose value is a shell expansion
    strict: bool = True  # False: the config may hold keys verl's tree does not show (unknown keys not reported)
    module: str | None = None  # the entry point (python -m …) as judged; None for a YAML config
    config_at: tuple[str, int, int] | None = None  # where `--config-name` names a config of verl's own folders
    multirun: bool = False  # --multirun / -m: Hydra runs sweeps
    file: str = ""  # where the command (or config) is written
    moved_from: str | None = None  # the removed entry point the command names, judged as ``module`` (its replacement)


# -- reading -------------------------------------------------------------------------------------------------------
def script_env(script: Script) -> dict[str, tuple[str | None, int]]:
    """NAME -> (value, line) of what the script exports (or sets before a command)."""
    return {e.name: (e.value, e.line) for e in script.exports if e.kind in ("export", "prefix") or e.exported}


def read_command(
    cmd: Command, facts: Facts, where: Where, env: dict[str, tuple[str | None, int]], config: str | None = None
) -> tuple[Unit | None, list[str]]:
    """``cmd`` as a :class:`Unit` when it runs a Hydra entry point of verl (a removed one as its replacement), with
    notes on what could not be known statically; (None, []) otherwise. ``config``: the config a caller declares
    (a block's ``config=``), used when the command line names none."""
    module = upgrade.replacement(facts, cmd.module or "") or cmd.module or ""
    entry = facts.entry_point(module) if module.startswith("verl.") else None
    if entry is None:
        return None, []  # not a Hydra entry point of verl (e.g. verl.model_merger), or no such module (reported)
    assigns, problems, info = overrides_to_assignments(cmd, "<command>")
    for a in assigns:
        a.file, a.line = where(a.line)
    problems = [dataclasses.replace(f, path=where(f.line)[0], line=where(f.line)[1]) for f in problems]
    file, line = where(cmd.module_at[0])
    symbolic = {tuple(k.split(".")) for k in info.get("symbolic", [])}
    unit = Unit(assigns, problems, info.get("config_name") or config or entry["config_name"], line, symbolic=symbolic,
                module=module, multirun=bool(info.get("multirun")), file=file,
                moved_from=cmd.module if module != cmd.module else None)  # fmt: skip
    at = info.get("config_name_at")
    if info.get("config_name") and at and not info.get("config_path") and not info.get("config_dir"):
        unit.config_at = (*where(at[0]), at[1])
    notes = []
    if symbolic:
        unit.note = (
            f"line {line}: {len(symbolic)} override(s) take their value from something not known statically "
            f"({', '.join(sorted('.'.join(k) for k in symbolic))}): their keys were checked, not their values"
        )
    opaque = info.get("opaque", [])
    if opaque:
        notes.append(
            f"line {line}: argument(s) of `{module}` not known statically, not checked: "
            + "; ".join(f"`{a}` ({_why_unknown(a)})" for a in opaque)
        )
    if ELIDED in opaque:  # `...` in a page's command may hide `--config-name` or a group choice
        unit.strict = False
    outside = [g for g in info.get("groups", []) if not _group_option_in_tree(facts, g)]
    if outside:
        unit.strict = False
        notes.append(
            f"line {line}: {', '.join(f'`{g}`' for g in outside)} chooses a config that verl's config folders do not "
            "hold (a Hydra search-path plugin of another package may provide it): keys under it are not judged "
            "missing"
        )
    plugin = external_modules_note(env, file)
    if plugin:
        unit.strict = False
        notes.append(plugin)
    if cmd.via:
        unit.strict = False
        notes.append(
            f"line {line}: `{module}` is run through `{cmd.via}`, which may add config groups and keys of its own: "
            "unknown keys and groups are not reported"
        )
    return unit, notes


def _group_option_in_tree(facts: Facts, override: str) -> bool:
    """Whether a group choice such as ``actor@actor_rollout_ref.actor=megatron_actor`` names a config file
    (``<group>/<option>.yaml``) somewhere in verl's tree; True when it cannot be told (not a plain name)."""
    key, _, option = override.lstrip("+~").partition("=")
    group = key.split("@", 1)[0]
    if not re.fullmatch(r"[\w-]+(/[\w-]+)*", group) or not re.fullmatch(r"[\w.-]+", option or ""):
        return True
    return (group, option) in _config_options(str(facts.tree.package), facts.session.config_options)


def _config_options(package: str, memo: dict[str, frozenset[tuple[str, str]]]) -> frozenset[tuple[str, str]]:
    """(group folder, option) for every YAML file under a ``config`` folder of verl's package; listed once per run
    (``memo``: the run's :attr:`~verl_cookbook.session.Session.config_options`)."""
    if package in memo:
        return memo[package]
    out = set()
    for cfg in Path(package).rglob("config"):
        if cfg.is_dir():
            for y in cfg.rglob("*.yaml"):
                rel = y.relative_to(cfg).with_suffix("")
                if len(rel.parts) > 1:
                    out.add(("/".join(rel.parts[:-1]), rel.parts[-1]))
    memo[package] = frozenset(out)
    return memo[package]


def _why_unknown(arg: str) -> str:
    """Why an argument cannot be known statically, in a few words."""
    if re.search(r"\$\{?[@*]|\$\{?[1-9]", arg):
        return "the script's own command-line arguments"
    if "$(" in arg or "`" in arg:
        return "the output of a command"
    m = re.search(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)", arg)
    if m:
        return f"`{m.group(1)}` is not set in the script (it comes from the environment)"
    return "a shell expansion"


# -- judging -------------------------------------------------------------------------------------------------------
# Findings about a key itself (not its value): still right when the value is a shell expansion. A legacy key is
# legacy whatever its value (`custom_reward_function.path="${REWARD_PATH}"`: main_ppo still never reads it).
_KEY_RULES = {
    CONFIG_UNKNOWN_KEY,
    CONFIG_NOT_A_MAPPING,
    OVERRIDE_NEEDS_PLUS,
    OVERRIDE_PLUS_ON_EXISTING,
    CONFIG_LEGACY_KEY,
}
# Findings that a key or group is missing from verl's tree: not judged when the config may hold more (not strict).
_KEY_PRESENCE_RULES = {CONFIG_UNKNOWN_KEY, OVERRIDE_NEEDS_PLUS, OVERRIDE_GROUP, CONFIG_NOT_A_FIELD}


def judge(unit: Unit, facts: Facts, device: str | None, stages: Stage) -> list[Finding]:
    """The findings of ``unit`` for the ``stages`` asked for (``STARTUP`` runs elsewhere)."""
    config, strict = unit.config, unit.strict
    out: list[Finding] = []
    if facts.default_config(config) is None:
        if unit.config_at is not None and config not in facts.config_names():
            out.append(unknown_config(unit, facts))
        config, strict = DEFAULT_CONFIG, False
    # the module that runs the config decides which legacy keys are read (`--config-name=ppo_megatron_trainer` is
    # still run by main_ppo, which migrates no legacy reward key)
    runs = unit.module if unit.module and facts.entry_point(unit.module) else None
    checker = ConfigChecker(facts, config, device, entry_point=runs)
    raw = list(unit.findings)
    if unit.assignments:
        found = checker.check(
            unit.assignments, mode="config", delta=True, unknown=unit.symbolic, multirun=unit.multirun
        )
        raw += [f for f in found if f.rule in _KEY_RULES or f.rule == DELTA_REJECTED or not _about_symbolic(f, unit)]
    raw += _after_backend_fix(raw, unit, checker)
    kept = [f for f in raw if strict or f.rule not in _KEY_PRESENCE_RULES]
    stale = upgrade.rewrite(kept, facts, checker.base, unit.config, unit.moved_from)  # stale keys, one cause
    out += upgrade.group_not_a_field(stale)
    if Stage.REQUIRED in stages and unit.module:
        out += required_values(unit, facts, merged_config(checker.base or {}, unit.assignments, unit.symbolic))
    return out


@dataclass
class ScriptReading:
    """What :func:`read_script` reads of a script."""

    findings: list[Finding]  # the script's own: its exports, what bash makes of it as a whole
    units: list[Unit]  # its verl commands, to judge
    notes: list[str]  # what could not be known statically
    env: dict[str, tuple[str | None, int]]  # NAME -> (value, line): what it exports, or sets before a command


def read_script(script: Script, facts: Facts, where: Where, config: str | None = None) -> ScriptReading:
    """A script's own findings, its verl commands as units and what could not be known of them."""
    reading = ScriptReading(check_exports(script, where, facts), [], [], script_env(script))
    reading.findings += script_findings(script, where, facts)
    for cmd in script.commands:
        reading.env.update({k: (v, cmd.line) for k, v in cmd.env.items()})
        unit, notes = read_command(cmd, facts, where, reading.env, config)
        if unit is not None:
            reading.units.append(unit)
            reading.notes += notes
    return reading


def judge_script(
    script: Script, facts: Facts, where: Where, device: str | None, stages: Stage, config: str | None = None
) -> list[Finding]:
    """:func:`read_script`'s findings and those of each verl command of the script."""
    reading = read_script(script, facts, where, config)
    out = list(reading.findings)
    for unit in reading.units:
        out += judge(unit, facts, device, stages)
    return out


def _about_symbolic(f: Finding, unit: Unit) -> bool:
    return any(a.path in unit.symbolic and (a.line, a.col) == (f.line, f.col) for a in unit.assignments)


def required_values(unit: Unit, facts: Facts, config: dict) -> list[Finding]:
    """verl's required and enumerated values for a whole command (:mod:`.required_values`), against ``config``, the
    composed config with the command's overrides."""
    from verl_cookbook.checks import required_values as rv

    set_keys = {a.dotted: (a.line, a.col) for a in unit.assignments}
    symbolic = {".".join(k) for k in unit.symbolic}
    memo = facts.session.required_values
    return rv.check(config, set_keys, facts.tree, unit.file, unit.line, symbolic, memo, module=unit.module)


def unknown_config(unit: Unit, facts: Facts) -> Finding:
    """``config/unknown-config`` at a command's ``--config-name`` that verl's config folders do not hold: the configs
    the release has, the last release (or verl's main branch) with the one named; the rest of the command, judged
    against the default config, is folded under it (its ``span``)."""
    from verl_cookbook.facts import history
    from verl_cookbook.rules.config import CONFIG_UNKNOWN_CONFIG

    assert unit.config_at is not None
    file, line, col = unit.config_at
    lines = [line, unit.line, *(a.line for a in unit.assignments)]
    entry = facts.entry_point(unit.module or "") or {}
    folder = facts.config_dir(entry.get("config_name", DEFAULT_CONFIG))
    known: dict[str, Any] = {
        "config": unit.config,
        "release": facts.tree.version or facts.tree.label,
        "offered": [n for n in facts.config_names() if facts.config_dir(n) == folder],  # beside the entry's own
        "span": [min(lines), max(lines)],
    }
    gone = history.gone_config(facts.tree.version, unit.config)
    if gone is None:
        return CONFIG_UNKNOWN_CONFIG.at(file, line, col, case="missing", **known)
    case = "newer" if gone["last"] == "main" else "gone"
    return CONFIG_UNKNOWN_CONFIG.at(file, line, col, fact=gone["source"], case=case, last=gone["last"], **known)


# A backend name verl does not register, and the name the fix tells the user to write instead.
_BACKEND_FIXES = {"hccl": "nccl"}


def _after_backend_fix(found: list[Finding], unit: Unit, checker: ConfigChecker) -> list[Finding]:
    """Every other line that must change once a wrong backend name is corrected: kwargs under
    ``engine_kwargs.<wrong name>`` (ignored after the fix), and what the corrected engine says about them."""
    wrong = {
        f.data["name"]
        for f in found
        if f.rule == ENGINE_UNKNOWN_BACKEND and not f.data.get("as_kwargs_key") and f.data.get("name") in _BACKEND_FIXES
    }
    out: list[Finding] = []
    for name in sorted(wrong):
        good = _BACKEND_FIXES[name]
        fixed: list[Assignment] = []
        for a in unit.assignments:
            path = a.path
            if "checkpoint_engine" in path and path[-1] == "backend" and a.value == name:
                a = Assignment(path, good, a.file, a.line, a.col, op=a.op)
            elif "engine_kwargs" in path and path.index("engine_kwargs") + 1 < len(path):
                k = path.index("engine_kwargs") + 1
                if path[k] == name:
                    new_path = (*path[:k], good, *path[k + 1 :])
                    out.append(
                        ENGINE_KWARGS_IGNORED.at(
                            a.file,
                            a.line,
                            a.col,
                            case="after-fix",
                            path=".".join(path),
                            key=".".join(path),
                            corrected=good,
                            new=".".join(new_path),
                        )
                    )
                    a = Assignment(new_path, a.value, a.file, a.line, a.col, op=a.op)
            fixed.append(a)
        seen = {(f.line, f.rule) for f in found}
        for f in checker.check(fixed, mode="config", delta=True, unknown=unit.symbolic, multirun=unit.multirun):
            if f.rule.startswith("engine/") and (f.line, f.rule) not in seen:
                out.append(f.with_data(corrected=good))
    return out
