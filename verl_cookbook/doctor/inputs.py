"""Doctor's inputs: a file read as text (or refused, with why), its kind (shell or YAML), and the units to judge
in it — each verl trainer command of a launch script, or a YAML config — with what could not be known statically."""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from verl_cookbook.checks.config.model import Assignment
from verl_cookbook.facts import Facts
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import MarkdownError, read_text
from verl_cookbook.rules.scripts import SHELL_SYNTAX, SHELL_TIMEOUT, YAML_NOT_A_MAPPING, YAML_SYNTAX

YAML_SUFFIXES = (".yaml", ".yml")
SHELL_SUFFIXES = (".sh", ".bash")
DEFAULT_CONFIG = "ppo_trainer"
EMPTY_NOTE = "empty file: nothing to check"


class InputError(Exception):
    """An input that is not there to be read: no such file, or a folder (exit code 2)."""


class Unreadable(Exception):  # noqa: N818 - named for what the file is
    """A file that cannot be read as text (binary, not UTF-8, too large, no permission): a finding on the file
    (``file/…``, the rules ``check`` reports on such a page), not an error of the command."""

    def __init__(self, e: MarkdownError) -> None:
        super().__init__(str(e))
        self.rule, self.line, self.data = e.rule, e.line, e.data


def read_input(path: Path) -> str:
    """The text of ``path``; :class:`InputError` when it is missing or a folder, :class:`Unreadable` when it
    cannot be read as text."""
    if not path.exists():
        raise InputError("no such file")
    if path.is_dir():
        raise InputError("is a folder; give the launch script or config file itself")
    try:
        return read_text(path)
    except MarkdownError as e:
        raise Unreadable(e) from None


def detect_kind(path: Path, text: str) -> str:
    """ "yaml" or "shell": by suffix, then by shebang, then by whether the text is a YAML mapping."""
    if path.suffix.lower() in YAML_SUFFIXES:
        return "yaml"
    if path.suffix.lower() in SHELL_SUFFIXES or text.startswith("#!"):
        return "shell"
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return "shell"
    if isinstance(node, yaml.MappingNode) and not re.search(r"^\s*(export\s|python|torchrun|ray\s)", text, re.M):
        return "yaml"
    return "shell"


@dataclass
class Unit:
    """One thing to judge: a trainer command of a script, or a YAML config."""

    assignments: list[Assignment]
    findings: list[Finding]
    config: str
    line: int
    note: str | None = None
    symbolic: set[tuple[str, ...]] = field(default_factory=set)  # keys whose value is a shell expansion
    strict: bool = True  # False: the config may hold keys verl's tree does not show (unknown keys not reported)
    module: str | None = None  # the entry point (python -m …); None for a YAML config
    config_at: tuple[int, int] | None = None  # where `--config-name` names a config of verl's own folders


def _entry_config(facts: Facts, module: str) -> str | None:
    """The ``config_name`` of ``@hydra.main`` in verl's module ``module``, if it is an entry point."""
    ep = facts.entry_point(module)
    return ep["config_name"] if ep else None


def script_units(text: str, file: str, facts: Facts) -> tuple[list[Unit], dict, list[Finding], Any, list[str]]:
    """The trainer commands of a launch script, as units to judge; also its environment, the findings about
    the script as a whole (syntax, comment lines that cut a command short, words after ``| tee``, modules
    verl does not have), the parsed script, and notes on what could not be known statically."""
    from verl_cookbook.checks import upgrade
    from verl_cookbook.checks.command_line import overrides_to_assignments
    from verl_cookbook.checks.external_modules import external_modules_note
    from verl_cookbook.checks.script_shape import script_findings
    from verl_cookbook.checks.shell_tools import bash_syntax
    from verl_cookbook.shell.evaluate import parse_script

    script = parse_script(text, file)
    findings = bash_syntax(text, lambda ln: (file, ln))
    if findings and findings[0].rule == SHELL_TIMEOUT:
        findings = []  # `bash -n` could not run: fall back to the reader's own view
    if not findings and shutil.which("bash") is None:
        findings = [
            SHELL_SYNTAX.at(file, ln, col, case=kind, expected=detail, error=detail)
            for ln, col, kind, detail in script.errors
        ]
    findings += script_findings(script, lambda ln: (file, ln), facts)
    notes = [f"line {ln}: {msg}" for ln, msg in script.notes]
    env: dict[str, tuple[str | None, int]] = {}
    for e in script.exports:
        if e.kind == "export" or e.kind == "prefix" or e.exported:
            env[e.name] = (e.value, e.line)
    units: list[Unit] = []
    for cmd in script.commands:
        module = upgrade.replacement(facts, cmd.module or "") or cmd.module or ""  # judged as the replacement
        if not module.startswith("verl."):
            continue
        entry = _entry_config(facts, module)
        if entry is None:
            continue  # not a Hydra entry point of verl (e.g. verl.model_merger), or no such module (reported)
        assigns, fs, info = overrides_to_assignments(cmd, file)
        config = info.get("config_name") or entry
        for name, value in cmd.env.items():
            env[name] = (value, cmd.line)
        symbolic = {tuple(k.split(".")) for k in info.get("symbolic", [])}
        note = None
        if symbolic:
            note = (
                f"line {cmd.line}: {len(symbolic)} override(s) take their value from something not known "
                f"statically ({', '.join(sorted('.'.join(k) for k in symbolic))}): their keys were checked, "
                "not their values"
            )
        opaque = info.get("opaque", [])
        if opaque:
            notes.append(
                f"line {cmd.line}: argument(s) of `{module}` not known statically, not checked: "
                + "; ".join(f"`{a}` ({_why_unknown(a)})" for a in opaque)
            )
        unit = Unit(assigns, fs, config, cmd.module_at[0], note, symbolic, module=module)
        if info.get("config_name") and not info.get("config_path") and not info.get("config_dir"):
            unit.config_at = info.get("config_name_at")
        outside = [g for g in info.get("groups", []) if not _group_option_in_tree(facts, g)]
        if outside:
            unit.strict = False
            notes.append(
                f"line {cmd.line}: {', '.join(f'`{g}`' for g in outside)} chooses a config that verl's config "
                "folders do not hold (a Hydra search-path plugin of another package may provide it): keys under "
                "it are not judged missing"
            )
        plugin = external_modules_note(env, file)
        if plugin:
            unit.strict = False
            notes.append(plugin)
        if cmd.via:
            unit.strict = False
            notes.append(
                f"line {cmd.line}: `{module}` is run through `{cmd.via}`, which may add config groups and keys "
                "of its own: unknown keys and groups are not reported"
            )
        units.append(unit)
    return units, env, findings, script, notes


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


def yaml_unit(text: str, file: str, facts: Facts, config: str = DEFAULT_CONFIG) -> Unit:
    from verl_cookbook.checks.yaml_config import parse_fragment
    from verl_cookbook.markdown import CodeBlock

    base = facts.default_config(config)
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        f = YAML_SYNTAX.at(file, mark.line + 1 if mark else 1, mark.column + 1 if mark else 1, error=problem)
        return Unit([], [f], config, 1)
    if node is None:  # only comments: nothing to check, as for an empty file
        return Unit([], [], config, 1, EMPTY_NOTE)
    if not isinstance(node, yaml.MappingNode):
        line, col = node.start_mark.line + 1, node.start_mark.column + 1
        return Unit([], [YAML_NOT_A_MAPPING.at(file, line, col, case="config")], config, 1)
    # Hydra's own keys are not part of verl's config: blank them out, keeping the line numbers.
    lines = text.splitlines(keepends=True)
    note = None
    for key_node, value_node in node.value:
        if key_node.value in ("defaults", "hydra"):
            for i in range(key_node.start_mark.line, value_node.end_mark.line + 1):
                if i < len(lines) and (i < value_node.end_mark.line or value_node.end_mark.column > 0):
                    lines[i] = "\n"
            if key_node.value == "defaults":
                note = "Hydra `defaults:` list ignored: the file is checked as settings on top of verl's defaults"
    code = "".join(lines)
    block = CodeBlock(
        page=file,
        line=1,
        col=1,
        lang="yaml",
        attrs={},
        info="",
        code=code,
        line_map=[(file, i + 1) for i in range(code.count("\n") + 1)],
    )
    if not code.strip():
        return Unit([], [], config, 1, note)
    assigns, errors, _data = parse_fragment(block, base)
    return Unit(assigns, errors, config, 1, note)
