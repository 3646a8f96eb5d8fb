"""Rules on values verl requires or accepts: read statically from verl's source (``checks/required_values.py``), and
what verl's own startup code rejects when the startup stage runs it in its own environment (``startup/``)."""

from __future__ import annotations

from verl_cookbook.rules import declare

CONFIG_REQUIRED_MISSING = declare(
    "config/required-missing",
    "Required value never set",
    "必填项未设置",
    "A key verl's config marks `???` (mandatory) that no override or config sets, in a section that is on.",
    "Hydra raises MissingMandatoryValue when verl reads it, before any training step.",
    message={
        "": "`{key}` is required (`???` in verl's config) and this command does not set it: verl stops when "
        "it reads it",
        "pair": "neither `{new}` nor `{old}` is set: verl requires one of them when dynamic batch size is off, "
        "and rejects the command at startup (set `{new}`)",
    },
    message_zh={
        "": "`{key}` 为必填项（verl 配置中为 `???`），而该命令没有设置它：verl 读取该项时会停止",
        "pair": "`{new}` 与 `{old}` 均未设置：未开启动态批大小时 verl 要求设置其中之一，否则在启动时拒绝该命令（"
        "请设置 `{new}`）",
    },
    fix="set the key the message names, on the command line or in the config",
    fix_zh="在命令或配置中设置提示信息所列的配置项",
)
CONFIG_BOTH_SET = declare(
    "config/both-set",
    "Old and new key of a pair both set",
    "新旧两个键同时设置",
    "Both keys of a micro-batch pair (`ppo_micro_batch_size` and `ppo_micro_batch_size_per_gpu`, …) set at once, "
    "where verl's validate_config allows only one (the finding cites the statement).",
    "verl's config validation raises `ValueError` (`You have set both …`) at startup; the finding cites the line.",
    message="both `{old}` and `{new}` are set: verl rejects the command at startup; keep only `{new}` "
    "(`{old_name}` is deprecated)",
    message_zh="`{old}` 与 `{new}` 同时设置：verl 会在启动时拒绝该命令；请只保留 `{new}`（`{old_name}` 已废弃）",
    fix="remove `{old}` and keep `{new}`",
    fix_zh="删除 `{old}`，只保留 `{new}`",
)
CONFIG_VALUE_NOT_ACCEPTED = declare(
    "config/value-not-accepted",
    "Value outside the set verl accepts",
    "取值不在 verl 接受的范围内",
    "A value outside the set written in verl's source, e.g. `actor_rollout_ref.rollout.name` not registered in "
    "`_ROLLOUT_REGISTRY` (verl/workers/rollout/base.py).",
    "verl looks the name up at startup or when it builds the rollout and fails there.",
    message="rollout name `{name}` is not one verl can build (it knows {known!c}); get_rollout_class asserts the "
    "name is in its registry",
    message_zh="推理端名称 `{name}` 不在 verl 可构造的范围内（可用：{known!c}）；get_rollout_class 会断言该名称已注册",
    fix="use one of the names the message lists",
    fix_zh="改为提示信息所列的可用名称之一",
)
STARTUP_REJECTED = declare(
    "startup/rejected",
    "verl's startup rejects this value",
    "verl 启动检查拒绝该取值",
    "An override that verl's own startup code (validate_config, the config dataclasses' `__post_init__`, the trainer "
    "mode's asserts) rejects, run in a separate environment with `doctor --startup`; the message quotes verl.",
    "It is verl's own verdict on the composed config, at the line that set the value.",
    message="verl {verl} rejects this command at startup[[ (with lines {others!l})]]: {error}: {verl_message}",
    message_zh="verl {verl} 在启动时拒绝该命令[[（同时涉及第 {others!l} 行）]]：{error}: {verl_message}",
    fix="correct the override as verl's own message says",
    fix_zh="按 verl 自身的报错修改该覆盖项",
)
STARTUP_MISSING_VALUE = declare(
    "startup/missing-value",
    "verl's startup needs a value the command never sets",
    "verl 启动检查需要的值未设置",
    "A key verl's startup code requires (e.g. a micro-batch size) that no override sets; reported at the command.",
    "verl stops before training with the message the finding quotes.",
    message={
        "": "verl {verl} rejects this command at startup: no override sets {keys!c}, and verl's default does "
        "not pass: {error}: {verl_message}",
        "no-keys": "verl {verl} rejects this command at startup: no override sets a value verl requires, and verl's "
        "default does not pass: {error}: {verl_message}",
    },
    message_zh={
        "": "verl {verl} 在启动时拒绝该命令：没有覆盖项设置 {keys!c}，而 verl 的默认值无法通过检查：{error}: "
        "{verl_message}",
        "no-keys": "verl {verl} 在启动时拒绝该命令：没有覆盖项设置 verl 所需的值，而 verl 的默认值无法通过检查："
        "{error}: {verl_message}",
    },
    fix="set the keys the message names",
    fix_zh="设置提示信息所列的配置项",
)
