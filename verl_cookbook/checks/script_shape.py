"""Findings about a shell script as bash runs it, beyond any single override: comment lines that cut a
``\\``-continued command short (shell/comment-ends-command), override lines that start a command of their own
(shell/orphan-overrides), overrides written after ``| tee`` (shell/after-pipe), ``python verl.x`` without ``-m``
(command/missing-dash-m), and ``python -m verl.…`` modules that this verl does not have or has moved. Shared by
the shell block check and ``doctor``.
"""

from __future__ import annotations

import os
import re

from verl_cookbook.checks.config.hydra_apply import entry_point_findings
from verl_cookbook.checks.shell_placeholders import ELIDED, PLACEHOLDER
from verl_cookbook.facts import Facts
from verl_cookbook.findings import Finding
from verl_cookbook.rules.config import COMMAND_MISSING_DASH_M
from verl_cookbook.rules.scripts import (
    SHELL_AFTER_PIPE,
    SHELL_COMMENT_ENDS_COMMAND,
    SHELL_ORPHAN_OVERRIDES,
    SHELL_UNSET_COMMAND,
    SHELL_UNSET_VARIABLE,
)
from verl_cookbook.shell.model import Script


def script_findings(script: Script, where, facts: Facts | None) -> list[Finding]:
    """What bash would do with the whole script, beyond single overrides: comment lines that cut a
    ``\\``-continued command short, overrides written after ``| tee`` (they go to tee, not to verl), and
    ``python -m verl.…`` modules that do not exist in this verl. Shared with ``doctor``."""
    out: list[Finding] = []
    for line, start, nxt, word in script.cut_continuations:
        file, ln = where(line)
        out.append(SHELL_COMMENT_ENDS_COMMAND.at(file, ln, 1, start=where(start)[1], word=word, next=where(nxt)[1]))
    for line, col, name, after in script.unset_commands:
        if f"${{{name}}}" in (ELIDED, PLACEHOLDER):
            continue  # a `...` or `<placeholder>` of lenient mode, standing for what the page left out
        file, ln = where(line)
        shown = after if len(after) <= 60 else after[:57] + "…"
        out.append(SHELL_UNSET_COMMAND.at(file, ln, col, name=name, next=shown, case="" if after else "alone"))
    for line, col, name, assigned in script.unset_values:
        file, ln = where(line)
        out.append(SHELL_UNSET_VARIABLE.at(file, ln, col, name=name, assigned=assigned))
    cut_lines = {nxt for _line, _start, nxt, _word in script.cut_continuations}
    assign_lines = [e.line for e in script.exports if e.kind == "assign"]
    for k, cmd in enumerate(script.commands):
        key = _OVERRIDE_LIKE.match(cmd.argv[0])
        # the key written or expanded statically (`"${DATA[@]}"` of overrides); a value bash leaves open changes nothing
        if key and not cmd.words[0].var_in(0, key.end()) and cmd.line not in cut_lines:
            prev = script.commands[k - 1] if k else None
            if (
                prev is None
                or _OVERRIDE_LIKE.match(prev.argv[0])
                or max(prev.arg_lines) >= cmd.line
                or any(max(prev.arg_lines) < ln < cmd.line for ln in assign_lines)
            ):
                continue  # overrides written among settings, not after a command that should take them
            file, ln = where(cmd.line)
            span = [where(prev.line)[1], ln]  # the command cut short and its lost lines: what it lacks is judged later
            out.append(SHELL_ORPHAN_OVERRIDES.at(file, ln, cmd.words[0].col, word=cmd.argv[0], span=span))
            continue
        py = next(
            (
                i
                for i, a in enumerate(cmd.argv[:-1])
                if re.fullmatch(r"python(\d+(\.\d+)?)?", os.path.basename(a))
                and re.fullmatch(r"verl(\.\w+)+", cmd.argv[i + 1])
            ),
            None,
        )
        if py is not None:
            prog = os.path.basename(cmd.argv[py])
            file, ln = where(cmd.words[py + 1].line)
            out.append(COMMAND_MISSING_DASH_M.at(file, ln, cmd.words[py + 1].col, prog=prog, module=cmd.argv[py + 1]))
        if cmd.piped_from is not None and cmd.module == "tee":
            src = script.commands[cmd.piped_from]
            if not (src.module or "").startswith("verl."):
                continue
            for w in cmd.words[1:]:
                if _OVERRIDE_LIKE.match(w.text):
                    file, ln = where(w.line)
                    tee_line = where(cmd.line)[1]
                    out.append(SHELL_AFTER_PIPE.at(file, ln, w.col, word=w.text, line=tee_line, module=src.module))
                    break
        if facts is not None and cmd.module:
            from verl_cookbook.checks import upgrade

            file, ln = where(cmd.module_at[0])
            lines = [ln, *(where(w.line)[1] for w in cmd.words if w.line)]
            span = [min(lines), max(lines)]
            sets = frozenset(w.text.split("=", 1)[0].lstrip("+~") for w in cmd.words if _OVERRIDE_LIKE.match(w.text))
            named = _config_name_flag(cmd.words)
            moved = upgrade.entry_point_findings(facts, cmd.module, file, ln, cmd.module_at[1], span, sets, named)
            if moved:
                out.extend(moved)
            elif cmd.module.startswith("verl."):
                out.extend(entry_point_findings(facts, cmd.module, file, ln, cmd.module_at[1]))
    return out


def _config_name_flag(words: list) -> tuple[str, str] | None:
    """(the flag as written, the config it names) of a command's `--config-name=X` / `--config-name X` / `-cn X`, when
    the command gives no `--config-path`/`--config-dir` (then the name is looked up in the entry point's own folder)."""
    texts = [w.text for w in words]
    if any(t.startswith(("--config-path", "--config-dir", "-cp", "-cd")) for t in texts):
        return None
    for i, t in enumerate(texts):
        if t.startswith("--config-name="):
            return t, t.split("=", 1)[1].removesuffix(".yaml")
        if t in ("--config-name", "-cn") and i + 1 < len(texts):
            return f"{t} {texts[i + 1]}", texts[i + 1].removesuffix(".yaml")
    return None


_OVERRIDE_LIKE = re.compile(r"^[+~]{0,2}[A-Za-z_][\w-]*(\.[\w-]+)+=")
