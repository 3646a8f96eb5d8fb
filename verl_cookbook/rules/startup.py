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
)
CONFIG_BOTH_SET = declare(
    "config/both-set",
    "Old and new key of a pair both set",
    "新旧两个键同时设置",
    "Both keys of a micro-batch pair (`ppo_micro_batch_size` and `ppo_micro_batch_size_per_gpu`, …) set at once, "
    "where verl's validate_config allows only one (the finding cites the statement).",
    "verl stops at startup with the assertion the finding quotes.",
)
CONFIG_VALUE_NOT_ACCEPTED = declare(
    "config/value-not-accepted",
    "Value outside the set verl accepts",
    "取值不在 verl 接受的范围内",
    "A value outside the set written in verl's source, e.g. `actor_rollout_ref.rollout.name` not registered in "
    "`_ROLLOUT_REGISTRY` (verl/workers/rollout/base.py).",
    "verl looks the name up at startup or when it builds the rollout and fails there.",
)
STARTUP_REJECTED = declare(
    "startup/rejected",
    "verl's startup rejects this value",
    "verl 启动检查拒绝该取值",
    "An override that verl's own startup code (validate_config, the config dataclasses' __post_init__, the trainer "
    "mode's asserts) rejects, run in a separate environment with `doctor --startup`; the message quotes verl.",
    "It is verl's own verdict on the composed config, at the line that set the value.",
)
STARTUP_MISSING_VALUE = declare(
    "startup/missing-value",
    "verl's startup needs a value the command never sets",
    "verl 启动检查需要的值未设置",
    "A key verl's startup code requires (e.g. a micro-batch size) that no override sets; reported at the command.",
    "verl stops before training with the message the finding quotes.",
)
