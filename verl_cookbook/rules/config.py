"""Rules about verl's config: keys, types and Hydra overrides (``config/``, ``override/``, ``defaults/``), the
command that starts verl (``command/``) and the site's own consistency with verl (``verl/``). The checkpoint
engines' rules are in :mod:`.engines`."""

from __future__ import annotations

from verl_cookbook.rules import WARNING, Example, declare

# verl's PPO trainer with what every command of it must set (a rollout, the micro-batch sizes validate_config
# asks for), so that an example shows its own rule and nothing else.
PPO = (
    "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm "
    "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 "
    "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=2"
)
CKPT = "actor_rollout_ref.rollout.checkpoint_engine"


def ppo_script(*overrides: str, head: str = "", args: tuple[str, ...] = ()) -> Example:
    """A launch script running verl's PPO trainer with ``overrides``, given to ``doctor``."""
    return Example("sh", "#!/usr/bin/env bash\n" + head + " \\\n    ".join((PPO, *overrides)) + "\n", args)


# -- config/ ------------------------------------------------------------------
CONFIG_UNKNOWN_KEY = declare(
    "config/unknown-key",
    "Unknown config key",
    "配置项不存在",
    "A key that verl's composed config does not have (a typo, or a key of another verl release).",
    "Hydra's config is in struct mode: it stops at start-up on a key it does not know.",
    message={
        "": "unknown key `{key}`: verl's `{config}` config has no `{name}`[[ under `{parent}`]][[; did you "
        "mean `{suggestion}`?]][[ (Hydra: {hydra})]]",
        "group": "unknown key `{key}`: `{name}` is a config group of `{config}`, chosen on its own: write "
        "`{name}={value}`[[ (Hydra: {hydra})]]",
    },
    message_zh={
        "": "配置项 `{key}` 不存在：verl 的 `{config}` 配置中[[ `{parent}` 下]]没有 `{name}`[[；是否应为 "
        "`{suggestion}`？]][[（Hydra 原文：{hydra}）]]",
        "group": "配置项 `{key}` 不存在：`{name}` 是 `{config}` 的配置组，须单独选择：写作 `{name}={value}`[[（"
        "Hydra 原文：{hydra}）]]",
    },
    fix={
        "": "fix the key or drop it (or add it with `+` if it is yours); Hydra rejects unknown keys",
        "suggested": "fix the key as suggested, or drop it; Hydra rejects unknown keys",
    },
    fix_zh={
        "": "修正该配置项或删除它（如果是自定义配置项，请以 `+` 添加）",
        "suggested": "按提示修正该配置项，或删除它",
    },
    bad=ppo_script("trainer.total_epoch=2"),
    good=ppo_script("trainer.total_epochs=2"),
)
CONFIG_NOT_A_MAPPING = declare(
    "config/not-a-mapping",
    "Key set below a plain value",
    "在非映射的配置值下设置子项",
    "A dotted key that goes below a value that is not a mapping in verl's config (`trainer.total_epochs.x`).",
    "Hydra cannot set a key inside a number or a string; the job stops at start-up.",
    message="`{parent}` is a value in verl's config, not a mapping, so `{key}` cannot be set[[ (Hydra: {hydra})]]",
    message_zh="`{parent}` 在 verl 配置中是一个值而非映射，因此无法设置 `{key}`[[（Hydra 原文：{hydra}）]]",
    bad=ppo_script("trainer.total_epochs.max=2"),
    good=ppo_script("trainer.total_epochs=2"),
    fix="remove `{key}`, or give `{parent}` its value directly",
    fix_zh="删除 `{key}`，或直接为 `{parent}` 赋值",
)
CONFIG_WRONG_TYPE = declare(
    "config/wrong-type",
    "Value of the wrong type",
    "配置值类型错误",
    "A value that a dataclass field verl builds with OmegaConf's typed merge (`dataclass_type=`: the model, the "
    "profiler, distillation teachers, skip settings) does not accept.",
    "OmegaConf converts the value when verl builds that dataclass, and a value it cannot convert stops the job. "
    "A node verl only instantiates from its `_target_` (actor, rollout, optimizer) is passed on unchecked.",
    message="`{key}` = {value!r} is not a `{annotation}` (the type of `{field}`); OmegaConf: {error}",
    message_zh="`{key}` 的值 {value!r} 不是 `{annotation}` 类型（`{field}` 的类型）；OmegaConf：{error}",
    bad=ppo_script("actor_rollout_ref.model.use_shm=sometimes"),
    good=ppo_script("actor_rollout_ref.model.use_shm=True"),
    fix="give `{key}` a value of type `{annotation}`",
    fix_zh="将 `{key}` 的值改为 `{annotation}` 类型",
)
_UNCONVERTED = (
    "`{key}`: `{value!r}` is {got}, but `{cls}.{field}` is `{annotation}`; verl builds `{cls}` with "
    "hydra.utils.instantiate ({built}), which passes the value on unconverted"
)
_UNCONVERTED_ZH = (
    "`{key}`：`{value!r}` 是{got}，但 `{cls}.{field}` 的类型是 `{annotation}`；verl 通过 hydra.utils.instantiate 构造 "
    "`{cls}`（{built}），取值不经转换直接传入"
)
CONFIG_UNCONVERTED_TYPE = declare(
    "config/unconverted-type",
    "Value verl passes on without converting",
    "verl 不经转换直接传递的值",
    "A value under a node verl builds by instantiating its `_target_` that cannot be what the field holds as "
    "written: a string where the field holds numbers, a list or a mapping (a quoted list inside a double-quoted "
    "shell variable keeps its quotes), a list or a mapping where it holds something else.",
    "`hydra.utils.instantiate` converts nothing: the dataclass holds the value as it came, and the code that reads "
    "the field fails or misreads it (torch's optimizer cannot use `betas='[0.9,0.95]'`).",
    message={
        "": _UNCONVERTED.replace("{got}", "a string"),
        "list": _UNCONVERTED.replace("{got}", "a list"),
        "mapping": _UNCONVERTED.replace("{got}", "a mapping"),
    },  # fmt: skip
    message_zh={
        "": _UNCONVERTED_ZH.replace("{got}", "字符串"),
        "list": _UNCONVERTED_ZH.replace("{got}", "列表"),
        "mapping": _UNCONVERTED_ZH.replace("{got}", "映射"),
    },  # fmt: skip
    fix="write the value as Hydra reads a `{annotation}` (`{key}=[0.9,0.95]`, `{key}=1e-5`): without quotes around "
    "it, and inside a double-quoted shell variable without the single quotes, which bash keeps in the value",
    fix_zh="按 Hydra 读取 `{annotation}` 的写法书写该值（`{key}=[0.9,0.95]`、`{key}=1e-5`）：值两侧不加引号；"
    "写在双引号 shell 变量中时也不加单引号，bash 会将单引号保留在值中",
    bad=Example(
        "sh",
        f"#!/usr/bin/env bash\nOPTIM=\"actor_rollout_ref.actor.optim.betas='[0.9,0.95]'\"\n{PPO} \\\n    $OPTIM\n",
    ),
    good=Example(
        "sh",
        f'#!/usr/bin/env bash\nOPTIM="actor_rollout_ref.actor.optim.betas=[0.9,0.95]"\n{PPO} \\\n    $OPTIM\n',
    ),
)
CONFIG_NOT_A_FIELD = declare(
    "config/not-a-field",
    "Key added where verl's dataclass has no field",
    "新增的配置项不是 dataclass 字段",
    "A key added with `+` under a node that verl turns into a dataclass without that field.",
    "Hydra accepts the key, but building the dataclass fails: a TypeError (unexpected keyword argument), shown inside "
    "Hydra's InstantiationException where verl builds it with `hydra.utils.instantiate`.",
    message="`{key}`: Hydra adds it, but {cls}, which verl builds[[ from `{node}`]], has no field `{name}`, so "
    "building it fails (unexpected keyword argument)[[; did you mean `{suggestion}`?]]",
    message_zh="`{key}`：Hydra 会添加该配置项，但 verl 会[[由 `{node}` ]]构造 {cls}，而它没有字段 `{name}`，"
    "构造时失败（unexpected keyword argument）[[；是否应为 `{suggestion}`？]]",
    bad=ppo_script("+actor_rollout_ref.rollout.checkpoint_engine.bucket_mb=512"),
    good=ppo_script("actor_rollout_ref.rollout.checkpoint_engine.update_weights_bucket_megabytes=512"),
    fix="remove the key, or use a field {cls} has",
    fix_zh="删除该配置项，或改为 {cls} 中已有的字段",
)
CONFIG_NOT_A_FIELD_GROUP = declare(
    "config/not-a-field-group",
    "Keys added under a field verl's dataclass does not have",
    "在 dataclass 不存在的字段下新增的多个配置项",
    "Two or more keys added with `+` under one name that the dataclass verl builds there does not have (every "
    "`actor_rollout_ref.actor.mindspeed.llm_kwargs.*` key where the field is `mcore_kwargs`): reported once, at the "
    "first, with their count and lines; each key's own finding is folded under it.",
    "One cause, one finding: a misnamed field is one thing to fix, not a hundred.",
    message="`{node}.{name}`: {cls}, which verl builds from `{node}`, has no field `{name}`, so the {count} keys added "
    "under it (lines {shown!l}) make building it fail (unexpected keyword argument)[[; did you mean `{suggestion}`?]]",
    message_zh="`{node}.{name}`：verl 由 `{node}` 构造的 `{cls}` 没有字段 `{name}`，其下新增的 {count} 个配置项（第 "
    "{shown!l} 行）会使构造失败（unexpected keyword argument）[[；是否应为 `{suggestion}`？]]",
    extra=("keys", "lines", "section"),  # section: the field's dotted path, what folding reads as its key
    fix="write the keys under the field {cls} has[[ (`{node}.{suggestion}`)]], or drop them",
    fix_zh="将这些配置项写到 `{cls}` 实际具有的字段下[[（`{node}.{suggestion}`）]]，或删除它们",
    folds=("config/not-a-field",),
    bad=ppo_script(
        "+actor_rollout_ref.rollout.checkpoint_engine.extra.a=1 +actor_rollout_ref.rollout.checkpoint_engine.extra.b=2"
    ),
    good=ppo_script("actor_rollout_ref.rollout.checkpoint_engine.update_weights_bucket_megabytes=512"),
)
_LEGACY = (
    "`{key}` is a legacy key: Hydra accepts it, but it is not read by {readers!c}; only {migrating!c} moves it to its "
    "new place (`{function}`)"
)
_LEGACY_ZH = (
    "`{key}` 是旧配置项：Hydra 接受它，但 {readers!c} 不读取它；只有 {migrating!c} 会通过 `{function}` 将其迁移到新位置"
)
CONFIG_LEGACY_KEY = declare(
    "config/legacy-key",
    "Legacy key the entry point never reads",
    "入口不再读取的旧配置项",
    "A key Hydra still accepts but the entry point no longer reads (only another entry point migrates it).",
    "The setting is silently without effect: the job runs, just not as written.",
    message={
        "": _LEGACY + "[[: set `{new}` instead]]",
        "same": _LEGACY + ": `{new}` already has the value `{value}`, so the run is as written; the key can go",
    },
    message_zh={
        "": _LEGACY_ZH + "[[：请改为设置 `{new}`]]",
        "same": _LEGACY_ZH + "：`{new}` 的值已是 `{value}`，运行结果与所写一致，可删除该配置项",
    },
    severity=WARNING,
    bad=ppo_script("reward_model.reward_manager=dapo"),
    good=ppo_script("reward.reward_manager.name=dapo"),
    fix={
        "": "remove `{key}` and set the key the entry point reads instead (the message names it when it is known)",
        "same": "write `{key}` as `{new}`, or remove it: `{new}` already has this value",
    },
    fix_zh={
        "": "删除 `{key}`，改为设置当前入口读取的配置项（已知时提示信息中给出）",
        "same": "将 `{key}` 改写为 `{new}`，或直接删除：`{new}` 已是该值",
    },
)
_NO_CONFIG = "`--config-name {config}`: verl {release} has no config `{config}` (it has {offered!c})"
_NO_CONFIG_ZH = "`--config-name {config}`：verl {release} 中没有配置 `{config}`（可选：{offered!c}）"
CONFIG_UNKNOWN_CONFIG = declare(
    "config/unknown-config",
    "Config Hydra cannot compose",
    "Hydra 无法组合的配置",
    "A config name (`--config-name`, `config=`) that Hydra cannot compose from verl's config folders; for a "
    "command, the finding names the configs the release has and the last release with the one named, and what the "
    "command sets is folded under it.",
    "The entry point stops before training starts; every key of the command was judged against another config.",
    message={
        "": "Hydra cannot compose verl's config `{config}`: {error}",
        "table": "verl has no generated config `{config}`",
        "gone": _NO_CONFIG + "; verl {last} was the last release with it",
        "newer": _NO_CONFIG + "; only verl's main branch has it",
        "missing": _NO_CONFIG,
    },
    message_zh={
        "": "Hydra 无法组合 verl 的配置 `{config}`：{error}",
        "table": "verl 没有生成的配置 `{config}`",
        "gone": _NO_CONFIG_ZH + "；最后提供该配置的版本为 verl {last}",
        "newer": _NO_CONFIG_ZH + "；仅 verl 的 main 分支提供该配置",
        "missing": _NO_CONFIG_ZH,
    },
    folds=("config/", "override/", "upgrade/key-", "engine/", "delta/"),
    bad=Example("md", '```yaml {check="config" config="ppo_trainerx"}\ntrainer:\n  total_epochs: 2\n```\n'),
    good=Example("md", '```yaml {check="config" config="ppo_trainer"}\ntrainer:\n  total_epochs: 2\n```\n'),
    fix="pick a config that release has (the message lists them), or the release that still has it",
    fix_zh="改用该版本提供的配置（提示信息列出可选项），或改用仍提供该配置的版本",
)
CONFIG_OMEGACONF = declare(
    "config/omegaconf",
    "OmegaConf rejects the merge",
    "OmegaConf 拒绝合并",
    "A YAML fragment that OmegaConf cannot merge onto verl's defaults.",
    "verl merges configs with OmegaConf; what it rejects never reaches the trainer.",
    message="OmegaConf rejects the merge: {error}",
    message_zh="OmegaConf 拒绝合并：{error}",
    fix="change the value's type or form as OmegaConf's error says",
    fix_zh="按 OmegaConf 的报错修改该配置值的类型或写法",
)

# -- override/ ------------------------------------------------------------------
OVERRIDE_NEEDS_PLUS = declare(
    "override/needs-plus",
    "New key without `+`",
    "新增配置项缺少 `+`",
    "An override of a key that is not in verl's config (its parent is empty there), written without `+`.",
    "Hydra adds keys only with `+` (or `++`); without it the job stops at start-up.",
    message="`{key}` is not in verl's `{config}` config (its parent is empty there), so Hydra rejects "
    "`{override}`; write `+{override}`[[ (Hydra: {hydra})]]",
    message_zh="`{key}` 不在 verl 的 `{config}` 配置中（其上级为空），因此 Hydra 拒绝 `{override}`；请写作 "
    "`+{override}`[[（Hydra 原文：{hydra}）]]",
    bad=ppo_script("actor_rollout_ref.rollout.engine_kwargs.sglang.attention_backend=triton"),
    good=ppo_script("+actor_rollout_ref.rollout.engine_kwargs.sglang.attention_backend=triton"),
    extra=("legacy",),  # the key is under a section some entry point migrates: `+` alone is not the fix (--fix)
    fix="write `+{override}`",
    fix_zh="写作 `+{override}`",
)
OVERRIDE_PLUS_ON_EXISTING = declare(
    "override/plus-on-existing",
    "`+` on a key that exists",
    "对已存在的配置项使用 `+`",
    "An override written `+key=value` for a key that verl's config already has.",
    "Hydra refuses to append an existing key; write `key=value` (or `++key=value`).",
    message="`{key}` already exists in verl's `{config}` config, so Hydra rejects `{override}`; write it without "
    "`+`[[ (Hydra: {hydra})]]",
    message_zh="`{key}` 已存在于 verl 的 `{config}` 配置中，因此 Hydra 拒绝 `{override}`；请去掉 `+`[[（Hydra 原文："
    "{hydra}）]]",
    bad=ppo_script("+trainer.total_epochs=2"),
    good=ppo_script("trainer.total_epochs=2"),
    fix="drop the `+`: `{key}` is already in the config",
    fix_zh="去掉 `+`：`{key}` 已在配置中",
)
OVERRIDE_DELETE_MISSING = declare(
    "override/delete-missing",
    "Deleting a key that does not exist",
    "删除不存在的配置项",
    "An override `~key` for a key verl's config does not have.",
    "Hydra stops: there is nothing to delete.",
    message="`{override}` deletes a key verl's config does not have[[ (Hydra: {hydra})]]",
    message_zh="`{override}` 删除的配置项在 verl 配置中不存在[[（Hydra 原文：{hydra}）]]",
    bad=ppo_script("~trainer.no_such_key"),
    good=ppo_script("trainer.total_epochs=2"),
    fix="remove the override, or name a key the config has after `~`",
    fix_zh="删除该覆盖项，或将 `~` 后的键改为配置中存在的键",
)
OVERRIDE_UNKNOWN_GROUP = declare(
    "override/unknown-group",
    "Unknown config group",
    "配置组不存在",
    "An override that Hydra reads as a config group choice, for a group verl's config does not have.",
    "Hydra stops at start-up.",
    message="`{override}` names a config group verl does not have[[; did you mean `{suggestion}`?]][[ (Hydra: "
    "{hydra})]]",
    message_zh="`{override}` 引用的配置组在 verl 中不存在[[；是否应为 `{suggestion}`？]][[（Hydra 原文：{hydra}）]]",
    fix="use a config group verl has",
    fix_zh="改为 verl 中存在的配置组",
)
# What a group option the release lacks would have defined: keys there are judged against the default option, so
# what Hydra or verl would make of them is not known; their findings are folded under the choice.
UNDER_A_CHOICE = (
    "config/unknown-key",
    "config/unknown-section",
    "config/not-a-field",
    "config/not-a-field-group",
    "config/not-a-mapping",
    "config/wrong-type",
    "override/needs-plus",
    "override/plus-on-existing",
    "upgrade/key-moved",
    "upgrade/key-removed",
)
_NO_OPTION = "`{override}`: verl {release} has no `{group}` option `{option}` (it has {offered!c})"
_NO_OPTION_ZH = "`{override}`：verl {release} 的配置组 `{group}` 中没有 `{option}` 选项（可选：{offered!c}）"
_WOULD_DEFINE = ". What it would define ({under!c}) is not in this release's config"
_WOULD_DEFINE_ZH = "。该选项本应定义的配置（{under!c}）在此版本的配置中不存在"
OVERRIDE_GROUP = declare(
    "override/group",
    "Group choice Hydra cannot compose",
    "Hydra 无法组合的配置组选择",
    "A config group choice (`model_engine=...`, `actor@actor_rollout_ref.actor=...`) that Hydra cannot compose, "
    "most often an option the release does not have; the finding names the options it has and the last release "
    "that had the one chosen. The keys the option would have defined are folded under it.",
    "The option named is not in verl's config folders, so the job stops at start-up; every key set for what it "
    "would have defined is judged against another option and says nothing until the choice is fixed.",
    message={
        "": "Hydra cannot compose `{config}` with `{override}`: {error}",
        "gone": _NO_OPTION + "; verl {last} was the last release with it" + _WOULD_DEFINE,
        "newer": _NO_OPTION + "; only verl's main branch has it" + _WOULD_DEFINE,
        "missing": _NO_OPTION
        + ", nor had any release since 0.5.0 (a plugin's config search path may add it)"
        + _WOULD_DEFINE,
    },
    message_zh={
        "": "Hydra 无法以 `{override}` 组合 `{config}`：{error}",
        "gone": _NO_OPTION_ZH + "；最后提供该选项的版本为 verl {last}" + _WOULD_DEFINE_ZH,
        "newer": _NO_OPTION_ZH + "；仅 verl 的 main 分支提供该选项" + _WOULD_DEFINE_ZH,
        "missing": _NO_OPTION_ZH + "，0.5.0 以来的各版本也均未提供（插件的配置搜索路径可能会添加）" + _WOULD_DEFINE_ZH,
    },
    fix={
        "": "choose an option the config group has (Hydra lists them)",
        "gone": "choose an option verl {release} has, or run verl {last}, the last release with `{option}`",
        "newer": "choose an option verl {release} has, or run a verl built from the main branch",
        "missing": "choose an option verl {release} has, or add the config folder that holds `{option}`",
    },
    fix_zh={
        "": "选择该配置组中存在的选项（Hydra 会列出）",
        "gone": "选择 verl {release} 中存在的选项，或改用最后提供 `{option}` 的版本 verl {last}",
        "newer": "选择 verl {release} 中存在的选项，或使用基于 main 分支构建的 verl",
        "missing": "选择 verl {release} 中存在的选项，或添加包含 `{option}` 的配置目录",
    },
    folds=UNDER_A_CHOICE,
    bad=ppo_script("model_engine=no_such_engine"),
    good=ppo_script("model_engine=megatron"),
)
OVERRIDE_REJECTED = declare(
    "override/rejected",
    "Override Hydra rejects",
    "Hydra 拒绝的覆盖项",
    "Any other override that Hydra's own parser and composition reject; the message quotes Hydra.",
    "What Hydra rejects stops the job at start-up.",
    message="Hydra rejects `{override}`: {hydra}",
    message_zh="Hydra 拒绝 `{override}`：{hydra}",
    fix="correct the override as Hydra's message says",
    fix_zh="按 Hydra 的原文修改该覆盖项",
)
OVERRIDE_MALFORMED = declare(
    "override/malformed",
    "Override Hydra cannot parse",
    "Hydra 无法解析的覆盖项",
    "A command-line override that is not valid Hydra override syntax (unbalanced brackets or quotes).",
    "Hydra stops before composing the config.",
    message="Hydra cannot parse `{override}`: {hydra}",
    message_zh="Hydra 无法解析 `{override}`：{hydra}",
    bad=ppo_script("trainer.logger=[console"),
    good=ppo_script("trainer.logger=[console]"),
    fix="write it in Hydra's override grammar: `key=value`, `+key=value`, `++key=value` or `~key`",
    fix_zh="按 Hydra 的覆盖项语法改写：`key=value`、`+key=value`、`++key=value` 或 `~key`",
)
OVERRIDE_SWEEP_WITHOUT_MULTIRUN = declare(
    "override/sweep-without-multirun",
    "Sweep without `--multirun`",
    "未使用 `--multirun` 的参数扫描",
    "A sweep value (`a=1,2`) in a command that does not run Hydra with `--multirun`.",
    "Hydra refuses a sweep in a single run.",
    message={
        "": "`{override}` is a sweep: without `--multirun` (`-m`) Hydra refuses to run it[[ (Hydra: {hydra})]]",
        "list": "`{override}` is a sweep: without `--multirun` (`-m`) Hydra refuses to run it; `{key}` holds a list "
        "in verl's config, so the list is written `{key}=[{value}]`",
    },
    message_zh={
        "": "`{override}` 是参数扫描（sweep）：未指定 `--multirun`（`-m`）时 Hydra 拒绝运行[[（Hydra 原文：{hydra}）]]",
        "list": "`{override}` 是参数扫描（sweep）：未指定 `--multirun`（`-m`）时 Hydra 拒绝运行；`{key}` 在 verl "
        "的配置中是列表，列表应写作 `{key}=[{value}]`",
    },
    bad=ppo_script("trainer.total_epochs=1,2"),
    good=ppo_script("trainer.total_epochs=2"),
    fix="set one value (write a list value as `key=[a,b]`), or add `--multirun` for a real sweep",
    fix_zh="只设置一个值（列表值写作 `key=[a,b]`）；确需参数扫描时加 `--multirun`",
)
OVERRIDE_UNKNOWN_FLAG = declare(
    "override/unknown-flag",
    "Unknown Hydra flag",
    "Hydra 不支持的命令行参数",
    "A `--flag` that Hydra's command line does not have.",
    "The script exits with 'unrecognized arguments' before training.",
    message={
        "": "`{flag}` is not a Hydra command-line flag, so the script exits with 'unrecognized arguments'[[; "
        "did you mean `{suggestion}`?]]",
        "dashes": "`{flag}` is not a Hydra command-line flag, so the script exits with 'unrecognized arguments'; "
        "Hydra overrides have no dashes: `{bare}=…`",
    },
    message_zh={
        "": "`{flag}` 不是 Hydra 命令行选项，脚本会以 'unrecognized arguments' 退出[[；是否应为 `{suggestion}`？]]",
        "dashes": "`{flag}` 不是 Hydra 命令行选项，脚本会以 'unrecognized arguments' 退出；Hydra 覆盖项不带短横线："
        "`{bare}=…`",
    },
    bad=ppo_script("--config-nam=ppo_trainer"),
    good=ppo_script("--config-name=ppo_trainer"),
    fix="remove the argument: Hydra overrides are `key=value`, with no dashes",
    fix_zh="删除该参数：Hydra 覆盖项写作 `key=value`，不带短横线",
)
OVERRIDE_FLAG_NEEDS_VALUE = declare(
    "override/flag-needs-value",
    "Hydra flag without its value",
    "Hydra 参数缺少取值",
    "A Hydra flag such as `--config-name` at the end of the command, with no value.",
    "Hydra's argument parser stops.",
    message="`{flag}` needs a value",
    message_zh="`{flag}` 需要一个值",
    bad=ppo_script("--config-name"),
    good=ppo_script("--config-name ppo_trainer"),
    fix="give `{flag}` a value",
    fix_zh="在 `{flag}` 后给出取值",
)

# -- defaults/ ------------------------------------------------------------------
DEFAULTS_MISMATCH = declare(
    "defaults/mismatch",
    "Default shown differs from verl's",
    "页面所示默认值与 verl 不一致",
    "A YAML block declared as verl's defaults (`check=\"defaults\"`) with a value verl's default config does not have.",
    "Readers copy defaults from the page; a wrong one misleads them.",
    message="`{key}` is shown as the default {shown!r}, but verl's default is {default!r}",
    message_zh="`{key}` 标注的默认值为 {shown!r}，而 verl 的默认值为 {default!r}",
    bad=Example("md", '```yaml {check="defaults"}\ntrainer:\n  total_epochs: 99\n```\n'),
    good=Example("md", '```yaml {check="defaults"}\ntrainer:\n  total_epochs: 30\n```\n'),
    fix="write verl's default on the page",
    fix_zh="将页面上的默认值改为 verl 的默认值",
)
DEFAULTS_NOT_A_DEFAULT = declare(
    "defaults/not-a-default",
    "Key shown as a default that verl lacks",
    "页面所示默认项在 verl 中不存在",
    "A key in a defaults block that verl's default config does not have.",
    "The page documents a setting that does not exist.",
    message="`{key}` is shown as a default, but verl's default config has no such key",
    message_zh="`{key}` 标注为默认值，但 verl 的默认配置中没有该配置项",
    bad=Example(
        "md",
        '```yaml {check="defaults"}\nactor_rollout_ref:\n  rollout:\n    engine_kwargs:\n      sglang:\n'
        "        attention_backend: triton\n```\n",
    ),
    good=Example("md", '```yaml {check="defaults"}\ntrainer:\n  total_epochs: 30\n```\n'),
    fix="remove the key from the defaults, or name a key verl's default config has",
    fix_zh="从默认值中删除该配置项，或改为 verl 默认配置中存在的配置项",
)

# -- command/ and verl/ ------------------------------------------------------------------
COMMAND_MISSING_DASH_M = declare(
    "command/missing-dash-m",
    "Module run without `-m`",
    "运行模块时缺少 `-m`",
    "`python verl.trainer.main_ppo`: a module name given to Python as if it were a file.",
    "Python looks for a file of that name and stops.",
    message="`{prog} {module}` runs a file named `{module}`, which does not exist; a module is run with "
    "`{prog} -m {module}`",
    message_zh="`{prog} {module}` 会运行名为 `{module}` 的文件，而该文件不存在；运行模块应写作 `{prog} -m {module}`",
    fix="add `-m` before the module name",
    fix_zh="在模块名前加上 `-m`",
    bad=Example("sh", PPO.replace(" -m ", " ", 1) + " trainer.total_epochs=2\n"),
    good=Example("sh", f"{PPO} trainer.total_epochs=2\n"),
)
COMMAND_UNKNOWN_ENTRY_POINT = declare(
    "command/unknown-entry-point",
    "verl has no such module",
    "verl 中不存在该模块",
    "`python -m verl.<module>` for a module this verl release does not have.",
    "Python stops with 'No module named …'.",
    message="`python -m {module}`: verl {release} has no module `{module}`, so Python stops with 'No module named "
    "{module}'[[; did you mean `{suggestion}`?]]",
    message_zh="`python -m {module}`：verl {release} 中没有模块 `{module}`，Python 会报错 'No module named {module}' "
    "并退出[[；是否应为 `{suggestion}`？]]",
    fix="run an entry point this verl release has (named in the message)",
    fix_zh="改为运行本 verl 版本中存在的入口模块（见提示信息）",
    bad=Example("sh", PPO.replace("main_ppo", "main_ppx", 1) + " trainer.total_epochs=2\n"),
    good=Example("sh", f"{PPO} trainer.total_epochs=2\n"),
)
VERL_CONFIG_DRIFT = declare(
    "verl/config-drift",
    "verl's YAML and dataclass disagree",
    "verl 的 YAML 与 dataclass 不一致",
    "A field of verl's CheckpointEngineConfig whose dataclass default differs from verl's own `checkpoint_engine` "
    "YAML block (verl/trainer/config/rollout/rollout.yaml) or is missing from it, or a key of that block that is no "
    "field. Judged only when the whole site is checked (`check` with no PATH).",
    "The site documents one of the two; a drift inside verl means one of them is wrong for some users.",
    message={
        "": "`CheckpointEngineConfig.{name}` has no entry in the `checkpoint_engine` YAML block",
        "differs": "`checkpoint_engine.{name}`: the YAML block says {yaml!r}, the dataclass says {default!r}",
        "extra": "`checkpoint_engine.{name}` is in the YAML block but is no `CheckpointEngineConfig` field",
    },
    message_zh={
        "": "`CheckpointEngineConfig.{name}` 在 `checkpoint_engine` 的 YAML 配置块中没有对应项",
        "differs": "`checkpoint_engine.{name}`：YAML 配置块中为 {yaml!r}，dataclass 中为 {default!r}",
        "extra": "`checkpoint_engine.{name}` 在 YAML 配置块中，但不是 `CheckpointEngineConfig` 的字段",
    },
    fix="nothing to change on the page: report the disagreement to verl, and say on the page which value applies",
    fix_zh="无须修改页面：向 verl 报告该不一致，并在页面上写明实际生效的取值",
)
