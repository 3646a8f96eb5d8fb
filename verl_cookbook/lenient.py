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

Before a guess, a block is read as its readers read it (:mod:`verl_cookbook.block_reading`): a ``bash`` block that
shows a program's output (a log, a traceback, ``--help`` text, a banner) is not a script and a ``python`` block that
is an excerpt (``...``, ``<<<continue>>>``, a prototype, a data sample, pseudo-code) is not a module: neither is
checked, and a block tagged with the wrong language gets one ``lenient/wrong-language`` note (info). A ``python``
block that holds a shell command is checked as one.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from verl_cookbook.block_reading import Reading, python_excerpt, shell_output
from verl_cookbook.checks import BLOCK_CHECKS, Context
from verl_cookbook.checks.python_example import interactive_session
from verl_cookbook.checks.shell_placeholders import transcript_commands
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import CodeBlock, Table
from verl_cookbook.rules.lenient import LENIENT_WRONG_LANGUAGE
from verl_cookbook.rules.scripts import SHELLCHECK_SC

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


def read_block(block: CodeBlock, ctx: Context) -> tuple[dict[str, str] | None, list[Finding]]:
    """How a lenient run takes an undeclared block: the attributes it is checked with (``check=`` and maybe
    ``root=``; None: not checked) and the note it draws when its fence names the wrong language."""
    reading = _reading(block.code, block.lang.lower())
    if reading is None:
        return guess_attrs(block, ctx), []
    notes = [_wrong_language(block, reading)] if reading.what else []
    if reading.kind == "shell":
        return ({"check": "shell"} if "shell" in BLOCK_CHECKS else None), notes
    if reading.kind == "transcript":
        return guess_attrs(block, ctx), notes  # the commands after the prompts are checked
    return None, notes  # output or an excerpt: nothing to run


def _reading(code: str, lang: str) -> Reading | None:
    """What a ``bash``/``python`` block shows when it is not a script or a module (see :mod:`block_reading`); a
    reading with an empty ``what`` is not reported (output under ``console``, an excerpt)."""
    if LANG_KINDS.get(lang) == "shell":
        commands = transcript_commands(code)
        if commands is not None:  # `$ cmd` lines: their commands are checked; the lines they printed are output
            printed = next(
                (
                    i
                    for i, (a, b) in enumerate(zip(code.split("\n"), commands.split("\n"), strict=False), 1)
                    if a.strip() and not b.strip()
                ),
                0,
            )
            return Reading("transcript", "transcript" if printed and lang != "console" else "", printed or 1)
        out = shell_output(code)
        if out is None or lang == "console":
            return None if out is None else Reading(out.kind, "", out.line)
        return out
    if LANG_KINDS.get(lang) == "python":
        session = interactive_session(code)
        reading = python_excerpt(session[0] if session is not None else code)
        if reading is not None and reading.kind == "excerpt":
            return Reading(reading.kind, "", reading.line)
        return reading
    return None


_TAGS = {"output": "text", "shell": "bash", "transcript": "console"}


def _wrong_language(block: CodeBlock, reading: Reading) -> Finding:
    file, line = block.page, block.line
    case = "" if reading.what == "text" else reading.what
    return LENIENT_WRONG_LANGUAGE.at(file, line, block.col, case=case, lang=block.lang, tag=_TAGS[reading.kind])


def guess_attrs(block: CodeBlock, ctx: Context) -> dict[str, str] | None:
    """The attributes a lenient run gives an undeclared block (``check=`` and maybe ``root=``), or None to skip."""
    lang = block.lang.lower()
    if lang in YAML_LANGS:
        attrs = _guess_yaml(block, ctx)
    elif lang in LANG_KINDS:
        attrs = {"check": LANG_KINDS[lang]}
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


# -- short forms in an explanation ----------------------------------------------------------------------------------
# A block such as ``actor.fsdp_config.param_offload=True`` under "If using:" names a setting by the end of its path,
# as prose does: ``actor.`` is no key at the top of verl's config, and never was (an older release's key, such as
# ``ray_init.timeline_json_file``, is a stale override, not a short form, and is still reported).
_FRAGMENT_KEY = re.compile(r"^[+~]{0,2}([A-Za-z_][\w.-]*)(=|$)")


def short_forms(code: str, ctx: Context) -> bool:
    """Whether every override of a fragment list names a key by a short form: its first part is not a key at the
    top of verl's ``ppo_trainer`` config and was not in any older release's (``data/key_moves.json``), and exactly
    one key of the config ends with the whole written path (``actor.fsdp_config.param_offload`` is
    ``actor_rollout_ref.actor.fsdp_config.param_offload``)."""
    from verl_cookbook.checks.upgrade import stale_keys

    base = ctx.facts.default_config("ppo_trainer")
    if not isinstance(base, dict):
        return False
    keys = []
    for word in code.split():
        m = _FRAGMENT_KEY.match(word)
        if m is None or word.startswith("$"):
            continue
        keys.append(m.group(1))
    if not keys:
        return False
    stale = stale_keys(ctx.facts.tree.version)
    paths = [".".join(p) for p in _leaf_paths(base, ())]
    for key in keys:
        first = key.split(".", 1)[0]
        if first in base or "." not in key or any(s == first or s.startswith(first + ".") for s in stale):
            return False
        if sum(1 for p in paths if p.endswith("." + key)) != 1:
            return False
    return True


# ShellCheck's advice on quoting (SC2086 "double quote to prevent globbing and word splitting" and its family): style
# for a launch script, and off for another project's docs (`--lenient`) unless `--select` names it (a code or a
# prefix such as `shellcheck/SC2068`; `ALL` does not).
QUOTING_ADVICE = tuple(
    SHELLCHECK_SC.member(n) for n in ("2086", "2046", "2068", "2048", "2206", "2207", "2145", "2089", "2090")
)
