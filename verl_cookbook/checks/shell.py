"""Shell blocks (``check="shell"``): what a reader pastes into a terminal or a launch script.

1. ``bash -n`` (syntax), then ShellCheck's errors and warnings when ``shellcheck`` is installed;
2. every ``export NAME=value`` against the curated env catalog (HCCL, Mooncake Ascend, CANN): allowed
   values, probable typos of catalogued names, variables whose mere presence switches a feature on,
   variables that conflict or need a companion, and catalogued variables assigned but never exported;
3. Hydra overrides of verl's trainer entry points (``python3 -m verl.trainer.main_ppo …``) with the same
   rules as ``check="config"`` plus Hydra's ``+``/``++``/``~``;
4. other known commands through :data:`verl_cookbook.checks.COMMAND_CHECKS` (``cmake`` here: ``-D`` options
   against Mooncake's CMake options).

Attributes: ``device="npu|gpu"``, ``config="ppo_megatron_trainer"`` (default: the entry point's own, or
``--config-name`` on the command line).
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from typing import Any

from verl_cookbook import catalog, shell_batch
from verl_cookbook.checks import COMMAND_CHECKS, Context, block_check, command_check
from verl_cookbook.checks.command_line import overrides_to_assignments
from verl_cookbook.checks.config.checker import ConfigChecker
from verl_cookbook.checks.config.hydra_apply import entry_point_findings
from verl_cookbook.checks.config.model import did_you_mean
from verl_cookbook.facts import Facts
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import CodeBlock
from verl_cookbook.session import Session
from verl_cookbook.shell.evaluate import parse_script
from verl_cookbook.shell.model import Command, Export, Script

TIMEOUT_S = 10
# ShellCheck codes that flag snippet idioms rather than mistakes: `cd dir` without `|| exit` (SC2164),
# variables set for the processes a snippet starts (SC2034), variables the reader's environment provides
# (SC2154), files sourced from the reader's machine (SC1090/SC1091).
SHELLCHECK_EXCLUDE = ("SC2164", "SC2034", "SC2154", "SC1090", "SC1091")


# -- syntax -----------------------------------------------------------------------------------------


def bash_syntax(code: str, where, session: Session | None = None) -> list[Finding]:
    """``bash -n`` on ``code``; ``where(code_line) -> (file, line)`` maps its error lines. ``session``: the run's,
    whose batch may hold the answer already (``start_batches``)."""
    bash = shutil.which("bash")
    if not bash:
        return []
    done = _batched(session, ("bash", bash, code))
    if done is not None:
        proc = subprocess.CompletedProcess([bash, "-n"], done[0], "", done[1])
    else:
        try:
            proc = subprocess.run([bash, "-n"], input=code, capture_output=True, text=True, timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            file, line = where(1)
            return [Finding(file, line, 1, "shell/timeout", f"`bash -n` did not finish within {TIMEOUT_S} s")]
    if proc.returncode == 0:
        return []
    out = []
    last = max(1, code.count("\n") + (0 if code.endswith("\n") else 1))
    by_line: dict[int, list[str]] = {}
    for msg in proc.stderr.splitlines():
        m = re.search(r"line (\d+): (.*)", msg)
        if m:
            by_line.setdefault(min(int(m.group(1)), last), []).append(m.group(2))  # past the end: EOF errors
    for ln, msgs in by_line.items():
        # bash prints an error and then the offending line (`` `text' ``): one finding says both
        errors = [x for x in msgs if not (x.startswith("`") and x.endswith("'"))]
        quoted = [x[1:-1].strip() for x in msgs if x.startswith("`") and x.endswith("'")]
        text = "; ".join(errors) or "syntax error"
        if quoted:
            text += f" in `{quoted[0]}`"
        file, line = where(ln)
        out.append(Finding(file, line, 1, "shell/syntax", f"bash: {text}"))
    if not out:
        file, line = where(1)
        out.append(Finding(file, line, 1, "shell/syntax", f"bash -n: {proc.stderr.strip() or 'syntax error'}"))
    return out


def shellcheck(code: str, where, severity: str = "warning", session: Session | None = None) -> list[Finding]:
    """ShellCheck's errors and warnings (``severity="error"``: errors only), when it is installed
    (``apt-get install shellcheck``). ``session``: as for :func:`bash_syntax`."""
    exe = shutil.which("shellcheck")
    if not exe:
        return []
    comments = _batched(session, ("shellcheck", exe, severity, code))
    if comments is None:
        cmd = [exe, *_shellcheck_args(severity), "-"]
        try:
            proc = subprocess.run(cmd, input=code, capture_output=True, text=True, timeout=TIMEOUT_S)
            comments = json.loads(proc.stdout or "{}").get("comments", [])
        except (subprocess.TimeoutExpired, json.JSONDecodeError, OSError):
            return []
    out = []
    for c in comments:
        file, line = where(int(c.get("line", 1)))
        code_ = f"SC{c.get('code')}"
        out.append(
            Finding(
                file,
                line,
                int(c.get("column", 1)),
                f"shellcheck/{code_}",
                f"{c.get('message', '')} (https://www.shellcheck.net/wiki/{code_})",
            )
        )
    return out


def _shellcheck_args(severity: str) -> list[str]:
    # --norc: the same comments whether ShellCheck reads a file (batched) or standard input (one by one)
    return ["-s", "bash", "-f", "json1", "-S", severity, "-e", ",".join(SHELLCHECK_EXCLUDE), "--norc"]


# ``bash -n`` and ShellCheck for the shell blocks of a run, one process per tool instead of one per block: started by
# ``start_batches``, their results kept in the run's session (``Session.shell_results``), keyed by tool, executable,
# (severity,) and code; what was started and not yet collected waits in ``Session.shell_pending``.


def _batched(session: Session | None, key: tuple) -> Any:
    if session is None:
        return None
    while session.shell_pending:  # the batch processes ran while the pages without shell blocks were checked
        session.shell_pending.pop(0)()
    return session.shell_results.get(key)


def _pend(session: Session, keys: list[tuple], result: Callable[[], list | None]) -> None:
    """Once ``result`` (a started batch) gives its list, file each item under the key of the same place."""

    def take() -> None:
        for key, res in zip(keys, result() or [], strict=False):
            session.shell_results[key] = res

    session.shell_pending.append(take)


def _planned(block: CodeBlock, ctx: Context) -> tuple[str, str] | None:
    """(code, ShellCheck severity) that ``check_shell`` will give the tools for ``block``, or None."""
    kind = block.attrs.get("check")
    if kind is None and ctx.options.get("lenient"):
        from verl_cookbook import lenient

        kind = lenient.LANG_KINDS.get(block.lang.lower())  # a guess: a block missed is checked alone
    if kind != "shell":
        return None
    if not ctx.options.get("lenient"):
        return block.code, "warning"
    code = _lenient_commands(block.code)
    return None if code is None or fragment_lines(code) else (code, "error")


def start_batches(pages, ctx: Context) -> None:
    """Start ``bash -n`` and ShellCheck once for all the shell blocks of ``pages``; they run while the caller
    checks other pages, and what ``check_shell`` asks next is answered from their output (anything missed or
    failed is still checked one block at a time)."""
    session = ctx.session
    finish_batches(ctx)
    planned = {p for page in pages for b in page.blocks if (p := _planned(b, ctx))}
    codes = sorted({code for code, _ in planned})
    if len(codes) < 2:
        return
    bash = shutil.which("bash")
    if bash and (bash_result := shell_batch.start_bash(codes)):
        _pend(session, [("bash", bash, code) for code in codes], bash_result)
    exe = shutil.which("shellcheck")
    for severity in sorted({sev for _, sev in planned}) if exe else []:
        sc_codes = sorted(code for code, sev in planned if sev == severity)
        if sc_result := shell_batch.start_shellcheck(sc_codes, _shellcheck_args(severity)):
            _pend(session, [("shellcheck", exe, severity, code) for code in sc_codes], sc_result)


def has_shell_blocks(page, ctx: Context) -> bool:
    """Whether ``check_shell`` will ask the batch about a block of ``page`` (its page is then checked last)."""
    return any(_planned(b, ctx) for b in page.blocks)


def finish_batches(ctx: Context) -> None:
    """Wait for what ``start_batches`` started and forget every result (the end of a run)."""
    _batched(ctx.session, ())
    ctx.session.shell_results.clear()


# -- environment -------------------------------------------------------------------------------------


def verl_env_vars(facts: Facts | None) -> dict[str, list[dict]]:
    fam = facts.family("env") if facts is not None else None
    return (fam or {}).get("vars", {}) if isinstance(fam, dict) else {}


def check_exports(script: Script, where, facts: Facts | None = None) -> list[Finding]:
    """Judge every environment assignment in ``script`` against the env catalog (and verl's own reads)."""
    cat = catalog.env_catalog()
    verl_vars = verl_env_vars(facts)
    known = set(cat.vars) | set(cat.other_names) | set(verl_vars)
    allexport = any(c.argv[0] == "set" and ("-a" in c.argv or "allexport" in c.argv) for c in script.commands)
    exported_names = {e.name for e in script.exports if e.exported}
    final: dict[str, Export] = {}
    out: list[Finding] = []
    for e in script.exports:
        file, line = where(e.line)
        loc = (file, line, e.col)
        entry = cat.vars.get(e.name)
        if e.exported:
            final[e.name] = e
        if entry is None:
            prefix = catalog.covered_prefix(e.name)
            if prefix and e.name not in known:
                family_names = [n for n in known if n.startswith(prefix)]
                guess = catalog.probable_typo(e.name, family_names)
                if guess:
                    g = cat.vars.get(guess)
                    out.append(
                        Finding(
                            *loc,
                            "env/unknown-name",
                            f"`{e.name}` is not a known variable; did you mean `{guess}`? The misspelt name is "
                            "silently ignored",
                            fact=(g["meaning"]["en"] if g else None),
                            fact_source=(g["source"] if g else cat.other_names.get(guess)),
                        )
                    )
            continue
        if e.kind == "assign" and not allexport and e.name not in exported_names:
            out.append(
                Finding(
                    *loc,
                    "env/not-exported",
                    f"`{e.name}={e.value}` is set but never exported, so the processes this script starts do not "
                    f"see it; write `export {e.name}=…`",
                    fact_source=entry["source"],
                )
            )
        if e.value is None or e.has_var:
            continue
        spec = entry["value"]
        if spec["type"] == "presence":
            if e.value.strip().lower() in ("0", "false", "off", "no", ""):
                out.append(
                    Finding(
                        *loc,
                        "env/presence-enables",
                        f"`{e.name}={e.value}` turns the feature ON: only whether `{e.name}` is set matters, not "
                        f"its value; unset it (`unset {e.name}`) to keep it off",
                        fact=entry["meaning"]["en"],
                        fact_source=entry.get("presence_source") or entry["source"],
                    )
                )
            continue
        why = catalog.check_value(spec, e.value)
        if why:
            out.append(
                Finding(
                    *loc,
                    "env/invalid-value",
                    f"`{e.name}`: {why}",
                    fact=f"{entry['meaning']['en']} Default: {entry.get('default')}",
                    fact_source=entry["source"],
                )
            )
    out.extend(_cross_checks(final, where, cat))
    return out


def _cross_checks(final: dict[str, Export], where, cat: catalog.EnvCatalog) -> list[Finding]:
    out = []
    for name, e in final.items():
        entry = cat.vars.get(name)
        if not entry or e.value is None or e.has_var:
            continue
        file, line = where(e.line)
        req = entry.get("requires_when")
        if req and e.value == req["value"] and req["name"] not in final:
            out.append(
                Finding(
                    file,
                    line,
                    e.col,
                    "env/requires",
                    f"`{name}={e.value}` needs `{req['name']}` too, and this script does not export it",
                    fact=cat.vars.get(req["name"], {}).get("meaning", {}).get("en"),
                    fact_source=entry["source"],
                )
            )
        for c in entry.get("conflicts", []):
            if "when" in c and e.value != c["when"]:
                continue
            if "when_not" in c and e.value == c["when_not"]:
                continue
            other = final.get(c["name"])
            if other is None or ("value" in c and other.value != c["value"]):
                continue
            out.append(
                Finding(
                    file,
                    line,
                    e.col,
                    "env/conflict",
                    f"`{name}={e.value}` together with `{c['name']}={other.value}`: {c['why']}",
                    fact_source=c.get("source") or entry["source"],
                )
            )
    return out


# -- verl trainer overrides --------------------------------------------------------------------------


def entry_points(facts: Facts) -> dict[str, tuple[str, str]]:
    """module -> (config_name, file:line) for every ``@hydra.main`` entry point of verl (from the facts)."""
    return {m: (ep["config_name"], ep["source"]) for m, ep in facts.entry_points().items()}


def check_trainer_command(cmd: Command, where, facts: Facts, device: str | None, config: str | None) -> list[Finding]:
    assigns, findings, info = overrides_to_assignments(cmd, "<block>")
    for a in assigns:
        a.file, a.line = where(a.line)
    out = [dataclasses.replace(f, path=where(f.line)[0], line=where(f.line)[1]) for f in findings]
    entry = entry_points(facts).get(cmd.module or "")
    name = info["config_name"] or config or (entry[0] if entry else None)
    if name not in facts.config_names():
        return out  # an entry point whose config verl does not generate: only the override syntax is judged
    checker = ConfigChecker(facts, name, device)
    results = checker.check(assigns, mode="config", delta=True)
    symbolic = set(info["symbolic"])
    if any(k.endswith(".backend") for k in symbolic):
        results = [f for f in results if not f.rule.startswith("engine/")]
    if ELIDED in info["opaque"]:
        # `...` in the command may hide `--config-name` or a group choice: keys are not judged missing
        results = [f for f in results if f.rule not in _KEY_PRESENCE_RULES]
    out.extend(results)
    return out


_KEY_PRESENCE_RULES = {"config/unknown-key", "override/needs-plus", "override/group", "config/not-a-mapping"}


def script_findings(script: Script, where, facts: Facts | None) -> list[Finding]:
    """What bash would do with the whole script, beyond single overrides: comment lines that cut a
    ``\\``-continued command short, overrides written after ``| tee`` (they go to tee, not to verl), and
    ``python -m verl.…`` modules that do not exist in this verl. Shared with ``doctor``."""
    out: list[Finding] = []
    for line, start, nxt, word in script.cut_continuations:
        file, ln = where(line)
        out.append(
            Finding(
                file,
                ln,
                1,
                "shell/comment-ends-command",
                f"this comment line ends the command started on line {where(start)[1]}: the `\\` before it joins "
                f"the comment, so `{word}` on line {where(nxt)[1]} and the lines after it are not arguments of "
                "that command (bash runs them as a command of their own)",
            )
        )
    cut_lines = {nxt for _line, _start, nxt, _word in script.cut_continuations}
    assign_lines = [e.line for e in script.exports if e.kind == "assign"]
    for k, cmd in enumerate(script.commands):
        if _OVERRIDE_LIKE.match(cmd.argv[0]) and not cmd.words[0].has_var and cmd.line not in cut_lines:
            prev = script.commands[k - 1] if k else None
            if (
                prev is None
                or _OVERRIDE_LIKE.match(prev.argv[0])
                or max(prev.arg_lines) >= cmd.line
                or any(max(prev.arg_lines) < ln < cmd.line for ln in assign_lines)
            ):
                continue  # overrides written among settings, not after a command that should take them
            file, ln = where(cmd.line)
            out.append(
                Finding(
                    file,
                    ln,
                    cmd.words[0].col,
                    "shell/orphan-overrides",
                    f"`{cmd.argv[0]}` starts a command of its own (bash: 'command not found'): the line before does "
                    "not end with `\\`, so these overrides reach no command",
                )
            )
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
            out.append(
                Finding(
                    file,
                    ln,
                    cmd.words[py + 1].col,
                    "command/missing-dash-m",
                    f"`{prog} {cmd.argv[py + 1]}` runs a file named `{cmd.argv[py + 1]}`, which does not exist; "
                    f"a module is run with `{prog} -m {cmd.argv[py + 1]}`",
                )
            )
        if cmd.piped_from is not None and cmd.module == "tee":
            src = script.commands[cmd.piped_from]
            if not (src.module or "").startswith("verl."):
                continue
            for w in cmd.words[1:]:
                if _OVERRIDE_LIKE.match(w.text):
                    file, ln = where(w.line)
                    out.append(
                        Finding(
                            file,
                            ln,
                            w.col,
                            "shell/after-pipe",
                            f"`{w.text}` comes after `| tee` (line {where(cmd.line)[1]}), so it is a file name for "
                            f"tee, not an override: `{src.module}` never sees it; move it before `| tee`",
                        )
                    )
                    break
        if facts is not None and cmd.module:
            from verl_cookbook.checks import upgrade

            file, ln = where(cmd.module_at[0])
            moved = upgrade.entry_point_findings(facts, cmd.module, file, ln, cmd.module_at[1])
            if moved:
                out.extend(moved)
            elif cmd.module.startswith("verl."):
                out.extend(entry_point_findings(facts, cmd.module, file, ln, cmd.module_at[1]))
    return out


_OVERRIDE_LIKE = re.compile(r"^[+~]{0,2}[A-Za-z_][\w-]*(\.[\w-]+)+=")


# -- cmake -------------------------------------------------------------------------------------------


def _cmake_defines(argv: list[str]) -> list[tuple[int, str, str | None]]:
    """(argv index, NAME, value) for each ``-DNAME[:TYPE]=value`` / ``-D NAME=value``."""
    out = []
    i = 1
    while i < len(argv):
        a = argv[i]
        body = None
        if a == "-D" and i + 1 < len(argv):
            body, idx = argv[i + 1], i + 1
            i += 1
        elif a.startswith("-D") and len(a) > 2:
            body, idx = a[2:], i
        i += 1
        if body is None:
            continue
        name, eq, value = body.partition("=")
        name = name.split(":", 1)[0]
        out.append((idx, name, value if eq else None))
    return out


def _arg_lines(block: CodeBlock, code_line: int, argv: list[str]) -> list[int] | None:
    """Per-argument code lines of the command at ``code_line`` (arguments may be continued over lines)."""
    for cmd in parse_script(block.code).commands:
        if cmd.line == code_line and cmd.argv == argv:
            return cmd.arg_lines
    return None


@command_check("cmake")
def check_cmake(argv: list[str], block: CodeBlock, code_line: int, ctx: Context) -> list[Finding]:
    """``-D`` options of a cmake command against Mooncake's CMake options (and CMake's own variables)."""
    cat = catalog.cmake_catalog()
    options = cat["options"]
    defines = _cmake_defines(argv)
    if not defines:
        return []

    def standard(name: str) -> bool:
        return (
            name in cat.get("standard_names", [])
            or any(name.startswith(p) for p in cat.get("standard_prefixes", []))
            or any(name.endswith(s) for s in cat.get("standard_suffixes", []))
        )

    mooncake = any(name in options for _i, name, _v in defines)
    lines = _arg_lines(block, code_line, argv)
    out = []
    for idx, name, value in defines:
        file, line = block.where(lines[idx] if lines and idx < len(lines) else code_line)
        if name in options:
            opt = options[name]
            if value is not None:
                why = catalog.check_value(opt["value"], value)
                if why:
                    out.append(
                        Finding(
                            file,
                            line,
                            1,
                            "cmake/invalid-value",
                            f"-D{name}: {why}",
                            fact=f'option({name} "{opt["meaning"]["en"]}" {opt["default"]})',
                            fact_source=opt["source"],
                        )
                    )
            continue
        if standard(name):
            continue
        hint = did_you_mean(name, sorted(options))
        if not (mooncake or hint):
            continue  # not evidently a Mooncake build: another project's options are not ours to judge
        out.append(
            Finding(
                file,
                line,
                1,
                "cmake/unknown-option",
                f"-D{name} is not one of Mooncake's CMake options, so CMake ignores it (it only warns about "
                f"an unused variable){hint}",
                fact=f"{len(options)} options in {cat['repository']} @ {cat['commit'][:9]}",
                fact_source=(options[hint.split("`")[1]]["source"] if hint else cat["repository"]),
            )
        )
    return out


# -- the block ---------------------------------------------------------------------------------------


def check_script(
    code: str, where, facts: Facts | None, device: str | None = None, config: str | None = None, block=None, ctx=None
) -> list[Finding]:
    """Everything but syntax: env exports, trainer overrides and known commands. Shared with ``doctor``."""
    script = parse_script(code)
    out = check_exports(script, where, facts)
    out.extend(script_findings(script, where, facts))
    trainers = set(entry_points(facts)) if facts is not None else {"verl.trainer.main_ppo"}
    for cmd in script.commands:
        if cmd.module in trainers and facts is not None:
            out.extend(check_trainer_command(cmd, where, facts, device, config))
        elif cmd.module in COMMAND_CHECKS and block is not None and ctx is not None:
            out.extend(COMMAND_CHECKS[cmd.module](cmd.argv, block, cmd.line, ctx))
    return out


# -- lenient: another project's docs ---------------------------------------------------------------
# Docs write shell blocks that are not scripts: lists of override fragments, placeholders for the reader
# to fill in, console transcripts and tracebacks. ``--lenient`` recognises each, so that only real
# mistakes are reported.

PLACEHOLDER = "${PLACEHOLDER}"  # an unknown shell variable: the reader keeps it as "not known statically"
ELIDED = "${ELIDED}"  # `...` standing for arguments left out
_ANGLE = re.compile(r"(?<![<\w])<([A-Za-z][A-Za-z0-9_ .:/|-]{0,60}(?<! ))>(?![>&])")
_BRACE = re.compile(r"(?<![$\w{])\{([A-Za-z_][A-Za-z0-9_-]*)\}")
_ELLIPSIS = re.compile(r"(?<![^\s=])(\.\.\.|…)(?=\s|$)")
# "SOCKET IFNAME FOR CURRENT NODE": a quoted phrase of capitalised words, to be replaced by the reader
_WORDS_PLACEHOLDER = re.compile(r"([\"'])([A-Z][A-Z0-9_]*(?: [A-Z][A-Z0-9_]*){2,})\1")
_BRACKETED = re.compile(r"\[[^\]\n]*(\.\.\.|…)[^\]\n]*\]")
_TRACEBACK = re.compile(r"^\s*(Traceback \(most recent call last\)|File \"[^\"]*\", line \d+)", re.M)
_ERROR_OUTPUT = re.compile(r"\b[A-Z]\w*(Error|Exception)\b: |^\s*in <module>|^\s*\^+\s*$", re.M)
_PROMPT = re.compile(r"^(\s*)(\$|>>>|\(\S+\)\s*\$|[\w.-]+@[\w.-]+:[^$#\n]*[$#])\s")
# `a.b=1`, `+a.b=1`, `~a.b`, or a lower-case group choice such as `model_engine=megatron` (an upper-case
# `NAME=value` is an environment assignment: then the block is a script).
_FRAGMENT = re.compile(r"^([+~]{0,2}[A-Za-z_][\w-]*(\.[\w${}-]+)+(@[\w.]+)?=|~[A-Za-z_][\w.-]*$|[a-z][a-z0-9_]*=)")
_TRAILING_COMMENT = re.compile(r"(^|\s)#.*$")


def _fragment_text(line: str) -> str:
    """A fragment line without its trailing comment and its `\\`."""
    return _TRAILING_COMMENT.sub("", line).strip().rstrip("\\").strip()


def fill_placeholders(code: str) -> str:
    """``<YOUR_KEY>``, ``{version}``, ``...`` and ``[other overrides...]`` as unknown shell variables (or
    nothing), so that neither bash nor the override checks take them for mistakes. Lines are kept."""
    code = _BRACKETED.sub(ELIDED, code)
    code = _WORDS_PLACEHOLDER.sub(lambda m: m.group(1) + PLACEHOLDER + m.group(1), code)
    code = _ANGLE.sub(PLACEHOLDER, code)
    code = _BRACE.sub(PLACEHOLDER, code)

    def ellipsis(m: re.Match) -> str:
        return PLACEHOLDER if m.start() and m.string[m.start() - 1] == "=" else ELIDED

    return "\n".join(_ELLIPSIS.sub(ellipsis, line) for line in code.split("\n"))


def transcript_commands(code: str) -> str | None:
    """A console transcript (``$ cmd`` lines and their output) as the commands alone, output lines blanked;
    None when no line has a prompt."""
    lines = code.split("\n")
    if not any(_PROMPT.match(ln) for ln in lines):
        return None
    out, cont = [], False
    for ln in lines:
        m = _PROMPT.match(ln)
        if m and not cont:
            ln = ln[m.end() :]
            cont = ln.rstrip().endswith("\\")
            out.append(ln if m.group(2) != ">>>" else "")
        elif cont:
            cont = ln.rstrip().endswith("\\")
            out.append(ln)
        else:
            out.append("")
    return "\n".join(out)


def fragment_lines(code: str) -> bool:
    """Whether a block is a list of override fragments (``a.b=1`` per line, no command): what docs write
    to say "add these to your command"."""
    words = []
    for ln in code.split("\n"):
        words.extend(_fragment_text(ln).split())
    words = [w for w in words if w not in (ELIDED, PLACEHOLDER)]
    return bool(words) and all(_FRAGMENT.match(w) for w in words) and any("." in w.split("=")[0] for w in words)


def _looks_like_python(code: str) -> bool:
    import ast

    try:
        ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    return True


def _lenient_commands(code: str) -> str | None:
    """The commands of a lenient shell block (a transcript's commands, placeholders filled in), or None for a
    traceback pasted in a bash fence (output, not commands)."""
    transcript = transcript_commands(code)
    if transcript is None and _TRACEBACK.search(code):
        return None
    return fill_placeholders(code if transcript is None else transcript)


def check_lenient_shell(block: CodeBlock, ctx: Context) -> list[Finding]:
    """A shell block of another project's docs: output and Python are left alone, fragment lists are
    checked as overrides of ``python3 -m verl.trainer.main_ppo``, placeholders are unknown values."""
    code = _lenient_commands(block.code)
    if code is None:
        return []
    if fragment_lines(code):
        return _check_fragments(code, block, ctx)
    syntax = bash_syntax(code, block.where, ctx.session)
    if syntax:
        # not a script at all: Python, or an error message pasted in a bash fence
        return [] if _looks_like_python(block.code) or _ERROR_OUTPUT.search(block.code) else syntax
    out = [f for f in shellcheck(code, block.where, "error", ctx.session) if f.rule not in _SAID_BETTER]
    out.extend(
        check_script(code, block.where, ctx.facts, block.attrs.get("device"), block.attrs.get("config"), block, ctx)
    )
    return out


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


def _check_fragments(code: str, block: CodeBlock, ctx: Context) -> list[Finding]:
    """A fragment list as the overrides of ``python3 -m verl.trainer.main_ppo`` (one command per set)."""
    out = []
    for offset, part in _fragment_paragraphs(code.split("\n")):
        body = "\n".join(_fragment_text(ln) + " \\" for ln in part)
        synthetic = "python3 -m verl.trainer.main_ppo \\\n" + body + "\n"

        def where(code_line: int, offset: int = offset) -> tuple[str, int]:
            return block.where(max(1, code_line - 1 + offset))

        for cmd in parse_script(synthetic).commands:
            if cmd.module == "verl.trainer.main_ppo":
                config = block.attrs.get("config") or _fragment_config(cmd, ctx.facts)
                out.extend(check_trainer_command(cmd, where, ctx.facts, block.attrs.get("device"), config))
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


# ShellCheck codes that our own rules say more precisely: SC2276 "command name containing '='" is an
# override line that no command receives (shell/orphan-overrides, shell/comment-ends-command).
_SAID_BETTER = {"shellcheck/SC2276"}


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
