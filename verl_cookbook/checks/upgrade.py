"""A script written for an older verl, read as an upgrade: what to change to run it on the target release.

- an entry point verl removed or moved (``verl.trainer.fsdp_sft_trainer``, ``recipe.fully_async_policy.…``) gives
  one finding naming its replacement, and the rest of the command is judged against the replacement's config;
- a key an older release had and the target lacks says where it moved, or that it was removed, and in which release
  (``data/key_moves.json``, derived from the releases' generated configs by ``scripts/build_key_moves.py``); Hydra's
  own "To append to your config use +…" never reaches the user: ``+`` is the wrong fix for a stale key;
- one cause, one finding: the keys under a section the target's config does not have are reported once, at the
  first one's line, with their count and lines; each key's own finding is folded under it (``verl_cookbook.folding``:
  shown once, every one kept for tools). When another option of a config group the release has would bring the
  section (``actor_rollout_ref.actor.megatron.*`` comes with ``model_engine=megatron``), the finding names that choice:
  Hydra composes the config with each option to see.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

from verl_cookbook.facts import Facts, compose
from verl_cookbook.findings import Finding
from verl_cookbook.rules import Rule
from verl_cookbook.rules.config import CONFIG_NOT_A_FIELD, CONFIG_NOT_A_FIELD_GROUP, CONFIG_UNKNOWN_KEY
from verl_cookbook.rules.upgrade import (
    CONFIG_UNKNOWN_SECTION,
    UPGRADE_ENTRY_POINT_MOVED,
    UPGRADE_KEY_MOVED,
    UPGRADE_KEY_REMOVED,
)

KEY_MOVES = Path(__file__).resolve().parent.parent / "data" / "key_moves.json"

# Entry points verl removed, with what replaced them and where the release history says so (git history of
# github.com/verl-project/verl; the release is the first tag that contains the commit).
MOVED_ENTRY_POINTS: dict[str, tuple[str, str, str]] = {
    "verl.trainer.fsdp_sft_trainer": (
        "verl.trainer.sft_trainer",
        "0.7.1",
        "commit 4c8101dd2 (#5382) removes verl/trainer/fsdp_sft_trainer.py, 'deprecated by sft_trainer.py'",
    ),
    "verl.trainer.main_generation": (
        "verl.trainer.main_generation_server",
        "0.7.1",
        "commit 4c8101dd2 (#5382) removes verl/trainer/main_generation.py, 'deprecated by main_generation_server.py'",
    ),
    "recipe.fully_async_policy.fully_async_main": (
        "verl.experimental.fully_async_policy.fully_async_main",
        "0.7.1",
        "commit 2bb42bae6 (#4795) moves recipe/fully_async_policy to verl/experimental/fully_async_policy",
    ),
    "recipe.one_step_off_policy.main_ppo": (
        "verl.experimental.one_step_off_policy.main_ppo",
        "0.7.1",
        "commit 2bb42bae6 (#4795) moves recipe/one_step_off_policy to verl/experimental/one_step_off_policy",
    ),
    "verl.trainer.main_ppo_sync": (
        "verl.trainer.main_ppo",
        "0.9.0",
        "commit 45632b5fa (#6710) folds verl/trainer/main_ppo_sync.py into main_ppo's trainer abstraction",
    ),
    # TransferQueue's own trainer: recipe/transfer_queue (v0.6.1, v0.7.0), then verl/experimental/transfer_queue on
    # the main branch; #5454 retired it, and main_ppo runs TransferQueue when `transfer_queue.enable` is true
    "recipe.transfer_queue.main_ppo": (
        "verl.trainer.main_ppo",
        "0.7.1",
        "commit 0088193ac (#4795) moves recipe/transfer_queue to verl/experimental/transfer_queue; commit d4afed3b5 "
        "(#5454) retires it ('retire legacy integration codes')",
    ),
    "verl.experimental.transfer_queue.main_ppo": (
        "verl.trainer.main_ppo",
        "0.7.1",
        "commit d4afed3b5 (#5454) removes verl/experimental/transfer_queue ('retire legacy integration codes'); "
        "verl.trainer.main_ppo runs TransferQueue when `transfer_queue.enable` is true",
    ),
}

# A replacement that does the removed entry point's work only where its config has this key (TransferQueue came back
# as a section of the trainer config): a release without it has no replacement, and gets no guess either.
REPLACEMENT_NEEDS: dict[str, str] = {
    "recipe.transfer_queue.main_ppo": "transfer_queue.enable",
    "verl.experimental.transfer_queue.main_ppo": "transfer_queue.enable",
}

# What a removed entry point read from its own config, and where its replacement reads the same value: old key (or
# ``prefix.``) -> (new key or prefix, the two reads that prove it). A new key starting with ``+`` is one the
# replacement reads that its config does not declare (Hydra needs ``+`` to add it).
_GEN_OLD = "verl/trainer/main_generation.py at v0.7.0"
_GEN_NEW = "verl/trainer/main_generation_server.py in verl 0.9.1"
ENTRY_POINT_KEYS: dict[str, dict[str, tuple[str, str]]] = {
    "verl.trainer.main_generation": {
        "data.path": ("data.train_files", f"{_GEN_OLD}:76 reads the prompts from `data.path`, {_GEN_NEW}:144 from "
                      "`data.train_files`"),
        "data.n_samples": ("actor_rollout_ref.rollout.n", f"{_GEN_OLD}:125 samples each prompt `data.n_samples` "
                           f"times, {_GEN_NEW}:129 `actor_rollout_ref.rollout.n` times"),
        "data.output_path": ("+data.output_path", f"{_GEN_OLD}:150 and {_GEN_NEW}:189 both write to "
                             "`data.output_path`, which the `ppo_trainer` config does not declare"),
        "model.path": ("actor_rollout_ref.model.path", f"{_GEN_OLD}:67 loads `model.path`, {_GEN_NEW}:44,166 serve "
                       "`actor_rollout_ref.model.path`"),
        "rollout.": ("actor_rollout_ref.rollout.", "`rollout` in verl/trainer/config/generation.yaml:17 at v0.7.0 and "
                     "`actor_rollout_ref.rollout` in verl/trainer/config/_generated_ppo_trainer.yaml:292 in verl 0.9.1 "
                     f"are both built into `verl.workers.config.RolloutConfig`; {_GEN_NEW}:43 serves the latter"),
    },
}  # fmt: skip

# Defaults of a removed entry point's config that its replacement's config leaves required (``???``): a command
# that did not set them ran with these, and carries them over as overrides (key, value, where the default is).
_TQ_ON = (
    "transfer_queue.enable",
    "true",
    "verl/experimental/transfer_queue/config/transfer_queue_ppo_trainer.yaml before commit d4afed3b5: "
    "`transfer_queue: enable: True`; verl.trainer.main_ppo's config leaves it false",
)
ENTRY_POINT_DEFAULTS: dict[str, list[tuple[str, str, str]]] = {
    "verl.trainer.main_generation": [
        ("actor_rollout_ref.rollout.name", "vllm", "verl/trainer/config/generation.yaml:18 at v0.7.0: `name: vllm`")
    ],
    "recipe.transfer_queue.main_ppo": [_TQ_ON],
    "verl.experimental.transfer_queue.main_ppo": [_TQ_ON],
}


def entry_point_key(module: str | None, key: str) -> tuple[str, str] | None:
    """(new key, fact) for ``key`` of a command that ran the removed entry point ``module``."""
    for old, (new, fact) in ENTRY_POINT_KEYS.get(module or "", {}).items():
        if key == old:
            return new, fact
        if old.endswith(".") and key.startswith(old):
            return new + key[len(old) :], fact
    return None


# Keys no generated config of a covered release ever had at the written place, with where verl keeps them; each
# with the source that shows the right place (a user's key in the wrong section, common in older scripts).
HAND_MOVES: dict[str, tuple[str, str]] = {
    "train_batch_size": (
        "data.train_batch_size",
        "verl/trainer/config/ppo_trainer.yaml at v0.1 (line 8) and every release since keep it under `data`",
    ),
    "actor_rollout_ref.rollout.test_freq": (
        "trainer.test_freq",
        "verl/trainer/config/ppo_trainer.yaml at v0.2 (line 170) and every release since keep it under `trainer`",
    ),
    "rollout.test_freq": (
        "trainer.test_freq",
        "verl/trainer/config/ppo_trainer.yaml at v0.2 (line 170) and every release since keep it under `trainer`",
    ),
}

_HYDRA_PLUS_HINT = re.compile(r"\s*To append to your config use \+\S+")


def replacement(facts: Facts, module: str) -> str | None:
    """The entry point of the target release that replaced ``module``, when verl removed it and the target has it."""
    moved = MOVED_ENTRY_POINTS.get(module)
    if moved is None or facts.entry_point(module):
        return None
    ep = facts.entry_point(moved[0])
    if ep is None:
        return None
    needs = REPLACEMENT_NEEDS.get(module)
    return moved[0] if needs is None or _has(facts.default_config(ep["config_name"]) or {}, needs) else None


def entry_point_findings(
    facts: Facts,
    module: str,
    file: str,
    line: int,
    col: int,
    span: list[int] | None = None,
    sets: frozenset[str] = frozenset(),
    named: tuple[str, str] | None = None,
) -> list[Finding]:
    """One ``upgrade/entry-point-moved`` finding for a removed entry point whose replacement the target has. ``span``:
    the first and last line of the command; what is judged there against the replacement's config is folded under
    the finding (verl_cookbook/folding.py). ``sets``: the keys the command sets (without ``+``/``~``); the old
    config's defaults the new one leaves required, for keys the command does not set under either name, are the
    finding's ``keep`` (overrides its fix adds). ``named``: (the `--config-name` flag as written, the config it names),
    the finding's ``drop`` when the replacement's release has no config of that name (the old entry point's own)."""
    new = replacement(facts, module)
    if new is None:
        return []
    _new, since, source = MOVED_ENTRY_POINTS[module]
    ep = facts.entry_point(new) or {}
    label = facts.tree.version or facts.tree.label
    written = sets | {(entry_point_key(module, k) or (k,))[0].lstrip("+") for k in sets}
    kept = [d for d in ENTRY_POINT_DEFAULTS.get(module, []) if d[0] not in written]
    return [
        UPGRADE_ENTRY_POINT_MOVED.at(
            file,
            line,
            col,
            fact=source,
            fact_source=ep.get("source"),
            old=module,
            new=new,
            since=since,
            release=label,
            config=ep.get("config_name"),
            span=span,
            keep=[f"{key}={value}" for key, value, _where in kept] or None,
            keep_facts=[where for _k, _v, where in kept] or None,
            drop=named[0] if named and facts.config_dir(named[1]) is None else None,
        )
    ]


@functools.lru_cache(maxsize=4)
def _moves(version: str | None) -> dict[str, dict]:
    """The moves recorded for ``version``; for a release not recorded (a development checkout), those of the newest
    recorded release before it (a move is used only where its new place exists in the config judged)."""
    from verl_cookbook.releases import version_key

    try:
        data = json.loads(KEY_MOVES.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    moves = data.get("moves", {})
    if not version or version in moves:
        return moves.get(version or "", {})
    older = [r for r in moves if version_key(r) < version_key(version)]
    return moves[max(older, key=version_key)] if older else {}


def stale_keys(version: str | None) -> frozenset[str]:
    """Every key an older release had at a place that ``version`` lacks (moved or removed)."""
    return frozenset(_moves(version))


def _has(base: dict, dotted: str) -> bool:
    node: Any = base
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True


def _missing_section(base: dict, key: str) -> str:
    """The first component of ``key`` that the config does not have, with its parents: ``a.b.mindspeed`` for
    ``a.b.mindspeed.x.y`` when ``a.b`` exists."""
    parts = key.split(".")
    for n in range(1, len(parts) + 1):
        if not _has(base, ".".join(parts[:n])):
            return ".".join(parts[:n])
    return key


def group_not_a_field(findings: list[Finding]) -> list[Finding]:
    """Two or more ``config/not-a-field`` findings for one missing field of one node: one finding for the field, at
    the first, with the others folded under it (their JSON keeps ``caused_by``)."""
    groups: dict[tuple[str, str], list[Finding]] = {}
    for f in findings:
        if f.rule == CONFIG_NOT_A_FIELD and f.data.get("node") and f.data.get("name"):
            groups.setdefault((str(f.data["node"]), str(f.data["name"])), []).append(f)
    out = list(findings)
    for (node, name), group in groups.items():
        if len(group) < 2:
            continue
        out.append(
            _one_cause(
                CONFIG_NOT_A_FIELD_GROUP,
                group,
                f"{node}.{name}",
                node=node,
                name=name,
                cls=group[0].data.get("cls"),  # one node, one dataclass: the same for every key of the group
                suggestion=group[0].data.get("suggestion"),
                section=f"{node}.{name}",
            )
        )
    return out


def rewrite(
    findings: list[Finding], facts: Facts, base: dict | None, config: str, moved_from: str | None = None
) -> list[Finding]:
    """``findings`` with stale keys read as an upgrade and the keys under one missing section reported once.
    ``moved_from``: the removed entry point the command named (its keys are read as its replacement reads them)."""
    version = facts.tree.version
    # the moves are derived from the PPO trainer configs: other configs (SFT, evaluation) are not compared
    moves = _moves(version) if "ppo" in config else {}
    base = base or {}
    label = version or facts.tree.label
    out: list[Finding] = []
    sections: dict[str, list[Finding]] = {}
    for f in findings:
        if f.rule != CONFIG_UNKNOWN_KEY:
            out.append(f)
            continue
        key = str(f.data.get("key", "")).lstrip("+~")
        section = _missing_section(base, key) if base else key
        move = moves.get(key)
        by_entry = entry_point_key(moved_from, key)
        if by_entry and (by_entry[0].startswith("+") or _has(base, by_entry[0])):
            out.append(_moved(f, key, by_entry[0], None, by_entry[1], label))
        elif key in HAND_MOVES and _has(base, HAND_MOVES[key][0]):
            new, source = HAND_MOVES[key]
            out.append(_moved(f, key, new, None, source, label, case="misplaced"))
        elif move and move.get("new") and _has(base, move["new"]):
            # before the section: a key of a renamed section has its own new place, and each key is its own fix
            out.append(_moved(f, key, move["new"], move, move.get("proof") or _source(move, config), label))
        elif section != key and section in moves:
            sections.setdefault(section, []).append(f)  # the whole section went away: one cause
        elif move and not move.get("new"):
            out.append(
                UPGRADE_KEY_REMOVED.at(
                    f.path,
                    f.line,
                    f.col,
                    fact=f"verl {move['last']}: {_source(move, config)}",
                    key=key,
                    last=move["last"],
                    since=move["since"],
                    release=label,
                )
            )
        elif section != key:
            sections.setdefault(section, []).append(f)
        else:
            out.append(_without_plus_hint(f))
    for section, group in sections.items():
        out += [_without_plus_hint(f) for f in group]
        if len(group) > 1:
            move = moves.get(section)
            choice = None if move else _choice_with(facts, config, base, section)
            out.append(_section(section, group, move, label, config, choice))
    return out


def _source(move: dict, config: str) -> str:
    """Where the last release that had a moved or removed key wrote it: the file and line of the config the command
    composes when that config had the key (``--config-name=ppo_megatron_trainer``), else of the one that had it (the
    `ppo_trainer` config's first); the release read when the data has no line."""
    sources = move.get("sources") or {}
    return str(sources.get(config) or sources.get("ppo_trainer") or next(iter(sources.values()), move["source"]))


def _choice_with(facts: Facts, config: str, base: dict, section: str) -> str | None:
    """``group=option``: a choice of a config group the release has that gives ``config`` the ``section`` (the config
    Hydra composes with it has the section), when the command's config lacks it; None when no choice does."""
    folder = facts.config_dir(config)
    if folder is None:
        return None
    for group in compose.selector_groups(folder, config):
        if not any(section.startswith(f"{p}.") for p in compose.choice_packages(folder, config, group)):
            continue
        for option in compose.options(facts.tree, folder, config, group):
            if base.get(group) == option:
                continue  # the choice the config already has
            composed = facts.compose(config, (f"{group}={option}",))
            if isinstance(composed.get("config"), dict) and _has(composed["config"], section):
                return f"{group}={option}"
    return None


def _without_plus_hint(f: Finding) -> Finding:
    """``f`` quoting Hydra without its "To append to your config use +…": ``+`` is the wrong fix for a stale key."""
    hydra = f.data.get("hydra")
    return f.with_data(hydra=_HYDRA_PLUS_HINT.sub("", hydra)) if isinstance(hydra, str) else f


def _moved(f: Finding, key: str, new: str, move: dict | None, source: str, label: str, case: str = "") -> Finding:
    return UPGRADE_KEY_MOVED.at(
        f.path,
        f.line,
        f.col,
        fact=source,
        case=case,
        key=key,
        new=new,
        release=label,
        since=move["since"] if move else None,
        last=move["last"] if move else None,
    )


def _section(
    section: str, group: list[Finding], move: dict | None, label: str, config: str, choice: str | None
) -> Finding:
    if move:
        case = "moved" if move.get("new") else "removed"
    else:
        case = "choice" if choice else ("" if "ppo" in config else "other")
    return _one_cause(
        CONFIG_UNKNOWN_SECTION,
        group,
        section,
        case=case,
        section=section,
        release=label,
        config=config,
        new=move.get("new") if move else None,
        since=move.get("since") if move else None,
        last=move.get("last") if move else None,
        choice=choice if not move else None,
    )


def _one_cause(rule: Rule, group: list[Finding], under: str, **data: Any) -> Finding:
    """One finding of ``rule`` for ``group`` (findings with one cause), at the first of them, with their count, lines
    and keys; ``under`` (a dotted key prefix) and their span of lines are how far it reaches, so the group's own
    findings fold under it."""
    first = min(group, key=lambda f: (f.line, f.col))
    lines = sorted({f.line for f in group})
    return rule.at(
        first.path,
        first.line,
        first.col,
        fact=first.fact,
        fact_source=first.fact_source,
        count=len(group),
        shown=[*lines[:12], *(["…"] if len(lines) > 12 else [])],
        keys=[str(f.data.get("key", "")) for f in group],
        lines=[f.line for f in group],
        under=[under],
        span=[lines[0], lines[-1]],
        **data,
    )
