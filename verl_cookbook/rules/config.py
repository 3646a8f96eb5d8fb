"""Rules about verl's config: keys, types and Hydra overrides (``config/``, ``override/``, ``defaults/``), the
checkpoint engines (``engine/``, ``delta/``), the command that starts verl (``command/``) and the site's own
consistency with verl (``verl/``)."""

from __future__ import annotations

from verl_cookbook.rules import PAGE_BY_BACKEND, PAGE_DELTA, PAGE_NCCL_HCCL, WARNING, Example, declare

_PPO = "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm"
_CKPT = "actor_rollout_ref.rollout.checkpoint_engine"


def _sh(*overrides: str, head: str = "", args: tuple[str, ...] = ()) -> Example:
    """A launch script running verl's PPO trainer with ``overrides``, given to ``doctor``."""
    return Example("sh", "#!/usr/bin/env bash\n" + head + " \\\n    ".join((_PPO, *overrides)) + "\n", args)


def _npu(*overrides: str) -> Example:
    return _sh(*overrides, head="export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3,4,5,6,7\n")


# -- config/ ------------------------------------------------------------------
CONFIG_UNKNOWN_KEY = declare(
    "config/unknown-key",
    "Unknown config key",
    "配置项不存在",
    "A key that verl's composed config does not have (a typo, or a key of another verl release).",
    "Hydra's config is in struct mode: it stops at start-up on a key it does not know.",
    fix={
        "": "fix the key or drop it (or add it with `+` if it is yours); Hydra rejects unknown keys",
        "suggested": "fix the key as suggested, or drop it; Hydra rejects unknown keys",
    },
    fix_zh={
        "": "修正该配置项或删除它（如果是自定义配置项，请以 `+` 添加）；Hydra 拒绝不存在的配置项",
        "suggested": "按提示修正该配置项，或删除它；Hydra 拒绝不存在的配置项",
    },
    bad=_sh("trainer.total_epoch=2"),
    good=_sh("trainer.total_epochs=2"),
)
CONFIG_NOT_A_MAPPING = declare(
    "config/not-a-mapping",
    "Key set below a plain value",
    "在非映射的配置值下设置子项",
    "A dotted key that goes below a value that is not a mapping in verl's config (`trainer.total_epochs.x`).",
    "Hydra cannot set a key inside a number or a string; the job stops at start-up.",
    bad=_sh("trainer.total_epochs.max=2"),
    good=_sh("trainer.total_epochs=2"),
)
CONFIG_WRONG_TYPE = declare(
    "config/wrong-type",
    "Value of the wrong type",
    "配置值类型错误",
    "A value that a dataclass field verl builds with OmegaConf's typed merge (`dataclass_type=`: the model, the "
    "profiler, distillation teachers, skip settings) does not accept.",
    "OmegaConf converts the value when verl builds that dataclass, and a value it cannot convert stops the job. "
    "A node verl only instantiates from its `_target_` (actor, rollout, optimizer) is passed on unchecked.",
    bad=_sh("actor_rollout_ref.model.use_shm=sometimes"),
    good=_sh("actor_rollout_ref.model.use_shm=True"),
)
CONFIG_NOT_A_FIELD = declare(
    "config/not-a-field",
    "Key added where verl's dataclass has no field",
    "新增的配置项不是 dataclass 字段",
    "A key added with `+` under a node that verl turns into a dataclass without that field.",
    "Hydra accepts the key, but building the dataclass raises TypeError (unexpected keyword argument).",
    bad=_sh("+actor_rollout_ref.rollout.checkpoint_engine.bucket_mb=512"),
    good=_sh("actor_rollout_ref.rollout.checkpoint_engine.update_weights_bucket_megabytes=512"),
)
CONFIG_LEGACY_KEY = declare(
    "config/legacy-key",
    "Legacy key the entry point never reads",
    "入口不再读取的旧配置项",
    "A key Hydra still accepts but the entry point no longer reads (only another entry point migrates it).",
    "The setting is silently without effect: the job runs, just not as written.",
    severity=WARNING,
    bad=_sh("reward_model.reward_manager=naive"),
    good=_sh("reward.reward_manager.name=naive"),
)
CONFIG_MISSING_VALUE = declare(
    "config/missing-value",
    "Mandatory value never set",
    "必填配置项未设置",
    "A key that is `???` (mandatory) in verl's config and that the command never sets.",
    "verl stops with MissingMandatoryValue as soon as it reads the key.",
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
)
CONFIG_OMEGACONF = declare(
    "config/omegaconf",
    "OmegaConf rejects the merge",
    "OmegaConf 拒绝合并",
    "A YAML fragment that OmegaConf cannot merge onto verl's defaults.",
    "verl merges configs with OmegaConf; what it rejects never reaches the trainer.",
)

# -- override/ ------------------------------------------------------------------
OVERRIDE_NEEDS_PLUS = declare(
    "override/needs-plus",
    "New key without `+`",
    "新增配置项缺少 `+`",
    "An override of a key that is not in verl's config (its parent is empty there), written without `+`.",
    "Hydra adds keys only with `+` (or `++`); without it the job stops at start-up.",
    bad=_sh("actor_rollout_ref.rollout.engine_kwargs.sglang.attention_backend=triton"),
    good=_sh("+actor_rollout_ref.rollout.engine_kwargs.sglang.attention_backend=triton"),
)
OVERRIDE_PLUS_ON_EXISTING = declare(
    "override/plus-on-existing",
    "`+` on a key that exists",
    "对已存在的配置项使用 `+`",
    "An override written `+key=value` for a key that verl's config already has.",
    "Hydra refuses to append an existing key; write `key=value` (or `++key=value`).",
    bad=_sh("+trainer.total_epochs=2"),
    good=_sh("trainer.total_epochs=2"),
)
OVERRIDE_DELETE_MISSING = declare(
    "override/delete-missing",
    "Deleting a key that does not exist",
    "删除不存在的配置项",
    "An override `~key` for a key verl's config does not have.",
    "Hydra stops: there is nothing to delete.",
    bad=_sh("~trainer.no_such_key"),
    good=_sh("trainer.total_epochs=2"),
)
OVERRIDE_UNKNOWN_GROUP = declare(
    "override/unknown-group",
    "Unknown config group",
    "配置组不存在",
    "An override that Hydra reads as a config group choice, for a group verl's config does not have.",
    "Hydra stops at start-up.",
)
# What a group option the release lacks would have defined: keys there are judged against the default option, so
# what Hydra or verl would make of them is not known; their findings are folded under the choice.
_UNDER_A_CHOICE = (
    "config/unknown-key",
    "config/unknown-section",
    "config/not-a-field",
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
    folds=_UNDER_A_CHOICE,
    bad=_sh("model_engine=no_such_engine"),
    good=_sh("model_engine=megatron"),
)
OVERRIDE_REJECTED = declare(
    "override/rejected",
    "Override Hydra rejects",
    "Hydra 拒绝的覆盖项",
    "Any other override that Hydra's own parser and composition reject; the message quotes Hydra.",
    "What Hydra rejects stops the job at start-up.",
)
OVERRIDE_MALFORMED = declare(
    "override/malformed",
    "Override Hydra cannot parse",
    "Hydra 无法解析的覆盖项",
    "A command-line override that is not valid Hydra override syntax (unbalanced brackets or quotes).",
    "Hydra stops before composing the config.",
    bad=_sh("trainer.logger=[console"),
    good=_sh("trainer.logger=[console]"),
)
OVERRIDE_SWEEP_WITHOUT_MULTIRUN = declare(
    "override/sweep-without-multirun",
    "Sweep without `--multirun`",
    "未使用 `--multirun` 的参数扫描",
    "A sweep value (`a=1,2`) in a command that does not run Hydra with `--multirun`.",
    "Hydra refuses a sweep in a single run.",
    bad=_sh("trainer.total_epochs=1,2"),
    good=_sh("trainer.total_epochs=2"),
)
OVERRIDE_UNKNOWN_FLAG = declare(
    "override/unknown-flag",
    "Unknown Hydra flag",
    "Hydra 不支持的命令行参数",
    "A `--flag` that Hydra's command line does not have.",
    "The script exits with 'unrecognized arguments' before training.",
    bad=_sh("--config-nam=ppo_trainer"),
    good=_sh("--config-name=ppo_trainer"),
)
OVERRIDE_FLAG_NEEDS_VALUE = declare(
    "override/flag-needs-value",
    "Hydra flag without its value",
    "Hydra 参数缺少取值",
    "A Hydra flag such as `--config-name` at the end of the command, with no value.",
    "Hydra's argument parser stops.",
    bad=_sh("--config-name"),
    good=_sh("--config-name ppo_trainer"),
)

# -- defaults/ ------------------------------------------------------------------
DEFAULTS_MISMATCH = declare(
    "defaults/mismatch",
    "Default shown differs from verl's",
    "页面所示默认值与 verl 不一致",
    "A YAML block declared as verl's defaults (`check=\"defaults\"`) with a value verl's default config does not have.",
    "Readers copy defaults from the page; a wrong one misleads them.",
    bad=Example("md", '```yaml {check="defaults"}\ntrainer:\n  total_epochs: 99\n```\n'),
    good=Example("md", '```yaml {check="defaults"}\ntrainer:\n  total_epochs: 30\n```\n'),
)
DEFAULTS_NOT_A_DEFAULT = declare(
    "defaults/not-a-default",
    "Key shown as a default that verl lacks",
    "页面所示默认项在 verl 中不存在",
    "A key in a defaults block that verl's default config does not have.",
    "The page documents a setting that does not exist.",
    bad=Example(
        "md",
        '```yaml {check="defaults"}\nactor_rollout_ref:\n  rollout:\n    engine_kwargs:\n      sglang:\n'
        "        attention_backend: triton\n```\n",
    ),
    good=Example("md", '```yaml {check="defaults"}\ntrainer:\n  total_epochs: 30\n```\n'),
)

# -- engine/ and delta/ ------------------------------------------------------------------
ENGINE_UNKNOWN_BACKEND = declare(
    "engine/unknown-backend",
    "Backend name no engine registers",
    "未注册的检查点引擎后端名",
    "A `checkpoint_engine.backend` value (or an `engine_kwargs` key) that no checkpoint engine registers.",
    "verl looks the engine up by that name and stops; on Ascend the HCCL engine is registered as `nccl`.",
    fix={
        "": "use one of the registered backend names listed above (`verl:`)",
        "kwargs-key": "key the kwargs by the backend in effect: `engine_kwargs.{backend}.<name>=…` "
        "(on Ascend the HCCL engine's name is `nccl`)",
        "hccl": "set `actor_rollout_ref.rollout.checkpoint_engine.backend=nccl`: on Ascend the name `nccl` "
        "loads the HCCL engine, and its kwargs go under `engine_kwargs.nccl`",
    },
    fix_zh={
        "": "使用上方 `verl:` 一行列出的已注册后端名称",
        "kwargs-key": "按当前生效的后端为参数指定键：`engine_kwargs.{backend}.<name>=…`（在昇腾上，HCCL 引擎的名称为 "
        "`nccl`）",
        "hccl": "设置 `actor_rollout_ref.rollout.checkpoint_engine.backend=nccl`：在昇腾上，`nccl` "
        "这一名称加载的是 HCCL 引擎，其参数位于 `engine_kwargs.nccl` 下",
    },
    page=PAGE_NCCL_HCCL,
    bad=_npu(f"{_CKPT}.backend=hccl"),
    good=_npu(f"{_CKPT}.backend=nccl"),
)
ENGINE_KWARGS_IGNORED = declare(
    "engine/kwargs-ignored",
    "engine_kwargs under another backend",
    "engine_kwargs 不在当前后端下",
    "`engine_kwargs.<name>` where `<name>` is not the backend in effect.",
    "verl passes only `engine_kwargs[<backend>]` to the engine: the rest is silently ignored.",
    fix={
        "": "move these kwargs under `engine_kwargs.{backend}` (the backend in effect), or drop them",
        "after-fix": "rename the key as the message says when you correct the backend",
    },
    fix_zh={
        "": "将这些参数移到 `engine_kwargs.{backend}`（当前生效的后端）下，或删除它们",
        "after-fix": "修正后端名称时，按问题描述重命名该配置项",
    },
    page=PAGE_BY_BACKEND,
    bad=_npu(f"{_CKPT}.backend=nccl", f"+{_CKPT}.engine_kwargs.hccl.rebuild_group=False"),
    good=_npu(f"{_CKPT}.backend=nccl", f"+{_CKPT}.engine_kwargs.nccl.rebuild_group=False"),
)
ENGINE_KWARGS_NOT_MAPPING = declare(
    "engine/kwargs-not-mapping",
    "engine_kwargs entry is not a mapping",
    "engine_kwargs 条目不是映射",
    "`engine_kwargs.<backend>` set to a plain value instead of a mapping of constructor arguments.",
    "verl unpacks it as keyword arguments of the engine's constructor.",
)
ENGINE_UNKNOWN_KWARG = declare(
    "engine/unknown-kwarg",
    "Argument the engine's constructor does not take",
    "引擎构造函数不接受的参数",
    "A key under `engine_kwargs.<backend>` that the engine class's `__init__` does not accept on this device.",
    "Building the engine raises TypeError (unexpected keyword argument).",
    fix="remove the argument: the engine's constructor does not take it on this device",
    fix_zh="删除该参数：在该设备上，引擎的构造函数不接受它",
    page=PAGE_BY_BACKEND,
    bad=_npu(f"{_CKPT}.backend=nccl", f"+{_CKPT}.engine_kwargs.nccl.multi_sender=True"),
    good=_npu(f"{_CKPT}.backend=nccl", f"+{_CKPT}.engine_kwargs.nccl.rebuild_group=False"),
)
ENGINE_INJECTED_KWARG = declare(
    "engine/injected-kwarg",
    "Argument verl passes itself",
    "由 verl 自行传入的参数",
    "A key under `engine_kwargs.<backend>` that verl already passes to the engine (e.g. `bucket_size`).",
    "The constructor gets the argument twice and raises TypeError (multiple values for keyword argument).",
    fix="remove it from engine_kwargs: verl passes it itself",
    fix_zh="从 engine_kwargs 中删除该参数：verl 会自行传入",
    page=PAGE_BY_BACKEND,
    bad=_npu(f"{_CKPT}.backend=nccl", f"+{_CKPT}.engine_kwargs.nccl.bucket_size=512"),
    good=_npu(f"{_CKPT}.backend=nccl", f"{_CKPT}.update_weights_bucket_megabytes=512"),
)
ENGINE_WRONG_TYPE = declare(
    "engine/wrong-type",
    "Engine argument of the wrong type",
    "引擎参数类型错误",
    "An `engine_kwargs` value whose type differs from the constructor parameter's annotation or default.",
    "The engine receives a value it does not expect (a string where it compares a bool, for instance).",
    fix="give the type the constructor's default has",
    fix_zh="按构造函数默认值的类型填写",
    page=PAGE_BY_BACKEND,
    bad=_npu(f"{_CKPT}.backend=nccl", f"+{_CKPT}.engine_kwargs.nccl.rebuild_group=sometimes"),
    good=_npu(f"{_CKPT}.backend=nccl", f"+{_CKPT}.engine_kwargs.nccl.rebuild_group=False"),
)
ENGINE_NPU_DEVICE = declare(
    "engine/npu-device",
    "Engine needs `device: npu` on Ascend",
    "昇腾上引擎需设置 `device: npu`",
    'An engine whose constructor compares its `device` argument with "npu", used on Ascend without `device: npu`.',
    "Without it the engine takes its CUDA path on an NPU.",
    fix="add `actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.{backend}.device=npu`",
    fix_zh="添加 `actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.{backend}.device=npu`",
    page="backends/mooncake-kimi/",
    bad=_npu(f"{_CKPT}.backend=mooncake"),
    good=_npu(f"{_CKPT}.backend=mooncake", f"+{_CKPT}.engine_kwargs.mooncake.device=npu"),
)
ENGINE_NOT_ON_DEVICE = declare(
    "engine/not-on-device",
    "Backend not registered on this device",
    "后端在当前设备上未注册",
    "A backend whose engine module does not register on the device the job runs on.",
    "verl cannot find the engine on that device and stops.",
    fix={
        "": "pick a backend registered on this device",
        "delta_sharded": "on Ascend use `backend=nccl` (HCCL); delta_sharded is CUDA/NCCL-only in this verl release",
    },
    fix_zh={
        "": "选择在该设备上注册的后端",
        "delta_sharded": "在昇腾上使用 `backend=nccl`（HCCL）；在此 verl 版本中 delta_sharded 仅支持 CUDA/NCCL",
    },
    page={"delta_sharded": PAGE_DELTA, "": PAGE_NCCL_HCCL},
    bad=_npu(f"{_CKPT}.backend=delta_sharded"),
    good=_npu(f"{_CKPT}.backend=nccl"),
)
DELTA_REJECTED = declare(
    "delta/rejected",
    "delta_sharded setup verl rejects",
    "verl 拒绝的 delta_sharded 配置",
    "A `delta_sharded` setup that one of the `raise` statements in verl's delta engine rejects.",
    "The job stops at its first weight sync, after the cluster has been allocated.",
    fix="change the setting named in the message, or use another backend (e.g. nccl)",
    fix_zh="修改问题描述中指出的配置，或改用其他后端（如 nccl）",
    page=PAGE_DELTA,
    bad=_sh(f"{_CKPT}.backend=delta_sharded", "actor_rollout_ref.rollout.name=trtllm", args=("--device", "gpu")),
    good=_sh(f"{_CKPT}.backend=nccl", "actor_rollout_ref.rollout.name=trtllm", args=("--device", "gpu")),
)

# -- command/ and verl/ ------------------------------------------------------------------
COMMAND_MISSING_DASH_M = declare(
    "command/missing-dash-m",
    "Module run without `-m`",
    "运行模块时缺少 `-m`",
    "`python verl.trainer.main_ppo`: a module name given to Python as if it were a file.",
    "Python looks for a file of that name and stops.",
    fix="add `-m` before the module name",
    fix_zh="在模块名前加上 `-m`",
    bad=Example("sh", "python3 verl.trainer.main_ppo trainer.total_epochs=2\n"),
    good=Example("sh", "python3 -m verl.trainer.main_ppo trainer.total_epochs=2\n"),
)
COMMAND_UNKNOWN_ENTRY_POINT = declare(
    "command/unknown-entry-point",
    "verl has no such module",
    "verl 中不存在该模块",
    "`python -m verl.<module>` for a module this verl release does not have.",
    "Python stops with 'No module named …'.",
    fix="run an entry point this verl release has (named in the message)",
    fix_zh="改为运行本 verl 版本中存在的入口模块（见问题描述）",
    bad=Example("sh", "python3 -m verl.trainer.main_ppx trainer.total_epochs=2\n"),
    good=Example("sh", "python3 -m verl.trainer.main_ppo trainer.total_epochs=2\n"),
)
VERL_CONFIG_DRIFT = declare(
    "verl/config-drift",
    "verl's YAML and dataclass disagree",
    "verl 的 YAML 与 dataclass 不一致",
    "A field of verl's CheckpointEngineConfig whose default differs from (or is missing in) the YAML block.",
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
)
