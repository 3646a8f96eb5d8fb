"""What another project's docs write in a shell fence that is not a script as it stands, recognised as text
(``--lenient``): placeholders for the reader to fill in (``<YOUR_KEY>``, ``{version}``, ``...``, ``[other
overrides...]``) turned into unknown shell variables, console transcripts reduced to their commands, and pasted
tracebacks (output, not commands). Lines are kept, so that findings keep the block's line numbers.
"""

from __future__ import annotations

import re

PLACEHOLDER = "${PLACEHOLDER}"  # an unknown shell variable: the reader keeps it as "not known statically"
ELIDED = "${ELIDED}"  # `...` standing for arguments left out
_ANGLE = re.compile(r"(?<![<\w])<([A-Za-z][A-Za-z0-9_ .:/|-]{0,60}(?<! ))>(?![>&])")
_BRACE = re.compile(r"(?<![$\w{])\{([A-Za-z_][A-Za-z0-9_-]*)\}")
_ELLIPSIS = re.compile(r"(?<![^\s=])(\.\.\.|…)(?=\s|$)")
# "SOCKET IFNAME FOR CURRENT NODE": a quoted phrase of capitalised words, to be replaced by the reader
_WORDS_PLACEHOLDER = re.compile(r"([\"'])([A-Z][A-Z0-9_]*(?: [A-Z][A-Z0-9_]*){2,})\1")
_BRACKETED = re.compile(r"\[[^\]\n]*(\.\.\.|…)[^\]\n]*\]")
_TRACEBACK = re.compile(r"^\s*(Traceback \(most recent call last\)|File \"[^\"]*\", line \d+)", re.M)
_PROMPT = re.compile(r"^(\s*)(\$|>>>|\(\S+\)\s*\$|[\w.-]+@[\w.-]+:[^$#\n]*[$#])\s")


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


def lenient_commands(code: str) -> str | None:
    """The commands of a lenient shell block (a transcript's commands, placeholders filled in), or None for a
    traceback pasted in a bash fence (output, not commands)."""
    transcript = transcript_commands(code)
    if transcript is None and _TRACEBACK.search(code):
        return None
    return fill_placeholders(code if transcript is None else transcript)
