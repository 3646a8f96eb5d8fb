"""``cmake`` commands in shell blocks (a command check, :data:`verl_cookbook.checks.COMMAND_CHECKS`): each
``-DNAME[:TYPE]=value`` against Mooncake's CMake options and their allowed values, CMake's own variables left
alone, and an unknown option reported only when the command is evidently a Mooncake build or the name is close
to one of Mooncake's.
"""

from __future__ import annotations

from verl_cookbook import catalog
from verl_cookbook.checks import Context, command_check
from verl_cookbook.checks.config.model import closest
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import CodeBlock
from verl_cookbook.rules.scripts import CMAKE_INVALID_VALUE, CMAKE_UNKNOWN_OPTION
from verl_cookbook.shell.evaluate import parse_script


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
                problem = catalog.check_value(opt["value"], value)
                if problem:
                    case, data = problem
                    out.append(
                        CMAKE_INVALID_VALUE.at(
                            file,
                            line,
                            1,
                            fact=f'option({name} "{opt["meaning"]["en"]}" {opt["default"]})',
                            fact_source=opt["source"],
                            case=case,
                            name=name,
                            **data,
                        )
                    )
            continue
        if standard(name):
            continue
        suggestion = closest(name, sorted(options))
        if not (mooncake or suggestion):
            continue  # not evidently a Mooncake build: another project's options are not ours to judge
        out.append(
            CMAKE_UNKNOWN_OPTION.at(
                file,
                line,
                1,
                fact=f"{len(options)} options in {cat['repository']} @ {cat['commit'][:9]}",
                fact_source=(options[suggestion]["source"] if suggestion else cat["repository"]),
                name=name,
                suggestion=suggestion,
            )
        )
    return out
