"""Shell blocks that are lists of Hydra override fragments (``a.b=1`` per line, no command), what docs write to
say "add these to your command" (``--lenient``): recognised, split into alternative sets where paragraphs set the
same key, and each set judged as the overrides of ``python3 -m verl.trainer.main_ppo`` against the config its keys
fit (as a YAML fragment's is).
"""

from __future__ import annotations

import re

from verl_cookbook.checks import Context
from verl_cookbook.checks.command_line import overrides_to_assignments
from verl_cookbook.checks.launch import SHELL_BLOCK, judge, read_command, script_env
from verl_cookbook.checks.shell_placeholders import ELIDED, PLACEHOLDER
from verl_cookbook.facts import Facts
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import CodeBlock
from verl_cookbook.shell.evaluate import parse_script
from verl_cookbook.shell.model import Command

# `a.b=1`, `+a.b=1`, `~a.b`, or a lower-case group choice such as `model_engine=megatron` (an upper-case
# `NAME=value` is an environment assignment: then the block is a script).
_FRAGMENT = re.compile(r"^([+~]{0,2}[A-Za-z_][\w-]*(\.[\w${}-]+)+(@[\w.]+)?=|~[A-Za-z_][\w.-]*$|[a-z][a-z0-9_]*=)")
_TRAILING_COMMENT = re.compile(r"(^|\s)#.*$")


def _fragment_text(line: str) -> str:
    """A fragment line without its trailing comment and its `\\`."""
    return _TRAILING_COMMENT.sub("", line).strip().rstrip("\\").strip()


def fragment_lines(code: str) -> bool:
    """Whether a block is a list of override fragments (``a.b=1`` per line, no command): what docs write
    to say "add these to your command"."""
    words = []
    for ln in code.split("\n"):
        words.extend(_fragment_text(ln).split())
    words = [w for w in words if w not in (ELIDED, PLACEHOLDER)]
    return bool(words) and all(_FRAGMENT.match(w) for w in words) and any("." in w.split("=")[0] for w in words)


def _fragment_paragraphs(lines: list[str]) -> list[tuple[int, list[str]]]:
    """(first line index, lines) of each override set in a fragment list. Paragraphs (split at blank lines)
    are alternatives ("wrong:" / "right:") when one sets a key another sets too; otherwise they are one
    list written in parts (`model_engine=veomni`, then the veomni settings)."""
    paragraphs: list[tuple[int, list[str]]] = []
    start = 0
    for end in [*(i for i, ln in enumerate(lines) if not ln.strip()), len(lines)]:
        if any(_fragment_text(ln) for ln in lines[start:end]):
            paragraphs.append((start, lines[start:end]))
        start = end + 1
    keys = [
        {w.split("=", 1)[0].lstrip("+~") for ln in part for w in _fragment_text(ln).split()} for _, part in paragraphs
    ]
    alternatives = any(keys[i] & keys[j] for i in range(len(keys)) for j in range(i + 1, len(keys)))
    return paragraphs if alternatives else [(0, lines)]


def check_fragments(code: str, block: CodeBlock, ctx: Context) -> list[Finding]:
    """A fragment list as the overrides of ``python3 -m verl.trainer.main_ppo`` (one command per set)."""
    out = []
    for offset, part in _fragment_paragraphs(code.split("\n")):
        body = "\n".join(_fragment_text(ln) + " \\" for ln in part)
        synthetic = "python3 -m verl.trainer.main_ppo \\\n" + body + "\n"

        def where(code_line: int, offset: int = offset) -> tuple[str, int]:
            return block.where(max(1, code_line - 1 + offset))

        script = parse_script(synthetic)
        for cmd in script.commands:
            if cmd.module == "verl.trainer.main_ppo":
                config = block.attrs.get("config") or _fragment_config(cmd, ctx.facts)
                unit, _notes = read_command(cmd, ctx.facts, where, script_env(script), config)
                if unit is not None:
                    out.extend(judge(unit, ctx.facts, block.attrs.get("device"), SHELL_BLOCK))
    return out


def _fragment_config(cmd: Command, facts: Facts) -> str | None:
    """The primary config an override fragment (no command of its own) is written for, as a YAML fragment's is
    (:func:`~verl_cookbook.checks.config.model.fitting_config`): a list of ``actor_rollout_ref.actor.megatron.*``
    settings is the Megatron half of a command that chose the engine, which Hydra accepts once
    ``model_engine=megatron`` is chosen (or ``--config-name ppo_megatron_trainer``). None (the entry point's own
    config) when the fragment fits ``ppo_trainer`` or makes a config-group choice itself: then Hydra composes that
    choice and the keys are judged on the result. Only plain ``key=value`` overrides are counted (``+`` adds a key,
    ``~`` deletes one)."""
    from verl_cookbook.checks.config.model import fitting_config

    assigns, _findings, info = overrides_to_assignments(cmd, "<fragment>")
    groups = facts.config_groups("ppo_trainer")
    if info["config_name"] or any(len(a.path) == 1 and a.path[0] in groups for a in assigns):
        return None
    paths = [a.path for a in assigns if a.op == "set" and a.path]
    name = fitting_config(facts, paths) if paths else "ppo_trainer"
    return None if name == "ppo_trainer" else name
