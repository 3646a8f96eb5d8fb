"""``--lenient``: check another project's Markdown, which declares no checks, by guessing each block's kind.

The site's own pages declare every check (a guess is never good enough there). verl's README and
docs declare nothing, so ``--lenient`` guesses from the fence language: ``json`` → ``json``,
``bash``/``sh``/``shell``/``console`` → ``shell``, ``python``/``py`` → ``python`` (a block written as a ``>>>``
session is judged as the code its prompts carry, as Sphinx shows it as one), and ``yaml``/``yml`` →
``config`` only when the block's top-level keys are keys of verl's config (at the top, or below one
unique path, which then becomes ``root=``), judged on ``ppo_trainer`` or, when that lacks some of its keys,
on the primary config beside it that lacks the fewest (``config=ppo_megatron_trainer`` for a Megatron
fragment). Anything else, and any guessed kind that is not
implemented, is skipped. A table whose first column lists checkpoint-engine backends (most rows
are registered names) has each of its names checked as a backend.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from verl_cookbook.checks import BLOCK_CHECKS, Context
from verl_cookbook.checks.python_example import interactive_session
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import CodeBlock, Table

LANG_KINDS = {
    "json": "json",
    "bash": "shell",
    "sh": "shell",
    "shell": "shell",
    "console": "shell",
    "python": "python",
    "py": "python",
    "python3": "python",
}
YAML_LANGS = {"yaml", "yml"}
CKPT_BACKEND = ("actor_rollout_ref", "rollout", "checkpoint_engine", "backend")
_NAME = re.compile(r"^`?([a-z][a-z0-9_]*)`?$")


def _config_root(keys: set[str], base: Any, path: tuple[str, ...] = (), found: list | None = None) -> list:
    """Every dotted path in ``base`` whose mapping holds all of ``keys``."""
    found = [] if found is None else found
    if isinstance(base, dict):
        if keys and keys <= set(base):
            found.append(path)
        for k, v in base.items():
            if isinstance(v, dict):
                _config_root(keys, v, (*path, str(k)), found)
    return found


def guess_attrs(block: CodeBlock, ctx: Context) -> dict[str, str] | None:
    """The attributes a lenient run gives an undeclared block (``check=`` and maybe ``root=``), or None to skip."""
    lang = block.lang.lower()
    if lang in YAML_LANGS:
        attrs = _guess_yaml(block, ctx)
    elif lang in LANG_KINDS:
        attrs = {"check": LANG_KINDS[lang]}
        if attrs["check"] == "python" and _python_excerpt(block.code):
            return None
    else:
        return None
    if attrs is None or attrs["check"] not in BLOCK_CHECKS:
        return None  # not a verl config, or a check kind that does not exist (yet)
    return attrs


def _guess_yaml(block: CodeBlock, ctx: Context) -> dict[str, str] | None:
    try:
        data = yaml.safe_load(block.code)
    except yaml.YAMLError:
        data = None
    if not isinstance(data, dict) or not data:
        return None
    if _has_placeholder_key(data):
        return None  # a template (`<engine>:`), not a config to check
    base = ctx.facts.default_config("ppo_trainer")
    if not isinstance(base, dict):
        return None
    keys = {str(k) for k in data}
    roots = _config_root(keys, base)
    if len(roots) != 1:
        return None  # not verl's config, or ambiguous (e.g. `enable: true` fits many places)
    attrs = {"check": "config"}
    if roots[0]:
        attrs["root"] = ".".join(roots[0])
    config = _fitting_config(data, roots[0], base, ctx)
    if config != "ppo_trainer":
        attrs["config"] = config
    return attrs


def _leaf_paths(node: Any, path: tuple[str, ...]) -> list[tuple[str, ...]]:
    if isinstance(node, dict) and node:
        return [p for k, v in node.items() for p in _leaf_paths(v, (*path, str(k)))]
    return [path]


def _fitting_config(data: dict, root: tuple[str, ...], base: dict, ctx: Context) -> str:
    """The primary config this YAML fragment is written for (:func:`~verl_cookbook.checks.config.model.fitting_config`,
    shared with shell override fragments)."""
    from verl_cookbook.checks.config.model import fitting_config

    return fitting_config(ctx.facts, _leaf_paths(data, root), base)


# What Python says of a piece cut out of a larger program (a loop body, a signature without its body):
# an excerpt, not a mistake.
_EXCERPT_ERRORS = (
    "not properly in loop",
    "outside loop",
    "outside function",
    "expected an indented block",
    "unexpected indent",
    "unindent does not match",
)


def _python_excerpt(code: str) -> bool:
    session = interactive_session(code)
    code = session[0] if session is not None else code  # a `>>>` session is judged as the code it carries
    try:
        compile(code, "<snippet>", "exec", dont_inherit=True)  # compiled to find the error, never run
    except SyntaxError as e:
        return any(m in (e.msg or "") for m in _EXCERPT_ERRORS)
    except ValueError:
        return False
    return False


def _has_placeholder_key(node: Any) -> bool:
    if isinstance(node, dict):
        return any(re.fullmatch(r"<[^<>]+>|\{[^{}]+\}", str(k)) or _has_placeholder_key(v) for k, v in node.items())
    if isinstance(node, list):
        return any(_has_placeholder_key(v) for v in node)
    return False


def backend_table_findings(table: Table, ctx: Context) -> list[Finding]:
    """A table listing checkpoint-engine backends in its first column: each name must be registered.

    It is taken for such a table when at least two rows and more than half of them name a registered
    backend; the other names are then checked as ``checkpoint_engine.backend`` values.
    """
    from verl_cookbook.checks.config.checker import ConfigChecker
    from verl_cookbook.checks.config.model import Assignment

    known = set(ctx.facts.backends())
    names: list[tuple[int, str]] = []
    for line, cells in table.rows:
        m = _NAME.match(cells[0].strip()) if cells else None
        if m:
            names.append((line, m.group(1)))
    hits = sum(1 for _, n in names if n in known)
    if hits < 2 or hits * 2 <= len(table.rows):
        return []
    checker = ConfigChecker(ctx.facts)
    out: list[Finding] = []
    for line, name in names:
        if name not in known:
            out.extend(checker.check([Assignment(CKPT_BACKEND, name, table.page, line, 1)]))
    return out
