"""Rules about the checkpoint engines: backend names, ``engine_kwargs`` and the engine's constructor (``engine/``),
and the ``delta_sharded`` setups verl rejects at run time (``delta/``)."""

from __future__ import annotations

from verl_cookbook.rules import PAGE_BY_BACKEND, PAGE_DELTA, PAGE_NCCL_HCCL, Example, declare
from verl_cookbook.rules.config import CKPT, UNDER_A_CHOICE, ppo_script


def _npu(*overrides: str) -> Example:
    return ppo_script(*overrides, head="export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3,4,5,6,7\n")


# -- engine/ and delta/ ------------------------------------------------------------------
# A finding judged again once a wrong backend name is corrected (doctor) says so first.
_W = "[[with backend `{corrected}`: ]]"
_W_ZH = "[[后端改为 `{corrected}` 后：]]"
_SUG = "[[; did you mean `{suggestion}`?]]"
_SUG_ZH = "[[；是否应为 `{suggestion}`？]]"
_AS_NCCL = "[[; on Ascend write `{registered_as}`: the HCCL engine registers itself under that name]]"
_AS_NCCL_ZH = "[[；在昇腾上请写 `{registered_as}`（HCCL 引擎以该名称注册）]]"
ENGINE_UNKNOWN_BACKEND = declare(
    "engine/unknown-backend",
    "Backend name no engine registers",
    "未注册的检查点引擎后端名",
    "A `checkpoint_engine.backend` value (or an `engine_kwargs` key) that no checkpoint engine registers.",
    "verl looks the engine up by that name and stops; on Ascend the HCCL engine is registered as `nccl`.",
    message={
        "": _W + "backend `{name}`: no checkpoint engine registers it[[ on {device}]]" + _SUG,
        "kwargs-key": _W + "engine_kwargs key `{name}`: no checkpoint engine registers that name" + _SUG + _AS_NCCL,
        "hccl": _W + "backend `{name}`: no checkpoint engine registers that name" + _SUG + _AS_NCCL,
    },
    message_zh={
        "": _W_ZH + "后端 `{name}`：[[在 {device} 上]]没有检查点引擎以该名称注册" + _SUG_ZH,
        "kwargs-key": _W_ZH + "engine_kwargs 的键 `{name}`：没有检查点引擎以该名称注册" + _SUG_ZH + _AS_NCCL_ZH,
        "hccl": _W_ZH + "后端 `{name}`：没有检查点引擎以该名称注册" + _SUG_ZH + _AS_NCCL_ZH,
    },
    extra=("as_kwargs_key",),
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
    bad=_npu(f"{CKPT}.backend=hccl"),
    good=_npu(f"{CKPT}.backend=nccl"),
)
ENGINE_KWARGS_IGNORED = declare(
    "engine/kwargs-ignored",
    "engine_kwargs under another backend",
    "engine_kwargs 不在当前后端下",
    "`engine_kwargs.<name>` where `<name>` is not the backend in effect.",
    "verl passes only `engine_kwargs[<backend>]` to the engine: the rest is silently ignored.",
    message={
        "": "[[with backend `{corrected}`: ]]`{path}` is silently ignored: verl only reads "
        "`engine_kwargs.<backend>`, and the backend in effect is `{in_effect}`[[ (on Ascend the HCCL engine is "
        "registered as `{registered_as}`: put "
        "these under `engine_kwargs.{registered_as}`)]]",
        "after-fix": "`{path}`: once the backend is corrected to `{corrected}`, verl reads only "
        "`engine_kwargs.{corrected}`, so this setting would be ignored; write `{new}` instead",
    },
    message_zh={
        "": "[[后端改为 `{corrected}` 后：]]`{path}` 被静默忽略：verl 只读取 `engine_kwargs.<后端名>`，"
        "而当前生效的后端为 `{in_effect}`[[（在昇腾上 HCCL 引擎注册为 `{registered_as}`："
        "请将这些参数放在 `engine_kwargs.{registered_as}` 下）]]",
        "after-fix": "`{path}`：后端修正为 `{corrected}` 后，verl 只读取 `engine_kwargs.{corrected}`，该设置将被忽略；"
        "请改写为 `{new}`",
    },
    extra=("key",),
    fix={
        "": "move these kwargs under `engine_kwargs.{backend}` (the backend in effect), or drop them",
        "after-fix": "rename the key as the message says when you correct the backend",
    },
    fix_zh={
        "": "将这些参数移到 `engine_kwargs.{backend}`（当前生效的后端）下，或删除它们",
        "after-fix": "修正后端名称时，按提示信息重命名该配置项",
    },
    page=PAGE_BY_BACKEND,
    bad=_npu(f"{CKPT}.backend=nccl", f"+{CKPT}.engine_kwargs.hccl.rebuild_group=False"),
    good=_npu(f"{CKPT}.backend=nccl", f"+{CKPT}.engine_kwargs.nccl.rebuild_group=False"),
)
ENGINE_KWARGS_NOT_MAPPING = declare(
    "engine/kwargs-not-mapping",
    "engine_kwargs entry is not a mapping",
    "engine_kwargs 条目不是映射",
    "`engine_kwargs.<backend>` set to a plain value instead of a mapping of constructor arguments.",
    "verl unpacks it as keyword arguments of the engine's constructor.",
    message="[[with backend `{corrected}`: ]]`{path}` must be a mapping of constructor arguments, got {value!r}",
    message_zh="[[后端改为 `{corrected}` 后：]]`{path}` 须为构造函数参数的映射，实际为 {value!r}",
    fix="write the engine's constructor parameters as a mapping, `key: value` per line",
    fix_zh="将引擎的构造参数写成映射，每行一个 `键: 值`",
)
ENGINE_UNKNOWN_KWARG = declare(
    "engine/unknown-kwarg",
    "Argument the engine's constructor does not take",
    "引擎构造函数不接受的参数",
    "A key under `engine_kwargs.<backend>` that the engine class's `__init__` does not accept on this device.",
    "Building the engine raises TypeError (unexpected keyword argument).",
    message="[[with backend `{corrected}`: ]]`engine_kwargs.{backend}.{name}`: {cls} (`{backend}`[[ on "
    "{devices}]]) takes no argument `{name}`, so building the engine raises TypeError[[; did you mean "
    "`{suggestion}`?]]",
    message_zh="[[后端改为 `{corrected}` 后：]]`engine_kwargs.{backend}.{name}`：{cls}（`{backend}`[[，{devices}]]）"
    "不接受参数 `{name}`，构造引擎时抛出 TypeError[[；是否应为 `{suggestion}`？]]",
    fix="remove the argument: the engine's constructor does not take it on this device",
    fix_zh="删除该参数：在该设备上，引擎的构造函数不接受它",
    page=PAGE_BY_BACKEND,
    bad=_npu(f"{CKPT}.backend=nccl", f"+{CKPT}.engine_kwargs.nccl.multi_sender=True"),
    good=_npu(f"{CKPT}.backend=nccl", f"+{CKPT}.engine_kwargs.nccl.rebuild_group=False"),
)
ENGINE_INJECTED_KWARG = declare(
    "engine/injected-kwarg",
    "Argument verl passes itself",
    "由 verl 自行传入的参数",
    "A key under `engine_kwargs.<backend>` that verl already passes to the engine (e.g. `bucket_size`).",
    "The constructor gets the argument twice and raises TypeError (multiple values for keyword argument).",
    message="[[with backend `{corrected}`: ]]`engine_kwargs.{backend}.{name}`: verl passes `{name}` to the engine "
    "itself, so this raises TypeError (multiple values for keyword argument)[[; set `{instead}` instead]]",
    message_zh="[[后端改为 `{corrected}` 后：]]`engine_kwargs.{backend}.{name}`：verl 会自行向引擎传入 `{name}`，"
    "此处再设置会抛出 TypeError（multiple values for keyword argument）[[；请改为设置 `{instead}`]]",
    fix="remove it from engine_kwargs: verl passes it itself",
    fix_zh="从 engine_kwargs 中删除该参数：verl 会自行传入",
    page=PAGE_BY_BACKEND,
    bad=_npu(f"{CKPT}.backend=nccl", f"+{CKPT}.engine_kwargs.nccl.bucket_size=512"),
    good=_npu(f"{CKPT}.backend=nccl", f"{CKPT}.update_weights_bucket_megabytes=512"),
)
ENGINE_WRONG_TYPE = declare(
    "engine/wrong-type",
    "Engine argument of the wrong type",
    "引擎参数类型错误",
    "An `engine_kwargs` value whose type differs from the constructor parameter's annotation or default.",
    "The engine receives a value it does not expect (a string where it compares a bool, for instance).",
    message="[[with backend `{corrected}`: ]]`engine_kwargs.{backend}.{name}`: expected {expected}, got {got} "
    "{value!r}",
    message_zh="[[后端改为 `{corrected}` 后：]]`engine_kwargs.{backend}.{name}`：应为 {expected} 类型，实际为 {got} "
    "{value!r}",
    fix="give the type the constructor's default has",
    fix_zh="按构造函数默认值的类型填写",
    page=PAGE_BY_BACKEND,
    bad=_npu(f"{CKPT}.backend=nccl", f"+{CKPT}.engine_kwargs.nccl.rebuild_group=sometimes"),
    good=_npu(f"{CKPT}.backend=nccl", f"+{CKPT}.engine_kwargs.nccl.rebuild_group=False"),
)
ENGINE_NPU_DEVICE = declare(
    "engine/npu-device",
    "Engine needs `device: npu` on Ascend",
    "昇腾上引擎需设置 `device: npu`",
    'An engine whose constructor compares its `device` argument with "npu", used on Ascend without `device: npu`.',
    "Without it the engine takes its CUDA path on an NPU.",
    message="[[with backend `{corrected}`: ]]`{backend}` on Ascend needs `engine_kwargs.{backend}.device: npu` "
    "(default {default!r}); `{code}` is what selects the NPU path",
    message_zh="[[后端改为 `{corrected}` 后：]]在昇腾上使用 `{backend}` 需要设置 `engine_kwargs.{backend}.device: "
    "npu`（默认值为 {default!r}）；NPU 路径由 `{code}` 选择",
    fix="add `actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.{backend}.device=npu`",
    fix_zh="添加 `actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.{backend}.device=npu`",
    page="backends/mooncake-kimi/",
    bad=_npu(f"{CKPT}.backend=mooncake"),
    good=_npu(f"{CKPT}.backend=mooncake", f"+{CKPT}.engine_kwargs.mooncake.device=npu"),
)
ENGINE_NOT_ON_DEVICE = declare(
    "engine/not-on-device",
    "Backend not registered on this device",
    "后端在当前设备上未注册",
    "A backend whose engine module does not register on the device the job runs on.",
    "verl cannot find the engine on that device and stops.",
    message="[[with backend `{corrected}`: ]]backend `{name}` is not registered on {device}: its module does not "
    "import there",
    message_zh="[[后端改为 `{corrected}` 后：]]后端 `{name}` 未在 {device} 上注册：其模块在该设备上无法导入",
    fix={
        "": "pick a backend registered on this device",
        "delta_sharded": "on Ascend use `backend=nccl` (HCCL); delta_sharded is CUDA/NCCL-only in this verl release",
    },
    fix_zh={
        "": "选择在该设备上注册的后端",
        "delta_sharded": "在昇腾上使用 `backend=nccl`（HCCL）；在此 verl 版本中 delta_sharded 仅支持 CUDA/NCCL",
    },
    page={"delta_sharded": PAGE_DELTA, "": PAGE_NCCL_HCCL},
    bad=_npu(f"{CKPT}.backend=delta_sharded"),
    good=_npu(f"{CKPT}.backend=nccl"),
)
DELTA_REJECTED = declare(
    "delta/rejected",
    "delta_sharded setup verl rejects",
    "verl 拒绝的 delta_sharded 配置",
    "A `delta_sharded` setup that one of the `raise` statements in verl's delta engine rejects.",
    "The job stops at its first weight sync, after the cluster has been allocated.",
    message="verl rejects this delta_sharded setup at run time: {error}: {verl_message}[[ ({settings!l})]]",
    message_zh="verl 在运行时拒绝该 delta_sharded 配置：{error}: {verl_message}[[（{settings!l}）]]",
    fix="change the setting named in the message, or use another backend (e.g. nccl)",
    fix_zh="修改提示信息中指出的配置，或改用其他后端（如 nccl）",
    page=PAGE_DELTA,
    bad=ppo_script(f"{CKPT}.backend=delta_sharded", "actor_rollout_ref.rollout.name=trtllm", args=("--device", "gpu")),
    good=ppo_script(f"{CKPT}.backend=nccl", "actor_rollout_ref.rollout.name=trtllm", args=("--device", "gpu")),
)


# -- the training engine (model engine) -------------------------------------------------------
ENGINE_UNKNOWN_MODEL_BACKEND = declare(
    "engine/unknown-model-backend",
    "Training strategy no model engine registers",
    "未注册的训练引擎后端",
    "An actor, ref or critic `strategy` that no `EngineRegistry.register(...)` of the release registers for that "
    "model type (on the device, when one is known).",
    "verl builds the worker's engine with `EngineRegistry.get_engine_cls(model_type, strategy)`, which stops with "
    "`AssertionError: Unknown backend: <strategy>`; the `<strategy>.*` keys written for it are not in the config.",
    message={
        "": "`{key}={name}`: verl {release} registers no {model_type} engine named `{name}`[[ on {device}]], so "
        "building the worker's engine stops with `AssertionError: Unknown backend: {name}` (it registers "
        "{offered!l})[[; did you mean `{suggestion}`?]]",
    },
    message_zh={
        "": "`{key}={name}`：verl {release} [[在 {device} 上]]没有注册名为 `{name}` 的 {model_type} 引擎，"
        "构造 worker 的引擎时以 `AssertionError: Unknown backend: {name}` 退出（已注册：{offered!l}）"
        "[[；是否应为 `{suggestion}`？]]",
    },
    fix="use a strategy the release registers (listed above), or the model_engine option that sets one "
    "(`model_engine=megatron` on Ascend runs MindSpeed under the name `megatron`)",
    fix_zh="改用该版本已注册的 strategy（见上方列表），或使用设置该 strategy 的 model_engine 选项"
    "（在昇腾上，`model_engine=megatron` 以 `megatron` 这一名称运行 MindSpeed）",
    folds=UNDER_A_CHOICE,
    bad=_npu("actor_rollout_ref.actor.strategy=mindspeed"),
    good=_npu("actor_rollout_ref.actor.strategy=fsdp2"),
)
