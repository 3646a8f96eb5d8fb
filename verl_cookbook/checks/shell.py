"""Shell blocks (``check="shell"``): what a reader pastes into a terminal or a launch script.

1. ``bash -n`` (syntax), then ShellCheck's errors and warnings when ``shellcheck`` is installed
   (:mod:`~verl_cookbook.checks.shell_tools`);
2. every ``export NAME=value`` against the curated env catalog (HCCL, Mooncake Ascend, CANN): allowed
   values, probable typos of catalogued names, variables whose mere presence switches a feature on,
   variables that conflict or need a companion, and catalogued variables assigned but never exported
   (:mod:`~verl_cookbook.checks.env_exports`);
3. Hydra overrides of verl's trainer entry points (``python3 -m verl.trainer.main_ppo …``) with the same
   rules as ``check="config"`` plus Hydra's ``+``/``++``/``~``, and what bash makes of the script as a whole:
   the one judge ``doctor`` and lenient fragment lists use too (:mod:`~verl_cookbook.checks.launch`);
4. other known commands through :data:`verl_cookbook.checks.COMMAND_CHECKS` (``cmake`` here: ``-D`` options
   against Mooncake's CMake options, :mod:`~verl_cookbook.checks.cmake_options`).

With ``--lenient`` (another project's docs), placeholders and transcripts are read as commands
(:mod:`~verl_cookbook.checks.shell_placeholders`) and override fragment lists are judged as a trainer command
(:mod:`~verl_cookbook.checks.override_fragments`). This module is the block check itself, which runs them in turn.

Attributes: ``device="npu|gpu"``, ``config="ppo_megatron_trainer"`` (default: the entry point's own, or
``--config-name`` on the command line).
"""

from __future__ import annotations

import re

from verl_cookbook.checks import PAGE_ONLY_COMMANDS, Context, block_check, command_check_for
from verl_cookbook.checks.launch import SHELL_BLOCK, Stage, judge_script
from verl_cookbook.checks.override_fragments import check_fragments, fragment_lines
from verl_cookbook.checks.shell_placeholders import lenient_commands
from verl_cookbook.checks.shell_tools import bash_syntax, shellcheck
from verl_cookbook.facts import Facts
from verl_cookbook.findings import Finding
from verl_cookbook.lenient import short_forms
from verl_cookbook.markdown import CodeBlock
from verl_cookbook.rules.scripts import SHELL_UNSET_VARIABLE, SHELLCHECK_SC
from verl_cookbook.shell.evaluate import parse_script
from verl_cookbook.shell.model import Script

# -- the block ---------------------------------------------------------------------------------------


def check_script(
    code: str,
    where,
    facts: Facts,
    device: str | None = None,
    config: str | None = None,
    block=None,
    ctx=None,
    stages: Stage = SHELL_BLOCK,
) -> list[Finding]:
    """Everything but syntax: the script and its verl commands judged by the one judge (:mod:`.launch`, the
    ``stages`` a shell block asks for), and other known commands (a shell block's, strict or lenient)."""
    script = parse_script(code)
    out = judge_script(script, facts, where, device, stages, config)
    if block is not None and ctx is not None:
        out.extend(known_commands(script, block, ctx))
    return out


def known_commands(script: Script, block: CodeBlock, ctx: Context, *, page: bool = True) -> list[Finding]:
    """The other known commands of a script (``cmake``, ``pip``, ``python -m verl.model_merger``), each judged by its
    check in :data:`verl_cookbook.checks.COMMAND_CHECKS`: a shell block's and, through a block made of the script,
    doctor's (``page=False``: without the checks that judge a page's own claims)."""
    out: list[Finding] = []
    for cmd in script.commands:
        check = command_check_for(cmd.module)
        if check is None or (not page and cmd.module in PAGE_ONLY_COMMANDS):
            continue
        out.extend(check(cmd.argv, block, cmd.line, ctx))
    return out


# -- lenient: another project's docs ---------------------------------------------------------------
# Docs write shell blocks that are not scripts: lists of override fragments, placeholders for the reader
# to fill in, console transcripts and tracebacks. ``--lenient`` recognises each, so that only real
# mistakes are reported.
_ERROR_OUTPUT = re.compile(r"\b[A-Z]\w*(Error|Exception)\b: |^\s*in <module>|^\s*\^+\s*$", re.M)


def _looks_like_python(code: str) -> bool:
    import ast

    try:
        ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    return True


def check_lenient_shell(block: CodeBlock, ctx: Context) -> list[Finding]:
    """A shell block of another project's docs: output and Python are left alone, fragment lists are
    checked as overrides of ``python3 -m verl.trainer.main_ppo``, placeholders are unknown values."""
    code = lenient_commands(block.code)
    if code is None:
        return []
    if fragment_lines(code):
        if short_forms(code, ctx):
            return []  # `actor.fsdp_config.param_offload=True` in an explanation: a name for a setting, not a command
        return check_fragments(code, block, ctx)
    syntax = bash_syntax(code, block.where, ctx.session)
    if syntax:
        # not a script at all: Python, or an error message pasted in a bash fence
        return [] if _looks_like_python(block.code) or _ERROR_OUTPUT.search(block.code) else syntax
    out = [f for f in shellcheck(code, block.where, "error", ctx.session) if f.rule not in _SAID_BETTER]
    found = check_script(code, block.where, ctx.facts, block.attrs.get("device"), block.attrs.get("config"), block, ctx)
    # the blocks of a docs page are one shell session: a variable set in an earlier block (`save_path=…`) is set
    out.extend(f for f in found if f.rule is not SHELL_UNSET_VARIABLE)
    return out


# ShellCheck codes that our own rules say more precisely: SC2276 "command name containing '='" is an
# override line that no command receives (shell/orphan-overrides, shell/comment-ends-command).
_SAID_BETTER = {SHELLCHECK_SC.member("2276")}


@block_check("shell", attrs=("config",))
def check_shell(block: CodeBlock, ctx: Context) -> list[Finding]:
    if ctx.options.get("lenient"):
        return check_lenient_shell(block, ctx)
    syntax = bash_syntax(block.code, block.where, ctx.session)
    if syntax:
        return syntax
    out = [f for f in shellcheck(block.code, block.where, session=ctx.session) if f.rule not in _SAID_BETTER]
    out.extend(
        check_script(
            block.code,
            block.where,
            ctx.facts,
            device=block.attrs.get("device"),
            config=block.attrs.get("config"),
            block=block,
            ctx=ctx,
        )
    )
    return out
