"""Required and enumerated values, judged statically from what verl's source writes (read, never imported).

The startup stage (verl_cookbook/startup/) runs verl's own checks where verl is at hand; this module catches the
common ones without it:

- a value left at ``???`` (OmegaConf's "missing") that no override sets, outside any section switched off with
  ``enable: false``;
- the micro-batch pairs verl requires exactly one of (``ppo_micro_batch_size`` / ``…_per_gpu``,
  ``log_prob_micro_batch_size`` / ``…_per_gpu``) where the section is in use and dynamic batch size is off —
  each pair is checked only when the statement that enforces it is found in the tree, and cited, and only for an
  entry point whose startup runs ``validate_config`` (:func:`runs_validate_config`): that is where verl checks
  them (the rollout and ref pairs) or builds the actor's and critic's configs that check theirs;
- ``actor_rollout_ref.rollout.name`` outside the names ``_ROLLOUT_REGISTRY`` holds
  (verl/workers/rollout/base.py), the table ``get_rollout_class`` asserts against.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from verl_cookbook.findings import Finding
from verl_cookbook.rules.startup import CONFIG_BOTH_SET, CONFIG_REQUIRED_MISSING, CONFIG_VALUE_NOT_ACCEPTED
from verl_cookbook.verl_source import VerlTree

RULE_MISSING = CONFIG_REQUIRED_MISSING
RULE_BOTH = CONFIG_BOTH_SET
RULE_NOT_ACCEPTED = CONFIG_VALUE_NOT_ACCEPTED
RULES = frozenset({RULE_MISSING, RULE_BOTH, RULE_NOT_ACCEPTED})
MISSING = "???"


@dataclass(frozen=True)
class Pair:
    section: str
    old: str  # deprecated key
    new: str  # the *_per_gpu key
    when: str  # always | ref | critic: when verl checks the pair
    file: str  # where verl enforces it
    match: str  # text of the enforcing statement, to find (and cite) its line
    both: str = ""  # text of the statement that rejects both keys set, where it is not ``match``'s


PAIRS = (
    Pair(
        "actor_rollout_ref.actor",
        "ppo_micro_batch_size",
        "ppo_micro_batch_size_per_gpu",
        "always",
        "verl/workers/config/actor.py",
        "Please set at least one of 'actor.ppo_micro_batch_size'",
        "You have set both 'actor.ppo_micro_batch_size' AND",
    ),
    Pair(
        "actor_rollout_ref.rollout",
        "log_prob_micro_batch_size",
        "log_prob_micro_batch_size_per_gpu",
        "always",
        "verl/utils/config.py",
        '"actor_rollout_ref.rollout",',
    ),
    Pair(
        "actor_rollout_ref.ref",
        "log_prob_micro_batch_size",
        "log_prob_micro_batch_size_per_gpu",
        "ref",
        "verl/utils/config.py",
        '"actor_rollout_ref.ref",',
    ),
    Pair(
        "critic",
        "ppo_micro_batch_size",
        "ppo_micro_batch_size_per_gpu",
        "critic",
        "verl/workers/config/critic.py",
        "self._check_mutually_exclusive(self.ppo_micro_batch_size, self.ppo_micro_batch_size_per_gpu",
    ),
)


# Entry points whose startup calls verl's validate_config (verl/utils/config.py), read in verl 0.9.1:
# - verl.trainer.main_ppo: main() calls it before run_ppo (verl/trainer/main_ppo.py:177);
# - verl.experimental.one_step_off_policy.main_ppo: its task runner calls it before building the workers
#   (verl/experimental/one_step_off_policy/main_ppo.py:52);
# and these never do, so the pairs are not checked at their startup:
# - verl.experimental.fully_async_policy.fully_async_main: main() (fully_async_main.py:223-239) migrates legacy keys
#   and calls run_ppo with FullyAsyncTaskRunner; the only *validate_config there is the rollouter's own
#   _validate_config (fully_async_rollouter.py:729), which checks async settings;
# - verl.trainer.main_generation_server (main, :123-173): reads rollout and model fields and starts rollout servers;
# - verl.trainer.sft_trainer(_ray) (sft_trainer.py:462, sft_trainer_ray.py:389): SFT config, converted with
#   omega_conf_to_dataclass (:139-145 / :88-94); verl.trainer.main_eval (main_eval.py:42).
# Also true of 0.7.1-0.9.0 (and 0.8.0's main_ppo_sync.py:1856). Used when the entry point's file is not in the tree
# at hand (what ships of a release); otherwise the file itself is read.
VALIDATING_ENTRY_POINTS = frozenset(
    {"verl.trainer.main_ppo", "verl.experimental.one_step_off_policy.main_ppo", "verl.trainer.main_ppo_sync"}
)
_VALIDATE_CALL = re.compile(r"^(?!\s*def\s)[^#\n]*(?<![\w.])validate_config\(", re.MULTILINE)


def runs_validate_config(tree: VerlTree, module: str, memo: dict[tuple, Any] | None = None) -> bool:
    """Whether the entry point ``module`` (``verl.trainer.main_ppo``) calls ``validate_config`` in its own file
    (its ``main`` or the task runner it defines); :data:`VALIDATING_ENTRY_POINTS` when that file is not readable."""
    key = ("validates", str(tree.root), module)
    if memo is not None and key in memo:
        return memo[key]
    try:
        found = bool(_VALIDATE_CALL.search(tree.read(module.replace(".", "/") + ".py")))
    except (OSError, ValueError):
        found = module in VALIDATING_ENTRY_POINTS
    if memo is not None:
        memo[key] = found
    return found


def _line_of(tree: VerlTree, rel: str, match: str, memo: dict[tuple, Any] | None = None) -> int | None:
    """The first line of verl's file ``rel`` that holds ``match``, or None; kept in ``memo`` (the run's
    :attr:`~verl_cookbook.session.Session.required_values`) when given."""
    key = ("line_of", str(tree.root), rel, match)
    if memo is not None and key in memo:
        return memo[key]
    found = _find_line(tree, rel, match)
    if memo is not None:
        memo[key] = found
    return found


def _find_line(tree: VerlTree, rel: str, match: str) -> int | None:
    try:
        text = tree.read(rel)
    except OSError:
        return None
    for i, line in enumerate(text.splitlines(), 1):
        if match in line:
            return i
    return None


def rollout_names(tree: VerlTree, memo: dict[tuple, Any] | None = None) -> tuple[frozenset[str], str] | None:
    """The names in ``_ROLLOUT_REGISTRY`` (first element of each key) and where it is written, or None; kept in
    ``memo`` (the run's :attr:`~verl_cookbook.session.Session.required_values`) when given."""
    key = ("rollout_names", str(tree.root))
    if memo is not None and key in memo:
        return memo[key]
    found = _rollout_names(tree)
    if memo is not None:
        memo[key] = found
    return found


def _rollout_names(tree: VerlTree) -> tuple[frozenset[str], str] | None:
    rel = "verl/workers/rollout/base.py"
    try:
        mod = ast.parse(tree.read(rel))
    except (OSError, SyntaxError):
        return None
    for node in mod.body:
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        if isinstance(node, ast.Assign | ast.AnnAssign) and any(
            isinstance(t, ast.Name) and t.id == "_ROLLOUT_REGISTRY" for t in targets
        ):
            value = node.value
            if not isinstance(value, ast.Dict):
                return None
            names = set()
            for k in value.keys:
                if isinstance(k, ast.Tuple) and k.elts and isinstance(k.elts[0], ast.Constant):
                    names.add(str(k.elts[0].value))
                elif isinstance(k, ast.Constant):
                    names.add(str(k.value))
            return frozenset(names), f"{rel}:{node.lineno}"
    return None


def _get(config: Any, dotted: str) -> Any:
    node = config
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def _truthy(v: Any) -> bool:
    return v is True or (isinstance(v, str) and v.lower() == "true")


def _missing_keys(node: Any, prefix: str = "") -> Iterable[str]:
    if not isinstance(node, dict):
        return
    if "enable" in node and node.get("enable") in (False, "false", "False"):
        return  # a section switched off: verl does not read it
    for k, v in node.items():
        path = f"{prefix}.{k}" if prefix else str(k)
        if v == MISSING:
            yield path
        elif isinstance(v, dict):
            yield from _missing_keys(v, path)


def check(
    config: dict,
    set_keys: dict[str, tuple[int, int]],
    tree: VerlTree,
    file: str,
    command_line: int,
    symbolic: set[str] | frozenset[str] = frozenset(),
    memo: dict[tuple, Any] | None = None,
    module: str | None = None,
) -> list[Finding]:
    """Findings for one trainer command. ``config`` is the composed config with the command's overrides merged;
    ``set_keys`` maps each dotted key an override sets (or deletes) to its (line, col); ``symbolic`` the keys set
    from a shell value not known statically (never judged); ``memo``: what was read from verl's files in this run
    (the run's :attr:`~verl_cookbook.session.Session.required_values`); ``module``: the entry point the command runs
    (the micro-batch pairs apply only when it runs ``validate_config``; None: judged as ``verl.trainer.main_ppo``)."""
    out: list[Finding] = []
    for key in _missing_keys(config):
        if key in set_keys or key in symbolic:
            continue
        out.append(RULE_MISSING.at(file, command_line, 1, fact=f"{key}: ???", key=key))
    use_kl = _truthy(_get(config, "actor_rollout_ref.actor.use_kl_loss")) or _truthy(
        _get(config, "algorithm.use_kl_in_reward")
    )
    critic_enable = _get(config, "critic.enable")
    need_critic = (
        _truthy(critic_enable)
        if critic_enable not in (None, "null")
        else _get(config, "algorithm.adv_estimator") == "gae"
    )
    actor_dynamic = _truthy(_get(config, "actor_rollout_ref.actor.use_dynamic_bsz"))
    validated = runs_validate_config(tree, module or "verl.trainer.main_ppo", memo)
    for pair in PAIRS if validated else ():
        if pair.when == "ref" and not use_kl or pair.when == "critic" and not need_critic:
            continue
        section = _get(config, pair.section)
        if not isinstance(section, dict) or pair.old not in section or pair.new not in section:
            continue
        dynamic = _truthy(section.get("use_dynamic_bsz")) if pair.section == "critic" else actor_dynamic
        if dynamic:
            continue
        line = _line_of(tree, pair.file, pair.match, memo)
        if line is None:
            continue  # this release does not enforce the pair where we look: say nothing
        old_k, new_k = f"{pair.section}.{pair.old}", f"{pair.section}.{pair.new}"
        if {old_k, new_k} & set(symbolic):
            continue
        old_v, new_v = section.get(pair.old), section.get(pair.new)
        cite = f"{pair.file}:{line}"
        if old_v in (None, "null") and new_v in (None, "null"):
            out.append(
                RULE_MISSING.at(
                    file,
                    command_line,
                    1,
                    fact=f"one of {pair.old} / {pair.new} must be set",
                    fact_source=cite,
                    case="pair",
                    new=new_k,
                    old=old_k,
                )
            )
        elif old_v not in (None, "null") and new_v not in (None, "null"):
            line_old = set_keys.get(old_k, (command_line, 1))
            both_line = _line_of(tree, pair.file, pair.both, memo) if pair.both else line
            cite = f"{pair.file}:{both_line or line}"
            out.append(
                RULE_BOTH.at(
                    file,
                    line_old[0],
                    line_old[1],
                    fact=f"only one of {pair.old} / {pair.new} may be set",
                    fact_source=cite,
                    old=old_k,
                    new=new_k,
                    old_name=pair.old,
                )
            )
    name = _get(config, "actor_rollout_ref.rollout.name")
    known = rollout_names(tree, memo)
    key = "actor_rollout_ref.rollout.name"
    if known and isinstance(name, str) and name != MISSING and key not in symbolic and "${" not in name:
        names, cite = known
        if name not in names:
            line, col = set_keys.get(key, (command_line, 1))
            out.append(
                RULE_NOT_ACCEPTED.at(
                    file,
                    line,
                    col,
                    fact=f"_ROLLOUT_REGISTRY names: {', '.join(sorted(names))}",
                    fact_source=cite,
                    name=name,
                    known=sorted(names),
                )
            )
    return out
