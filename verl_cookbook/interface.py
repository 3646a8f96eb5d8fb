"""What every command of verl-cookbook promises, whichever layer writes it: the exit codes, the languages its findings
are written in, and the counted noun its summaries print. Nothing here imports anything, so the command line can
answer ``facts`` without loading the rules."""

from __future__ import annotations

# The exit-code contract of every verl-cookbook command: 3 is a bug in verl-cookbook itself, never the input's fault.
EXIT_OK, EXIT_FINDINGS, EXIT_ERROR, EXIT_INTERNAL = 0, 1, 2, 3

LANGS = ("en", "zh")  # the languages a rule's message is declared in (rules/template.py renders them)


def plural(n: int, noun: str) -> str:
    """``1 page``, ``2 pages``, ``0 findings``: a count with its noun in the right number."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
