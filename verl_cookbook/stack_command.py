"""``verl-cookbook stack``: read the ask, find (or, with ``--refresh``, compute) pip's resolution, print the plan.

Exit 0 with a plan, 1 when the combination cannot install (pip's lines quoted) or has no plan, 2 for usage: a bad
option, or a combination the committed resolutions do not hold without ``--refresh``."""

from __future__ import annotations

import argparse
import re
import sys

from packaging.requirements import InvalidRequirement, Requirement

from verl_cookbook import stack_render
from verl_cookbook.interface import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK
from verl_cookbook.stack_plan import build, rejecting
from verl_cookbook.stack_resolve import Ask, compute, recorded


def _usage(message: str) -> int:
    print(f"verl-cookbook stack: error: {message}", file=sys.stderr)
    return EXIT_ERROR


def ask_of(args: argparse.Namespace) -> Ask | str:
    """The ask, or what is wrong with the options."""
    if not re.fullmatch(r"\d+\.\d+\.\d+\S*", args.verl):
        return f"--verl {args.verl!r}: expected a release such as 0.9.1"
    if not re.fullmatch(r"3\.\d+", args.python):
        return f"--python {args.python!r}: expected X.Y, such as 3.11"
    if not re.fullmatch(r"2\.\d+", args.glibc):
        return f"--glibc {args.glibc!r}: expected X.Y, such as 2.35"
    for pin in args.pin:
        try:
            r = Requirement(pin)
        except InvalidRequirement:
            return f"--pin {pin!r}: expected NAME==VERSION"
        if not any(s.operator == "==" for s in r.specifier) or r.marker or r.extras:
            return f"--pin {pin!r}: expected NAME==VERSION"
    extra = {"index_url": args.index_url} if args.index_url else {}
    return Ask(args.verl, args.product, args.python, args.arch, args.glibc, args.backend, tuple(args.pin), args.cann,
               **extra)  # fmt: skip


def run(args: argparse.Namespace) -> int:
    ask = ask_of(args)
    if isinstance(ask, str):
        return _usage(ask)
    record = None if args.refresh else recorded(ask)
    if record is None and not args.refresh:
        return _usage(
            f"no committed resolution for {ask.key} (the covered ones: verl-cookbook's releases on CPython 3.11, "
            f"aarch64, glibc 2.35, no --pin but the guide's own); --refresh resolves it with pip now"
        )
    if record is None:
        try:
            record = compute(ask, log=lambda s: print(s, file=sys.stderr))
        except (OSError, RuntimeError) as e:
            return _usage(f"--refresh: {e}")
    plan = build(ask, record)
    if plan.verdict == "conflict" and ask.pins:
        base = Ask(ask.verl, ask.product, ask.python, ask.arch, ask.glibc, ask.backend, (), ask.cann, ask.index_url)
        plan.pip_says += rejecting(ask, recorded(base))
    render = {"text": stack_render.text, "requirements": stack_render.requirements, "json": stack_render.as_json}
    print(render[args.format](plan))
    return EXIT_OK if plan.verdict == "ok" else EXIT_FINDINGS
