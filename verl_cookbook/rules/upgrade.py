"""Rules that read a script written for an older verl as an upgrade (``upgrade/``), and the one-cause finding for a
section the config does not have (``config/unknown-section``). The checks live in ``checks/upgrade.py``."""

from __future__ import annotations

from verl_cookbook.rules import Example, declare
from verl_cookbook.rules.config import PPO


def _sh(body: str) -> Example:
    return Example("sh", "#!/usr/bin/env bash\n" + body + "\n")


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
    message="`{old}` is gone since verl {since}; verl {release} runs it as `{new}` (config `{config}`): the rest "
    "of this command is judged against that config",
    message_zh="`{old}` 自 verl {since} 起已移除；verl {release} 中对应的入口为 `{new}`（配置 `{config}`）："
    "该命令的其余部分按该配置检查",
    fix="run `python -m {new}` instead[[ with {keep!c}]][[ and drop `{drop}` (verl {release} has no such config)]], "
    "and rewrite the command's keys for its config (the findings folded under this one, each listed by --format json)",
    fix_zh="改为运行 `python -m {new}`[[，并加上 {keep!c}]][[，删除 `{drop}`（verl {release} 没有该配置）]]，"
    "并按其配置改写命令中的配置项（即折叠在该检查结果下的各条检查结果，`--format json` 会逐条列出）",
    # what the command sets is judged against the replacement's config: every finding about it follows from the move
    folds=("config/", "override/", "upgrade/key-", "engine/", "delta/"),
    # keep: `key=value` overrides --fix adds, the old config's defaults the new one leaves required (keep_facts: where);
    # drop: the command's `--config-name=…` naming the old entry point's own config, which the replacement lacks
    extra=("keep", "keep_facts"),
    bad=_sh("python3 -m verl.trainer.fsdp_sft_trainer trainer.total_epochs=1"),
    good=_sh("python3 -m verl.trainer.sft_trainer trainer.total_epochs=1"),
)
UPGRADE_KEY_MOVED = declare(
    "upgrade/key-moved",
    "Key moved in a later release",
    "配置项已迁移到新位置",
    "A key older verl releases read at this place and this release reads elsewhere (derived from the releases' "
    "generated configs; a few from the release history, each cited), or a key often written in a section where no "
    "release read it (`train_batch_size` for `data.train_batch_size`; case `misplaced`).",
    "Hydra stops at the old key; adding `+` (Hydra's own hint) would only hide it from verl, which reads the new "
    "place.",
    message={
        "": "`{key}` is not where verl {release} reads it: it moved to `{new}`[[ in verl {since} (verl {last} was "
        "the last to read it here)]]; did you mean `{new}`?",
        "misplaced": "`{key}` is not where verl {release} reads it: no verl release read it here, verl reads it at "
        "`{new}`; did you mean `{new}`?",
    },
    message_zh={
        "": "verl {release} 不在此位置读取 `{key}`：该配置项已迁移到 `{new}`[[（自 verl {since} 起；verl {last} "
        "是最后在此处读取它的版本）]]",
        "misplaced": "verl {release} 不在此位置读取 `{key}`：verl 的各版本均未在此处读取它，而是读取 `{new}`",
    },
    fix="write `{new}` instead of `{key}`",
    fix_zh="将 `{key}` 改为 `{new}`",
    bad=_sh(f"{PPO} train_batch_size=64"),
    good=_sh(f"{PPO} data.train_batch_size=64"),
)
UPGRADE_KEY_REMOVED = declare(
    "upgrade/key-removed",
    "Key removed in a later release",
    "配置项已在新版本中移除",
    "A key an older verl release had that this release's config lacks, with no key of the same name elsewhere "
    "and no rename recorded from the release history (those are `upgrade/key-moved`).",
    "Hydra stops at it; adding `+` would keep a setting the release's config no longer declares.",
    message="`{key}` was removed in verl {since} (verl {last} was the last to have it) and verl {release}'s "
    "config has no key of that name elsewhere: drop it",
    message_zh="`{key}` 已在 verl {since} 中移除（最后包含它的版本为 verl {last}），verl {release} "
    "的配置中也没有同名配置项：请删除它",
    fix="drop `{key}` (last read by verl {last})",
    fix_zh="删除 `{key}`（最后读取它的版本为 verl {last}）",
    # removed with the chat scheduler (commit f10780083, verl PR #2725); nothing took its place
    bad=_sh(f"{PPO} actor_rollout_ref.rollout.multi_turn.completion_callback=my_pkg.MyCallback"),
    good=_sh(f"{PPO} actor_rollout_ref.rollout.multi_turn.enable=True"),
)
CONFIG_UNKNOWN_SECTION = declare(
    "config/unknown-section",
    "Keys under a section the config does not have",
    "配置中不存在该配置节",
    "Two or more unknown keys under one section this release's config does not have (e.g. every "
    "`actor_rollout_ref.actor.mindspeed.*` key): reported once, at the first, with their count and lines; each "
    "key's own finding is folded under it (the JSON output keeps every one, with `caused_by`).",
    "One cause, one finding: a missing section is one thing to fix, not a hundred.",
    message={
        "": "`{section}` is not a section of verl {release}'s `{config}` config, so all {count} keys under it "
        "are unknown (lines {shown!l}); no generated PPO trainer config of a verl release from 0.5.0 to "
        "this one has it",
        "moved": "`{section}` is not a section of verl {release}'s `{config}` config, so all {count} keys under it "
        "are unknown (lines {shown!l}); it moved to `{new}` in verl {since} (verl {last} had it here)",
        "removed": "`{section}` is not a section of verl {release}'s `{config}` config, so all {count} keys under it "
        "are unknown (lines {shown!l}); verl {last} was the last release to have it (removed in {since})",
        "other": "`{section}` is not a section of verl {release}'s `{config}` config, so all {count} keys under it "
        "are unknown (lines {shown!l}); older releases' configs were not compared for this config",
        "choice": "`{section}` is not a section of verl {release}'s `{config}` config, so all {count} keys under it "
        "are unknown (lines {shown!l}); verl {release}'s config has it when the command chooses `{choice}`, which "
        "this one does not",
    },
    message_zh={
        "": "`{section}` 不是 verl {release} 的 `{config}` 配置中的配置节，其下 {count} 个配置项均不存在（第 "
        "{shown!l} 行）；verl 0.5.0 至 {release} 各版本生成的 PPO 训练配置中均没有它",
        "moved": "`{section}` 不是 verl {release} 的 `{config}` 配置中的配置节，其下 {count} 个配置项均不存在（第 "
        "{shown!l} 行）；它已在 verl {since} 中迁移到 `{new}`（verl {last} 中仍在此处）",
        "removed": "`{section}` 不是 verl {release} 的 `{config}` 配置中的配置节，其下 {count} 个配置项均不存在（第 "
        "{shown!l} 行）；最后包含它的版本为 verl {last}（自 {since} 起移除）",
        "other": "`{section}` 不是 verl {release} 的 `{config}` 配置中的配置节，其下 {count} 个配置项均不存在（第 "
        "{shown!l} 行）；该配置未与旧版本的配置比较",
        "choice": "`{section}` 不是 verl {release} 的 `{config}` 配置中的配置节，其下 {count} 个配置项均不存在（第 "
        "{shown!l} 行）；命令选择 `{choice}` 时 verl {release} 的配置中才有该配置节，而该命令没有选择它",
    },
    extra=("keys", "lines"),
    fix={
        "": "use a verl release (or plugin) that has `{section}`, or drop its keys",
        "choice": "choose `{choice}` (a config group choice, written on its own), or drop the keys under `{section}`",
    },
    fix_zh={
        "": "使用包含 `{section}` 的 verl 版本（或插件），或删除该配置节下的配置项",
        "choice": "选择 `{choice}`（配置组选项，须单独写出），或删除 `{section}` 下的配置项",
    },
    folds=("config/unknown-key",),
    bad=_sh(f"{PPO} actor_rollout_ref.actor.no_such_section.a=1 actor_rollout_ref.actor.no_such_section.b=2"),
    good=_sh(f"{PPO} actor_rollout_ref.actor.ppo_epochs=1"),
)
