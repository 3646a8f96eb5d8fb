"""``python -m verl.model_merger …`` inside a shell block, judged against the merger's argparse facts.

The shell check hands over the arguments after the module name (``["merge", "--backend", "fsdp", …]``);
a leading ``python -m verl.model_merger`` (or ``torchrun … -m verl.model_merger``), if still present, is
skipped. Findings: a missing or unknown subcommand, an option the subcommand does not take (with
did-you-mean, and which subcommand takes it if another does), a value outside ``choices``, a required
option left out, an option that needs a value and has none. Each names the page line and verl's line.
"""

from __future__ import annotations

from verl_cookbook.checks import Context, command_check
from verl_cookbook.checks.config.model import closest
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import CodeBlock
from verl_cookbook.rules.scripts import (
    MERGER_ABSENT,
    MERGER_AMBIGUOUS_OPTION,
    MERGER_INVALID_CHOICE,
    MERGER_MISSING_REQUIRED,
    MERGER_MISSING_SUBCOMMAND,
    MERGER_MISSING_VALUE,
    MERGER_UNEXPECTED_ARGUMENT,
    MERGER_UNEXPECTED_VALUE,
    MERGER_UNKNOWN_OPTION,
    MERGER_UNKNOWN_SUBCOMMAND,
)

NAME = "verl.model_merger"
HELP_FLAGS = {"-h", "--help"}


def _locator(block: CodeBlock, code_line: int):
    """Find the page line of a token: the first line from the command's start that contains it."""
    lines = block.code.splitlines()

    def where(token: str | None) -> tuple[str, int, int]:
        if token:
            for n in range(max(code_line, 1), len(lines) + 1):
                col = lines[n - 1].find(token)
                if col >= 0:
                    file, line = block.where(n)
                    return file, line, col + 1
        file, line = block.where(code_line)
        return file, line, 1

    return where


def _strip_prefix(argv: list[str]) -> list[str]:
    if NAME in argv:
        return argv[argv.index(NAME) + 1 :]
    return argv


def _resolve(flag: str, options: dict[str, dict]) -> tuple[str | None, list[str]]:
    """The option ``flag`` names: exact, else a unique prefix (argparse's allow_abbrev); and the candidates."""
    if flag in options:
        return flag, [flag]
    if flag.startswith("--"):
        cands = [f for f in options if f.startswith(flag)]
        if len(cands) == 1:
            return cands[0], cands
        return None, cands
    return None, []


def _is_dynamic(value: str) -> bool:
    return "$" in value or "`" in value


@command_check(NAME)
def check_model_merger(argv: list[str], block: CodeBlock, code_line: int, ctx: Context) -> list[Finding]:
    facts = ctx.facts.family("merger") or {}
    args = [a for a in _strip_prefix(list(argv)) if a not in ("\\", "")]
    where = _locator(block, code_line)
    if not facts:
        file, line, col = where(NAME)
        return [MERGER_ABSENT.at(file, line, col, release=ctx.facts.tree.label, name=NAME)]
    source = facts["source"]
    subcommands: dict[str, dict] = facts.get("subcommands") or {}
    if any(a in HELP_FLAGS for a in args[:1]):
        return []
    options: list[dict] = list(facts.get("options") or [])
    command = None
    rest = args
    if subcommands:
        sub = facts.get("subcommand") or {}
        if not args or args[0].startswith("-"):
            if sub.get("required") and not any(a in HELP_FLAGS for a in args):
                file, line, col = where(NAME)
                return [
                    MERGER_MISSING_SUBCOMMAND.at(
                        file,
                        line,
                        col,
                        fact=f"subcommands: {', '.join(subcommands)}",
                        fact_source=sub.get("source") or source,
                        name=NAME,
                        subcommands=list(subcommands),
                    )
                ]
        else:
            command = args[0]
            rest = args[1:]
            if command not in subcommands:
                file, line, col = where(command)
                return [
                    MERGER_UNKNOWN_SUBCOMMAND.at(
                        file,
                        line,
                        col,
                        fact=f"subcommands: {', '.join(subcommands)}",
                        fact_source=sub.get("source") or source,
                        command=command,
                        name=NAME,
                        suggestion=closest(command, list(subcommands)),
                    )
                ]
            options = options + subcommands[command]["options"]
    by_flag = {f: o for o in options for f in o["flags"] if f.startswith("-")}
    findings: list[Finding] = []
    given: set[str] = set()
    i = 0
    label = f"{NAME} {command}" if command else NAME
    while i < len(rest):
        tok = rest[i]
        i += 1
        if tok in HELP_FLAGS:
            return findings
        if not tok.startswith("-") or tok == "-":
            file, line, col = where(tok)
            findings.append(MERGER_UNEXPECTED_ARGUMENT.at(file, line, col, command=label, arg=tok))
            continue
        flag, _, inline = tok.partition("=")
        resolved, cands = _resolve(flag, by_flag)
        if resolved is None:
            file, line, col = where(flag)
            if len(cands) > 1:
                findings.append(
                    MERGER_AMBIGUOUS_OPTION.at(
                        file, line, col, fact_source=source, flag=flag, command=label, candidates=cands
                    )
                )
                continue
            elsewhere = [
                name
                for name, s in subcommands.items()
                if name != command and any(flag in o["flags"] for o in s["options"])
            ]
            other = next(
                (o for s in subcommands.values() for o in s["options"] if flag in o["flags"]),
                None,
            )
            findings.append(
                MERGER_UNKNOWN_OPTION.at(
                    file,
                    line,
                    col,
                    fact=f"options: {', '.join(sorted(by_flag))}",
                    fact_source=other["source"]
                    if other
                    else (subcommands.get(command or "", {}).get("source") or source),
                    command=label,
                    flag=flag,
                    elsewhere=elsewhere,
                    suggestion=None if elsewhere else closest(flag, list(by_flag)),
                )
            )
            # skip a value that belongs to the unknown option
            if not inline and i < len(rest) and not rest[i].startswith("-"):
                i += 1
            continue
        opt = by_flag[resolved]
        given.add(opt["dest"])
        if not opt["takes_value"]:
            if inline:
                file, line, col = where(tok)
                findings.append(
                    MERGER_UNEXPECTED_VALUE.at(
                        file, line, col, fact_source=opt["source"], flag=resolved, action=opt["action"]
                    )
                )
            continue
        value = inline or None
        if value is None:
            if i < len(rest) and not (rest[i].startswith("-") and rest[i] != "-"):
                value = rest[i]
                i += 1
        if value is None:
            file, line, col = where(flag)
            findings.append(MERGER_MISSING_VALUE.at(file, line, col, fact_source=opt["source"], flag=resolved))
            continue
        choices = opt.get("choices")
        if choices and not _is_dynamic(value) and value not in [str(c) for c in choices]:
            file, line, col = where(value)
            findings.append(
                MERGER_INVALID_CHOICE.at(
                    file,
                    line,
                    col,
                    fact=f"choices: {', '.join(str(c) for c in choices)}",
                    fact_source=opt["source"],
                    flag=resolved,
                    value=value,
                    suggestion=closest(value, [str(c) for c in choices]),
                )
            )
    for opt in options:
        if opt["required"] and not opt["positional"] and opt["dest"] not in given:
            file, line, col = where(NAME if command is None else command)
            findings.append(
                MERGER_MISSING_REQUIRED.at(
                    file,
                    line,
                    col,
                    fact=f"{opt['flags'][0]}: required=True",
                    fact_source=opt["source"],
                    command=label,
                    flag=opt["flags"][0],
                    choices=[str(c) for c in opt.get("choices") or []],
                )
            )
    return findings
