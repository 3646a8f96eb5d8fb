"""Validators: one module per kind of snippet or claim.

A code block declares its kind in the fence (``{ .yaml check="config" }``); a table or a stated claim
declares it in an HTML comment (``<!-- check: params engine="nccl" device="npu" -->``). Each kind maps
to one function here; a block that no kind claims is itself a finding.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from verl_cookbook.facts import Facts
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import CodeBlock, Directive, Table
from verl_cookbook.rules.pages import SNIPPET_SKIP_WITHOUT_REASON
from verl_cookbook.session import Session


@dataclass
class Context:
    """What every check receives besides its input: verl's facts, the site root and the run's options."""

    facts: Facts
    root: Path  # the site (or docs) root: includes and schemas resolve against it
    options: dict = field(default_factory=dict)

    @property
    def session(self) -> Session:
        """State shared by the checks of one run (verl files already read, composed configurations)."""
        return self.facts.session


BlockCheck = Callable[[CodeBlock, Context], list[Finding]]
ClaimCheck = Callable[[Directive, Context], list[Finding]]
TableCheck = Callable[[Table, Context], list[Finding]]

# A command inside a shell block, keyed by what it runs (``python -m verl.model_merger`` -> "verl.model_merger",
# ``cmake`` -> "cmake"): (argv, block, code_line, ctx) -> findings. The shell check dispatches to these.
CommandCheck = Callable[[list[str], CodeBlock, int, Context], list[Finding]]
COMMAND_CHECKS: dict[str, CommandCheck] = {}
# the module that registers each command check: a caller that does not load every check (doctor) imports only the
# one a script needs (tests/test_one_judge.py holds that this map and the registrations agree)
COMMAND_CHECK_MODULES = {"cmake": "cmake_options", "git": "stack", "pip": "stack", "verl.model_merger": "merger_cli"}
# commands judged on pages only, not in launch scripts: what they judge is a page's own claim (its release)
PAGE_ONLY_COMMANDS: set[str] = set()

BLOCK_CHECKS: dict[str, BlockCheck] = {}
CLAIM_CHECKS: dict[str, ClaimCheck] = {}
TABLE_CHECKS: dict[str, TableCheck] = {}

# Attributes a fence may carry. Material/superfences' own are accepted and ignored.
COMMON_ATTRS = {"check", "reason", "since", "until", "device", "title", "linenums", "hl_lines", "anchor_linenums"}
# Extra attributes each check kind understands.
KIND_ATTRS: dict[str, set[str]] = {}


def block_check(kind: str, attrs: tuple[str, ...] = ()) -> Callable[[BlockCheck], BlockCheck]:
    """Register the check of ``check="kind"`` blocks. A block or claim check judges what it is given (the code, where
    each line came from, the attributes), never where it sits: its page and line only say where a finding points.
    The runner relies on this: an input found clean on one page is not checked again on another.
    ``attrs`` names the fence attributes the kind accepts besides the common ones.
    """

    def deco(fn: BlockCheck) -> BlockCheck:
        BLOCK_CHECKS[kind] = fn
        KIND_ATTRS[kind] = set(attrs)
        return fn

    return deco


def command_check(name: str, *, page_only: bool = False) -> Callable[[CommandCheck], CommandCheck]:
    """Register the check of a command in a shell block, keyed by what it runs (``cmake``, ``verl.model_merger``);
    ``page_only``: it judges the command against what the page says, so doctor does not run it on a script."""

    def deco(fn: CommandCheck) -> CommandCheck:
        COMMAND_CHECKS[name] = fn
        if page_only:
            PAGE_ONLY_COMMANDS.add(name)
        return fn

    return deco


def command_check_for(name: str | None) -> CommandCheck | None:
    """The check of a command keyed ``name`` (``cmake``, ``verl.model_merger``), its module imported on first use."""
    if name in COMMAND_CHECK_MODULES and name not in COMMAND_CHECKS:
        importlib.import_module(f"{__name__}.{COMMAND_CHECK_MODULES[name]}")
    return COMMAND_CHECKS.get(name) if name else None


def claim_check(kind: str) -> Callable[[ClaimCheck], ClaimCheck]:
    """Register the check of ``<!-- check: kind ... -->`` claims on a page."""

    def deco(fn: ClaimCheck) -> ClaimCheck:
        CLAIM_CHECKS[kind] = fn
        return fn

    return deco


def table_check(kind: str) -> Callable[[TableCheck], TableCheck]:
    """Register the check of tables that carry ``<!-- check: kind ... -->``."""

    def deco(fn: TableCheck) -> TableCheck:
        TABLE_CHECKS[kind] = fn
        return fn

    return deco


def load_all() -> None:
    """Import every validator module so that it registers its kinds."""
    import importlib
    import pkgutil

    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")


@block_check("skip", attrs=())
def _skip(block: CodeBlock, ctx: Context) -> list[Finding]:
    """An explicit opt-out: console output, pseudo-code. It must say why."""
    if not block.attrs.get("reason", "").strip():
        return [SNIPPET_SKIP_WITHOUT_REASON.at(block.page, block.line, block.col)]
    return []
