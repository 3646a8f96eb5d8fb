"""Rules that read a script written for an older verl as an upgrade (``upgrade/``), and the one-cause finding for a
section the config does not have (``config/unknown-section``). The checks live in ``checks/upgrade.py``."""

from __future__ import annotations

from verl_cookbook.rules import Example, declare


def _sh(body: str) -> Example:
    return Example("sh", "#!/usr/bin/env bash\n" + body + "\n")


_PPO = "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm"

UPGRADE_ENTRY_POINT_MOVED = declare(
    "upgrade/entry-point-moved",
    "Entry point removed; its replacement named",
    "入口模块已移除，给出替代模块",
    "`python -m X` where X is an entry point an older verl had and this release replaced "
    "(`verl.trainer.fsdp_sft_trainer` → `verl.trainer.sft_trainer`, `recipe.fully_async_policy.…` → "
    "`verl.experimental.fully_async_policy.…`).",
    "Python stops with 'No module named X'; the user's question is what to run instead, and the rest of the "
    "command is judged against the replacement's config so that every other change shows at once, folded under "
    "this finding.",
    fix="run `python -m {new}` instead, and rewrite the command's keys for its config (the findings folded under "
    "this one, each listed by --format json)",
    fix_zh="改为运行 `python -m {new}`，并按其配置改写命令中的配置项（即折叠在该问题下的各问题，"
    "`--format json` 会逐条列出）",
    # what the command sets is judged against the replacement's config: every finding about it follows from the move
    folds=("config/", "override/", "upgrade/key-", "engine/", "delta/"),
    bad=_sh("python3 -m verl.trainer.fsdp_sft_trainer trainer.total_epochs=1"),
    good=_sh("python3 -m verl.trainer.sft_trainer trainer.total_epochs=1"),
)
UPGRADE_KEY_MOVED = declare(
    "upgrade/key-moved",
    "Key moved in a later release",
    "配置项已迁移到新位置",
    "A key older verl releases read at this place and this release reads elsewhere (derived from the releases' "
    "generated configs; a few from the release history, each cited).",
    "Hydra stops at the old key; adding `+` (Hydra's own hint) would only hide it from verl, which reads the new "
    "place.",
    fix="write `{new}` instead of `{key}`",
    fix_zh="将 `{key}` 改为 `{new}`",
    bad=_sh(f"{_PPO} train_batch_size=64"),
    good=_sh(f"{_PPO} data.train_batch_size=64"),
)
UPGRADE_KEY_REMOVED = declare(
    "upgrade/key-removed",
    "Key removed in a later release",
    "配置项已在新版本中移除",
    "A key an older verl release had that this release removed with nothing in its place.",
    "Hydra stops at it; adding `+` would keep a setting nothing reads.",
    fix="drop `{key}` (last read by verl {last})",
    fix_zh="删除 `{key}`（最后读取它的版本为 verl {last}）",
    bad=_sh(f"{_PPO} actor_rollout_ref.rollout.skip_rollout=True"),
    good=_sh(f"{_PPO} actor_rollout_ref.rollout.free_cache_engine=True"),
)
CONFIG_UNKNOWN_SECTION = declare(
    "config/unknown-section",
    "Keys under a section the config does not have",
    "配置中不存在该配置节",
    "Two or more unknown keys under one section this release's config does not have (e.g. every "
    "`actor_rollout_ref.actor.mindspeed.*` key): reported once, at the first, with their count and lines; each "
    "key's own finding is folded under it (the JSON output keeps every one, with `caused_by`).",
    "One cause, one finding: a missing section is one thing to fix, not a hundred.",
    fix={
        "": "use a verl release (or plugin) that has `{section}`, or drop its keys",
        "choice": "choose `{choice}` (a config group choice, written on its own), or drop the keys under `{section}`",
    },
    fix_zh={
        "": "使用包含 `{section}` 的 verl 版本（或插件），或删除该配置节下的配置项",
        "choice": "选择 `{choice}`（配置组选项，须单独写出），或删除 `{section}` 下的配置项",
    },
    folds=("config/unknown-key",),
    bad=_sh(f"{_PPO} actor_rollout_ref.actor.no_such_section.a=1 actor_rollout_ref.actor.no_such_section.b=2"),
    good=_sh(f"{_PPO} actor_rollout_ref.actor.ppo_epochs=1"),
)
