"""Hydra overrides on the command line of one of verl's trainer entry points (``python3 -m verl.trainer.main_ppo
…``), judged by the config checker as ``check="config"`` judges YAML, plus Hydra's ``+``/``++``/``~``, against the
config the command composes (``--config-name``, the block's ``config``, or the entry point's own).
"""

from __future__ import annotations

import dataclasses

from verl_cookbook.checks.command_line import overrides_to_assignments
from verl_cookbook.checks.config.checker import ConfigChecker
from verl_cookbook.checks.shell_placeholders import ELIDED
from verl_cookbook.facts import Facts
from verl_cookbook.findings import Finding
from verl_cookbook.rules.config import CONFIG_NOT_A_MAPPING, CONFIG_UNKNOWN_KEY, OVERRIDE_GROUP, OVERRIDE_NEEDS_PLUS
from verl_cookbook.shell.model import Command


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


_KEY_PRESENCE_RULES = {CONFIG_UNKNOWN_KEY, OVERRIDE_NEEDS_PLUS, OVERRIDE_GROUP, CONFIG_NOT_A_MAPPING}
