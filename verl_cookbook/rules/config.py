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
declare(
    "config/unknown-key",
    "Unknown config key",
    "配置项不存在",
    "A key that verl's composed config does not have (a typo, or a key of another verl release).",
    "Hydra's config is in struct mode: it stops at start-up on a key it does not know.",
    fix={
        "": "fix the key or drop it (or add it with `+` if it is yours); Hydra rejects unknown keys",
        "suggested": "fix the key as suggested, or drop it; Hydra rejects unknown keys",
    },
    bad=_sh("trainer.total_epoch=2"),
    good=_sh("trainer.total_epochs=2"),
)
declare(
    "config/not-a-mapping",
    "Key set below a plain value",
    "在非映射的配置值下设置子项",
    "A dotted key that goes below a value that is not a mapping in verl's config (`trainer.total_epochs.x`).",
    "Hydra cannot set a key inside a number or a string; the job stops at start-up.",
    bad=_sh("trainer.total_epochs.max=2"),
    good=_sh("trainer.total_epochs=2"),
)
declare(
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
_UNCONVERTED = (
    "`{key}`: {value!r} is {got}, but `{cls}.{field}` is `{annotation}`; verl builds `{cls}` with "
    "hydra.utils.instantiate ({built}), which passes the value on unconverted"
)
_UNCONVERTED_ZH = (
    "`{key}`：{value!r} 是{got}，但 `{cls}.{field}` 的类型是 `{annotation}`；verl 通过 hydra.utils.instantiate 构造 "
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
    bad=Example(
        "sh",
        f"#!/usr/bin/env bash\nOPTIM=\"actor_rollout_ref.actor.optim.betas='[0.9,0.95]'\"\n{_PPO} \\\n    $OPTIM\n",
    ),
    good=Example(
        "sh",
        f'#!/usr/bin/env bash\nOPTIM="actor_rollout_ref.actor.optim.betas=[0.9,0.95]"\n{_PPO} \\\n    $OPTIM\n',
    ),
)
declare(
    "config/not-a-field",
    "Key added where verl's dataclass has no field",
    "新增的配置项不是 dataclass 字段",
    "A key added with `+` under a node that verl turns into a dataclass without that field.",
    "Hydra accepts the key, but building the dataclass raises TypeError (unexpected keyword argument).",
    bad=_sh("+actor_rollout_ref.rollout.checkpoint_engine.bucket_mb=512"),
    good=_sh("actor_rollout_ref.rollout.checkpoint_engine.update_weights_bucket_megabytes=512"),
)
declare(
    "config/legacy-key",
    "Legacy key the entry point never reads",
    "入口不再读取的旧配置项",
    "A key Hydra still accepts but the entry point no longer reads (only another entry point migrates it).",
    "The setting is silently without effect: the job runs, just not as written.",
    severity=WARNING,
    bad=_sh("reward_model.reward_manager=naive"),
    good=_sh("reward.reward_manager.name=naive"),
)
declare(
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
declare(
    "config/omegaconf",
    "OmegaConf rejects the merge",
    "OmegaConf 拒绝合并",
    "A YAML fragment that OmegaConf cannot merge onto verl's defaults.",
    "verl merges configs with OmegaConf; what it rejects never reaches the trainer.",
)

# -- override/ ------------------------------------------------------------------
declare(
    "override/needs-plus",
    "New key without `+`",
    "新增配置项缺少 `+`",
    "An override of a key that is not in verl's config (its parent is empty there), written without `+`.",
    "Hydra adds keys only with `+` (or `++`); without it the job stops at start-up.",
    bad=_sh("actor_rollout_ref.rollout.engine_kwargs.sglang.attention_backend=triton"),
    good=_sh("+actor_rollout_ref.rollout.engine_kwargs.sglang.attention_backend=triton"),
)
declare(
    "override/plus-on-existing",
    "`+` on a key that exists",
    "对已存在的配置项使用 `+`",
    "An override written `+key=value` for a key that verl's config already has.",
    "Hydra refuses to append an existing key; write `key=value` (or `++key=value`).",
    bad=_sh("+trainer.total_epochs=2"),
    good=_sh("trainer.total_epochs=2"),
)
declare(
    "override/delete-missing",
    "Deleting a key that does not exist",
    "删除不存在的配置项",
    "An override `~key` for a key verl's config does not have.",
    "Hydra stops: there is nothing to delete.",
    bad=_sh("~trainer.no_such_key"),
    good=_sh("trainer.total_epochs=2"),
)
declare(
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
    folds=_UNDER_A_CHOICE,
    bad=_sh("model_engine=no_such_engine"),
    good=_sh("model_engine=megatron"),
)
declare(
    "override/rejected",
    "Override Hydra rejects",
    "Hydra 拒绝的覆盖项",
    "Any other override that Hydra's own parser and composition reject; the message quotes Hydra.",
    "What Hydra rejects stops the job at start-up.",
)
declare(
    "override/malformed",
    "Override Hydra cannot parse",
    "Hydra 无法解析的覆盖项",
    "A command-line override that is not valid Hydra override syntax (unbalanced brackets or quotes).",
    "Hydra stops before composing the config.",
    bad=_sh("trainer.logger=[console"),
    good=_sh("trainer.logger=[console]"),
)
declare(
    "override/sweep-without-multirun",
    "Sweep without `--multirun`",
    "未使用 `--multirun` 的参数扫描",
    "A sweep value (`a=1,2`) in a command that does not run Hydra with `--multirun`.",
    "Hydra refuses a sweep in a single run.",
    bad=_sh("trainer.total_epochs=1,2"),
    good=_sh("trainer.total_epochs=2"),
)
declare(
    "override/unknown-flag",
    "Unknown Hydra flag",
    "Hydra 不支持的命令行参数",
    "A `--flag` that Hydra's command line does not have.",
    "The script exits with 'unrecognized arguments' before training.",
    bad=_sh("--config-nam=ppo_trainer"),
    good=_sh("--config-name=ppo_trainer"),
)
declare(
    "override/flag-needs-value",
    "Hydra flag without its value",
    "Hydra 参数缺少取值",
    "A Hydra flag such as `--config-name` at the end of the command, with no value.",
    "Hydra's argument parser stops.",
    bad=_sh("--config-name"),
    good=_sh("--config-name ppo_trainer"),
)

# -- defaults/ ------------------------------------------------------------------
declare(
    "defaults/mismatch",
    "Default shown differs from verl's",
    "页面所示默认值与 verl 不一致",
    "A YAML block declared as verl's defaults (`check=\"defaults\"`) with a value verl's default config does not have.",
    "Readers copy defaults from the page; a wrong one misleads them.",
    bad=Example("md", '```yaml {check="defaults"}\ntrainer:\n  total_epochs: 99\n```\n'),
    good=Example("md", '```yaml {check="defaults"}\ntrainer:\n  total_epochs: 30\n```\n'),
)
declare(
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
declare(
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
    page=PAGE_NCCL_HCCL,
    bad=_npu(f"{_CKPT}.backend=hccl"),
    good=_npu(f"{_CKPT}.backend=nccl"),
)
declare(
    "engine/kwargs-ignored",
    "engine_kwargs under another backend",
    "engine_kwargs 不在当前后端下",
    "`engine_kwargs.<name>` where `<name>` is not the backend in effect.",
    "verl passes only `engine_kwargs[<backend>]` to the engine: the rest is silently ignored.",
    fix={
        "": "move these kwargs under `engine_kwargs.{backend}` (the backend in effect), or drop them",
        "after-fix": "rename the key as the message says when you correct the backend",
    },
    page=PAGE_BY_BACKEND,
    bad=_npu(f"{_CKPT}.backend=nccl", f"+{_CKPT}.engine_kwargs.hccl.rebuild_group=False"),
    good=_npu(f"{_CKPT}.backend=nccl", f"+{_CKPT}.engine_kwargs.nccl.rebuild_group=False"),
)
declare(
    "engine/kwargs-not-mapping",
    "engine_kwargs entry is not a mapping",
    "engine_kwargs 条目不是映射",
    "`engine_kwargs.<backend>` set to a plain value instead of a mapping of constructor arguments.",
    "verl unpacks it as keyword arguments of the engine's constructor.",
)
declare(
    "engine/unknown-kwarg",
    "Argument the engine's constructor does not take",
    "引擎构造函数不接受的参数",
    "A key under `engine_kwargs.<backend>` that the engine class's `__init__` does not accept on this device.",
    "Building the engine raises TypeError (unexpected keyword argument).",
    fix="remove the argument: the engine's constructor does not take it on this device",
    page=PAGE_BY_BACKEND,
    bad=_npu(f"{_CKPT}.backend=nccl", f"+{_CKPT}.engine_kwargs.nccl.multi_sender=True"),
    good=_npu(f"{_CKPT}.backend=nccl", f"+{_CKPT}.engine_kwargs.nccl.rebuild_group=False"),
)
declare(
    "engine/injected-kwarg",
    "Argument verl passes itself",
    "由 verl 自行传入的参数",
    "A key under `engine_kwargs.<backend>` that verl already passes to the engine (e.g. `bucket_size`).",
    "The constructor gets the argument twice and raises TypeError (multiple values for keyword argument).",
    fix="remove it from engine_kwargs: verl passes it itself",
    page=PAGE_BY_BACKEND,
    bad=_npu(f"{_CKPT}.backend=nccl", f"+{_CKPT}.engine_kwargs.nccl.bucket_size=512"),
    good=_npu(f"{_CKPT}.backend=nccl", f"{_CKPT}.update_weights_bucket_megabytes=512"),
)
declare(
    "engine/wrong-type",
    "Engine argument of the wrong type",
    "引擎参数类型错误",
    "An `engine_kwargs` value whose type differs from the constructor parameter's annotation or default.",
    "The engine receives a value it does not expect (a string where it compares a bool, for instance).",
    fix="give the type the constructor's default has",
    page=PAGE_BY_BACKEND,
    bad=_npu(f"{_CKPT}.backend=nccl", f"+{_CKPT}.engine_kwargs.nccl.rebuild_group=sometimes"),
    good=_npu(f"{_CKPT}.backend=nccl", f"+{_CKPT}.engine_kwargs.nccl.rebuild_group=False"),
)
declare(
    "engine/npu-device",
    "Engine needs `device: npu` on Ascend",
    "昇腾上引擎需设置 `device: npu`",
    'An engine whose constructor compares its `device` argument with "npu", used on Ascend without `device: npu`.',
    "Without it the engine takes its CUDA path on an NPU.",
    fix="add `actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.{backend}.device=npu`",
    page="backends/mooncake-kimi/",
    bad=_npu(f"{_CKPT}.backend=mooncake"),
    good=_npu(f"{_CKPT}.backend=mooncake", f"+{_CKPT}.engine_kwargs.mooncake.device=npu"),
)
declare(
    "engine/not-on-device",
    "Backend not registered on this device",
    "后端在当前设备上未注册",
    "A backend whose engine module does not register on the device the job runs on.",
    "verl cannot find the engine on that device and stops.",
    fix={
        "": "pick a backend registered on this device",
        "delta_sharded": "on Ascend use `backend=nccl` (HCCL); delta_sharded is CUDA/NCCL-only in this verl release",
    },
    page={"delta_sharded": PAGE_DELTA, "": PAGE_NCCL_HCCL},
    bad=_npu(f"{_CKPT}.backend=delta_sharded"),
    good=_npu(f"{_CKPT}.backend=nccl"),
)
declare(
    "delta/rejected",
    "delta_sharded setup verl rejects",
    "verl 拒绝的 delta_sharded 配置",
    "A `delta_sharded` setup that one of the `raise` statements in verl's delta engine rejects.",
    "The job stops at its first weight sync, after the cluster has been allocated.",
    fix="change the setting named in the message, or use another backend (e.g. nccl)",
    page=PAGE_DELTA,
    bad=_sh(f"{_CKPT}.backend=delta_sharded", "actor_rollout_ref.rollout.name=trtllm", args=("--device", "gpu")),
    good=_sh(f"{_CKPT}.backend=nccl", "actor_rollout_ref.rollout.name=trtllm", args=("--device", "gpu")),
)

# -- command/ and verl/ ------------------------------------------------------------------
declare(
    "command/missing-dash-m",
    "Module run without `-m`",
    "运行模块时缺少 `-m`",
    "`python verl.trainer.main_ppo`: a module name given to Python as if it were a file.",
    "Python looks for a file of that name and stops.",
    fix="add `-m` before the module name",
    bad=Example("sh", "python3 verl.trainer.main_ppo trainer.total_epochs=2\n"),
    good=Example("sh", "python3 -m verl.trainer.main_ppo trainer.total_epochs=2\n"),
)
declare(
    "command/unknown-entry-point",
    "verl has no such module",
    "verl 中不存在该模块",
    "`python -m verl.<module>` for a module this verl release does not have.",
    "Python stops with 'No module named …'.",
    fix="run an entry point this verl release has (named in the message)",
    bad=Example("sh", "python3 -m verl.trainer.main_ppx trainer.total_epochs=2\n"),
    good=Example("sh", "python3 -m verl.trainer.main_ppo trainer.total_epochs=2\n"),
)
declare(
    "verl/config-drift",
    "verl's YAML and dataclass disagree",
    "verl 的 YAML 与 dataclass 不一致",
    "A field of verl's CheckpointEngineConfig whose default differs from (or is missing in) the YAML block.",
    "The site documents one of the two; a drift inside verl means one of them is wrong for some users.",
)
