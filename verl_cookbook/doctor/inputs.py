"""Doctor's inputs: a file read as text (or refused, with why), its kind (shell or YAML), and the units to judge
in it — each verl trainer command of a launch script, or a YAML config — with what could not be known statically."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import yaml

from verl_cookbook.checks.launch import Unit
from verl_cookbook.facts import Facts
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import CodeBlock, MarkdownError, read_text
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


def script_units(text: str, file: str, facts: Facts) -> tuple[list[Unit], dict, list[Finding], Any, list[str]]:
    """The trainer commands of a launch script, as units to judge; also its environment, the findings about
    the script as a whole (syntax, its exports, comment lines that cut a command short, words after ``| tee``,
    modules verl does not have), the parsed script, and notes on what could not be known statically. The reading is
    the one every caller shares (:func:`verl_cookbook.checks.launch.read_script`)."""
    from verl_cookbook.checks import Context
    from verl_cookbook.checks.launch import read_script
    from verl_cookbook.checks.shell import known_commands
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
    reading = read_script(script, facts, lambda ln: (file, ln))
    notes = [f"line {ln}: {msg}" for ln, msg in script.notes] + reading.notes + other_entry_points(script, facts)
    commands = known_commands(script, script_block(text, file), Context(facts, Path(file).parent), page=False)
    return reading.units, reading.env, findings + reading.findings + commands, script, notes


def script_block(text: str, file: str) -> CodeBlock:
    """The whole script as one shell block whose lines are the file's, so the command checks a shell block runs
    (the model merger's options, Mooncake's CMake options) report on the script's own lines."""
    n = text.count("\n") + 1
    return CodeBlock(file, 1, 1, "bash", {}, "", text, [(file, line) for line in range(1, n + 1)])


# `key.sub=value`, `+key=…`, `++key=…`, `~key`: a word Hydra reads as an override of a dotted key
_OVERRIDE_WORD = re.compile(r"^(\+{1,2}|~)?[A-Za-z_][\w-]*(\.[\w-]+)+(=|$)")


def other_entry_points(script: Any, facts: Facts) -> list[str]:
    """A note for each command that passes Hydra overrides to a Python module outside verl (a recipe's trainer,
    ``recipe.dapo.main_dapo``): its overrides are judged against nothing, so the note says they were not checked
    rather than let "no verl command" read as if the script had none. A module under ``verl.`` that verl does not
    have is a finding of its own (``upgrade/``)."""
    notes = []
    release = facts.tree.version or facts.tree.label
    for cmd in script.commands:
        module = cmd.module or ""
        if "." not in module or module.split(".")[0] == "verl" or facts.entry_point(module):
            continue
        if _OVERRIDE_WORD.match(cmd.argv[0]):  # overrides run as a command (shell/orphan-overrides), not a program
            continue
        n = sum(bool(_OVERRIDE_WORD.match(w)) for w in cmd.argv[cmd.args_start :])
        if n:
            notes.append(
                f"line {cmd.module_at[0]}: `{module}` is not an entry point of verl {release} (a recipe's or another "
                f"package's trainer): its {n} override(s) were not checked"
            )
    return notes


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
        return Unit([], [f], config, 1, file=file)
    if node is None:  # only comments: nothing to check, as for an empty file
        return Unit([], [], config, 1, EMPTY_NOTE, file=file)
    if not isinstance(node, yaml.MappingNode):
        line, col = node.start_mark.line + 1, node.start_mark.column + 1
        return Unit([], [YAML_NOT_A_MAPPING.at(file, line, col, case="config")], config, 1, file=file)
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
        return Unit([], [], config, 1, note, file=file)
    assigns, errors, _data = parse_fragment(block, base)
    return Unit(assigns, errors, config, 1, note, file=file)
