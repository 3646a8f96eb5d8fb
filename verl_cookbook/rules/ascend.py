"""The rules about an Ascend job's environment that doctor applies to launch scripts and configs (``ascend/``):
HCCL's whitelist on the 950, the whitelist file, intra-node RoCE for kimi_ckpt_engine, ``rebuild_group`` on NPUs.
Their checks are in :mod:`verl_cookbook.doctor_rules.ascend_env`."""

from __future__ import annotations

from verl_cookbook.rules import PAGE_MOONCAKE_KIMI, PAGE_NCCL_HCCL, PAGE_WHITELIST, Example, declare
from verl_cookbook.rules.config import PPO

# What ascend/whitelist-file lists as wrong with an HCCL whitelist file (its parts).
_WHITELIST_PARTS = {
    "unreadable": "cannot be read: {error}",
    "not-json": "not valid JSON: {error} at line {line} column {column}",
    "no-host-ip": "has no `host_ip` key (HCCL: 'json object has no property called host_ip')",
    "not-ipv4": "`{where}` {value!r} is not a dotted-decimal IPv4 address",
    "empty-list": "`{where}` must be a non-empty list of IPv4 addresses",
    "extra-key": "{message} (HCCL reads only `host_ip`)",
    "not-object": "must be a JSON object with a `host_ip` list",
    "other": "[[`{where}`: ]]{message}",
    "device-ip": "`device_ip` is reserved and not supported by HCCL: list host NIC IPs under `host_ip`",
}
_WHITELIST_PARTS_ZH = {
    "unreadable": "无法读取：{error}",
    "not-json": "不是合法的 JSON：{error}（第 {line} 行第 {column} 列）",
    "no-host-ip": "没有 `host_ip` 键（HCCL：'json object has no property called host_ip'）",
    "not-ipv4": "`{where}` 的值 {value!r} 不是点分十进制的 IPv4 地址",
    "empty-list": "`{where}` 须为非空的 IPv4 地址列表",
    "extra-key": "{message}（HCCL 只读取 `host_ip`）",
    "not-object": "须为含 `host_ip` 列表的 JSON 对象",
    "other": "[[`{where}`：]]{message}",
    "device-ip": "`device_ip` 为预留字段，HCCL 不支持：请在 `host_ip` 下列出 Host 网卡 IP",
}


_KIMI = f"{PPO} \\\n    actor_rollout_ref.rollout.checkpoint_engine.backend=kimi_ckpt_engine\n"

ASCEND_WHITELIST_REQUIRED = declare(
    "ascend/whitelist-required",
    "kimi_ckpt_engine on 950 without HCCL's whitelist",
    "Ascend 950PR/Ascend 950DT 上 `kimi_ckpt_engine` 未开启 HCCL 白名单校验",
    "`kimi_ckpt_engine` on Ascend 950PR/Ascend 950DT without `HCCL_WHITELIST_DISABLE=0` and `HCCL_WHITELIST_FILE`.",
    "verl's README requires HCCL's whitelist check for `kimi_ckpt_engine` on Ascend 950PR/Ascend 950DT (the README "
    "of verl main at 1dda039, read for 0.9.1 and checkouts; releases whose README says nothing of the 950 are not "
    "judged); what fails without it is not documented.",
    message="`{backend}` on Ascend 950PR/Ascend 950DT needs HCCL's whitelist turned on: export {missing!c}",
    message_zh="在 Ascend 950PR/Ascend 950DT 上使用 `{backend}` 需要开启 HCCL 白名单校验：请设置 {missing!c}",
    fix="export `HCCL_WHITELIST_DISABLE=0` and `HCCL_WHITELIST_FILE` pointing at a JSON file "
    'like `{{"host_ip": ["192.168.1.10", "192.168.1.11"]}}` (the host NIC IPs of every node)',
    fix_zh='设置 `HCCL_WHITELIST_DISABLE=0`，并将 `HCCL_WHITELIST_FILE` 指向形如 `{{"host_ip": ["192.168.1.10", '
    '"192.168.1.11"]}}` 的 JSON 文件（内容为各节点 Host 网卡的 IP 地址）',
    page=PAGE_WHITELIST,
    bad=Example("sh", "export ASCEND_RT_VISIBLE_DEVICES=0,1\n" + _KIMI, ("--product", "950", "--cann", "8.5.0")),
    good=Example(
        "sh",
        "export ASCEND_RT_VISIBLE_DEVICES=0,1\nexport HCCL_WHITELIST_DISABLE=0\n"
        "export HCCL_WHITELIST_FILE=/etc/hccl_whitelist.json\n" + _KIMI,
        ("--product", "950", "--cann", "8.5.0"),
    ),
)
ASCEND_KIMI_950_UNSUPPORTED = declare(
    "ascend/kimi-950-unsupported",
    "kimi_ckpt_engine on 950 with a release that does not support it",
    "在不支持的 verl 版本上于 Ascend 950PR/Ascend 950DT 使用 `kimi_ckpt_engine`",
    "`kimi_ckpt_engine` on Ascend 950PR/Ascend 950DT with a verl release whose README says the backend is not "
    "supported there (verl 0.9.0).",
    "No whitelist setting makes it supported: verl's README of that release rules the backend out on the product.",
    message="verl {release}'s README says `{backend}` is not supported on Ascend 950PR/Ascend 950DT",
    message_zh="verl {release} 的 README 写明 Ascend 950PR/Ascend 950DT 不支持 `{backend}`",
    fix="use another checkpoint engine backend (`nccl` runs on the HCCL engine) or a verl release that supports "
    "`kimi_ckpt_engine` on the 950 (0.9.1 per the README of verl main)",
    fix_zh="改用其他检查点引擎后端（`nccl` 在昇腾上即 HCCL 引擎），"
    "或改用支持在该产品上使用 `kimi_ckpt_engine` 的 verl 版本（据 verl 主分支的 README 为 0.9.1）",
    page=PAGE_WHITELIST,
    bad=Example(
        "sh",
        "export ASCEND_RT_VISIBLE_DEVICES=0,1\n" + _KIMI,
        ("--verl", "0.9.0", "--product", "950", "--cann", "8.5.0"),
    ),
    good=Example(
        "sh",
        "export ASCEND_RT_VISIBLE_DEVICES=0,1\nexport HCCL_WHITELIST_DISABLE=0\n"
        "export HCCL_WHITELIST_FILE=/etc/hccl_whitelist.json\n" + _KIMI,
        ("--verl", "0.9.1", "--product", "950", "--cann", "8.5.0"),
    ),
)
ASCEND_WHITELIST_FILE = declare(
    "ascend/whitelist-file",
    "Invalid HCCL whitelist file",
    "HCCL 白名单文件无效",
    "An `HCCL_WHITELIST_FILE` beside the script (or at an absolute path here) that is not valid JSON or not "
    '`{"host_ip": [...]}` with IPv4 addresses; a file not found here is not read, and the summary says so.',
    "With an invalid whitelist file, HCCL's whitelist check fails and so does link setup; `device_ip` is a field "
    "HCCL's documentation calls reserved and not supported yet, so addresses listed only there are not whitelisted.",
    message="`HCCL_WHITELIST_FILE={value}`: {problems!p}",
    message_zh="`HCCL_WHITELIST_FILE={value}`：{problems!p}",
    parts=_WHITELIST_PARTS,
    parts_zh=_WHITELIST_PARTS_ZH,
    fix='write the file as {{"host_ip": ["<node1 host IP>", "<node2 host IP>"]}}',
    fix_zh='将文件内容写为 `{{"host_ip": ["<节点 1 的 Host 网卡 IP>", "<节点 2 的 Host 网卡 IP>"]}}`',
    page=PAGE_WHITELIST,
)
ASCEND_INTRA_ROCE = declare(
    "ascend/intra-roce",
    "kimi_ckpt_engine with CANN ≥ 8.5.0 without intra-node RoCE",
    "CANN 8.5.0 及以上版本使用 `kimi_ckpt_engine` 时未开启节点内 RoCE",
    "`kimi_ckpt_engine` on Ascend with CANN ≥ 8.5.0 without `HCCL_INTRA_ROCE_ENABLE=1` (except on Ascend 950PR/"
    "Ascend 950DT).",
    "Inside a server, Mooncake's Ascend Direct communicates over HCCS by default, and without the variable its "
    "host-to-device (H2D) weight transfers can time out; with it, they communicate over RoCE.",
    message="`{backend}` with CANN {cann}[[ on Atlas {product}]]: verl's README asks for HCCL_INTRA_ROCE_ENABLE=1 "
    "(intra-node RoCE for Mooncake's Ascend Direct, which uses HCCS by default)",
    message_zh="以 CANN {cann}[[ 在 Atlas {product} 训练系列产品上]]使用 `{backend}`：verl 的 README 要求设置 "
    "`HCCL_INTRA_ROCE_ENABLE=1`（Mooncake 的 Ascend Direct 默认使用 HCCS 链路通信，设置后使用 RoCE 链路通信）",
    fix="`export HCCL_INTRA_ROCE_ENABLE=1` (not on Ascend 950PR/Ascend 950DT, where HCCL does not support it)",
    fix_zh="执行 `export HCCL_INTRA_ROCE_ENABLE=1`（Ascend 950PR/Ascend 950DT 除外：HCCL 在该产品上不支持此变量）",
    page=PAGE_MOONCAKE_KIMI,
    bad=Example("sh", "export ASCEND_RT_VISIBLE_DEVICES=0,1\n" + _KIMI, ("--product", "A3", "--cann", "8.5.0")),
    good=Example(
        "sh",
        "export ASCEND_RT_VISIBLE_DEVICES=0,1\nexport HCCL_INTRA_ROCE_ENABLE=1\n" + _KIMI,
        ("--product", "A3", "--cann", "8.5.0"),
    ),
)
ASCEND_REBUILD_GROUP_NPU = declare(
    "ascend/rebuild-group-npu",
    "`rebuild_group=True` on Ascend",
    "昇腾上设置 `rebuild_group=True`",
    "`engine_kwargs.nccl.rebuild_group=True` on Ascend, where the HCCL engine's `finalize()` calls a method "
    "vllm-ascend's communicator does not have.",
    "The job fails at the end of its first weight sync.",
    message="`engine_kwargs.nccl.rebuild_group=True` on Ascend fails at the end of the first weight sync: "
    "`HCCLCheckpointEngine.finalize()` calls `self.pyhccl.destroyComm(...)`, and vllm-ascend's "
    "`PyHcclCommunicator` has no such method (`AttributeError`)",
    message_zh="在昇腾上设置 `engine_kwargs.nccl.rebuild_group=True` 会在首次权重同步结束时失败："
    "`HCCLCheckpointEngine.finalize()` 会调用 `self.pyhccl.destroyComm(...)`，而 vllm-ascend 的 "
    "`PyHcclCommunicator` 没有该方法（`AttributeError`）",
    fix="keep the default `rebuild_group=False` (the group is built once and reused); if rollout replicas "
    "come and go, use `backend=mooncake` with `device=npu`, which forms its process group afresh on every sync",
    fix_zh="保持默认的 `rebuild_group=False`（通信域只建立一次并复用）；如果推理端需要扩缩容，请使用 "
    "`backend=mooncake` 并设置 `device=npu`，它在每次同步时按本次的参与方重新组建进程组",
    page=PAGE_NCCL_HCCL + "#rebuild-group-npu",
)
