"""Rules about shell, JSON, YAML and Python snippets and launch scripts: the shell itself (``shell/``, ShellCheck's
``shellcheck/SC…``), exported environment (``env/``, ``ascend/``), Mooncake's CMake options (``cmake/``), verl's
model merger command line (``merger/``), JSON files (``json/``), YAML blocks (``yaml/``) and Python examples
(``python/``)."""

from __future__ import annotations

from verl_cookbook.rules import PAGE_MOONCAKE_KIMI, PAGE_NCCL_HCCL, PAGE_WHITELIST, WARNING, Example, declare

_PPO = "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm"
_KIMI = f"{_PPO} \\\n    actor_rollout_ref.rollout.checkpoint_engine.backend=kimi_ckpt_engine\n"

# -- shell/ ------------------------------------------------------------------
declare(
    "shell/syntax",
    "Shell syntax error",
    "Shell 语法错误",
    "A script or shell block that `bash -n` rejects.",
    "bash stops at the error; nothing after it runs.",
    bad=Example("sh", 'if [ -n "$X" ]; then\n  echo x\n'),
    good=Example("sh", 'if [ -n "$X" ]; then\n  echo x\nfi\n'),
)
declare(
    "shell/timeout",
    "A shell check did not finish",
    "shell 检查未在时限内完成",
    "A script whose syntax check (`bash -n`) or ShellCheck did not finish within the time limit.",
    "What that tool would have said about it is missing.",
)
declare(
    "shell/comment-ends-command",
    "Comment line cuts a command short",
    "注释行截断了命令",
    "A comment line inside a command continued with `\\`: the arguments after it are not the command's.",
    "bash ends the command at the comment; the overrides after it run as a command of their own.",
    fix="move the comment above the command (or delete it) so that the `\\` joins the next argument",
    bad=Example("sh", f"{_PPO} \\\n    # epochs\n    trainer.total_epochs=2\n"),
    good=Example("sh", f"# epochs\n{_PPO} \\\n    trainer.total_epochs=2\n"),
)
declare(
    "shell/orphan-overrides",
    "Overrides that reach no command",
    "未传给任何命令的覆盖项",
    "Lines of overrides after a line that does not end with `\\`.",
    "bash runs them as a command of their own ('command not found'); verl never sees them.",
    fix="end the line before with `\\` so that these lines continue the command",
    bad=Example("sh", f"{_PPO}\n    trainer.total_epochs=2 \\\n    trainer.save_freq=10\n"),
    good=Example("sh", f"{_PPO} \\\n    trainer.total_epochs=2 \\\n    trainer.save_freq=10\n"),
)
SHELL_UNSET_COMMAND = declare(
    "shell/unset-command",
    "Command named by a variable the script never sets",
    "命令名是脚本从未设置的变量",
    "A command whose name is a variable (`$COMMAND data.train_files=…`) that no line of the script sets.",
    "Unless the environment sets it, bash expands it to nothing and runs the next word as the command ('command not "
    "found'), so the overrides never reach verl.",
    severity=WARNING,
    message={
        "": "`${name}` is never set in this script: unless the environment sets it, bash expands it to nothing and "
        "runs `{next}` as the command ('command not found')",
        "alone": "`${name}` is never set in this script: unless the environment sets it, this line runs nothing",
    },
    message_zh={
        "": "脚本中从未设置 `${name}`：除非环境中已设置该变量，bash 会将其展开为空，并把 `{next}` 当作命令运行"
        "（command not found）",
        "alone": "脚本中从未设置 `${name}`：除非环境中已设置该变量，这一行不运行任何命令",
    },
    fix='set `{name}` in the script before this line (`{name}="torchrun --nproc_per_node=8 -m verl.trainer.'
    'sft_trainer"`), or write the command itself',
    bad=Example("sh", "#!/usr/bin/env bash\n$COMMAND \\\n    trainer.total_epochs=2\n"),
    good=Example(
        "sh",
        '#!/usr/bin/env bash\nCOMMAND="python3 -m verl.trainer.main_ppo"\n$COMMAND \\\n    trainer.total_epochs=2\n',
    ),
)
declare(
    "shell/after-pipe",
    "Override after `| tee`",
    "覆盖项位于 `| tee` 之后",
    "An override written after `2>&1 | tee log`: it is a file name for tee.",
    "verl never sees the setting.",
    fix="put every override before `2>&1 | tee …`; only the log file name goes after `tee`",
    bad=Example("sh", f"{_PPO} 2>&1 | tee run.log \\\n    trainer.total_epochs=2\n"),
    good=Example("sh", f"{_PPO} \\\n    trainer.total_epochs=2 2>&1 | tee run.log\n"),
)
declare(
    "shellcheck/SC",
    "ShellCheck's own rules",
    "ShellCheck 规则",
    "What ShellCheck reports on a shell block; the code is ShellCheck's (`shellcheck/SC2086`).",
    "ShellCheck's wiki page, linked in the message, explains each one.",
    family=True,
)

# -- env/ and ascend/ ------------------------------------------------------------------
for code, summary, zh, catches in (
    (
        "env/unknown-name",
        "Misspelt environment variable",
        "环境变量名拼写错误",
        "An exported name close to a known HCCL/Ascend variable but not one.",
    ),
    (
        "env/not-exported",
        "Variable set but not exported",
        "环境变量已赋值但未导出",
        "A known variable assigned without `export`, so the processes started do not see it.",
    ),
    (
        "env/presence-enables",
        "Variable enabled by being set",
        "环境变量一经设置即生效",
        "A variable whose mere presence enables a feature, set to a value meant to turn it off.",
    ),
    (
        "env/invalid-value",
        "Invalid variable value",
        "环境变量取值无效",
        "A value outside what the variable's documentation allows.",
    ),
    (
        "env/requires",
        "Variable needs another",
        "环境变量依赖其他变量",
        "A variable that has effect only together with another this script does not export.",
    ),
    ("env/conflict", "Conflicting variables", "环境变量相互冲突", "Two variables whose values contradict each other."),
):
    declare(
        code,
        summary,
        zh,
        catches,
        "HCCL and CANN read these at start-up; a wrong one is silently ignored or fails late.",
    )
declare(
    "ascend/whitelist-required",
    "kimi_ckpt_engine on 950 without HCCL's whitelist",
    "Ascend 950PR/950DT 上 kimi_ckpt_engine 未开启 HCCL 白名单",
    "`kimi_ckpt_engine` on Ascend 950PR/950DT without `HCCL_WHITELIST_DISABLE=0` and `HCCL_WHITELIST_FILE`.",
    "verl's README asks for both on Ascend 950.",
    fix="export HCCL_WHITELIST_DISABLE=0 and HCCL_WHITELIST_FILE pointing at a JSON file "
    'like {{"host_ip": ["192.168.1.10", "192.168.1.11"]}} (the host NIC IPs of every node)',
    page=PAGE_WHITELIST,
    bad=Example("sh", "export ASCEND_RT_VISIBLE_DEVICES=0,1\n" + _KIMI, ("--product", "950", "--cann", "8.5.0")),
)
declare(
    "ascend/whitelist-file",
    "Invalid HCCL whitelist file",
    "HCCL 白名单文件无效",
    'An `HCCL_WHITELIST_FILE` that is missing or not `{"host_ip": [...]}` with IPv4 addresses.',
    "HCCL reads host NIC IPv4 addresses from it; `device_ip` is reserved and not supported.",
    fix='write the file as {{"host_ip": ["<node1 host IP>", "<node2 host IP>"]}}',
    page=PAGE_WHITELIST,
)
declare(
    "ascend/intra-roce",
    "kimi_ckpt_engine with CANN ≥ 8.5.0 without intra-node RoCE",
    "CANN 8.5.0 及以上版本使用 kimi_ckpt_engine 时未开启节点内 RoCE",
    "`kimi_ckpt_engine` on Ascend with CANN ≥ 8.5.0 without `HCCL_INTRA_ROCE_ENABLE=1`.",
    "Otherwise host-to-device transfers go over HCCS and time out (verl PR #5546).",
    fix="export HCCL_INTRA_ROCE_ENABLE=1 (not on Ascend 950PR/950DT, where HCCL does not support it)",
    page=PAGE_MOONCAKE_KIMI,
    bad=Example("sh", "export ASCEND_RT_VISIBLE_DEVICES=0,1\n" + _KIMI, ("--product", "A3", "--cann", "8.5.0")),
    good=Example(
        "sh",
        "export ASCEND_RT_VISIBLE_DEVICES=0,1\nexport HCCL_INTRA_ROCE_ENABLE=1\n" + _KIMI,
        ("--product", "A3", "--cann", "8.5.0"),
    ),
)
declare(
    "ascend/rebuild-group-npu",
    "`rebuild_group=True` on Ascend",
    "昇腾上设置 `rebuild_group=True`",
    "`engine_kwargs.nccl.rebuild_group=True` on Ascend, where the HCCL engine's `finalize()` calls a method "
    "vllm-ascend's communicator does not have.",
    "The job fails at the end of its first weight sync.",
    fix="keep the default `rebuild_group=False` (the group is built once and reused); if rollout replicas "
    "come and go, use `backend=mooncake` with `device=npu`, which reconnects on every sync",
    page=PAGE_NCCL_HCCL + "#rebuild-group-npu",
)

# -- cmake/, merger/ ------------------------------------------------------------------
declare(
    "cmake/unknown-option",
    "Unknown Mooncake CMake option",
    "Mooncake 不支持的 CMake 选项",
    "A `-D<NAME>` that is not one of Mooncake's CMake options.",
    "CMake only warns about an unused variable; the build is not what was meant.",
)
declare(
    "cmake/invalid-value",
    "Invalid Mooncake CMake value",
    "Mooncake CMake 选项取值无效",
    "A `-D<NAME>=<value>` outside the option's values.",
    "The build is not what was meant.",
)
for code, summary, zh, catches in (
    (
        "merger/absent",
        "No model merger in this release",
        "该版本无 model merger 命令",
        "A `python -m verl.model_merger` command for a release without it.",
    ),
    (
        "merger/missing-subcommand",
        "Merger subcommand missing",
        "缺少 model merger 子命令",
        "`python -m verl.model_merger` without `merge` or `test`.",
    ),
    (
        "merger/unknown-subcommand",
        "Unknown merger subcommand",
        "未知的 model merger 子命令",
        "A subcommand the merger's argparse parser does not have.",
    ),
    (
        "merger/unknown-option",
        "Unknown merger option",
        "未知的 model merger 选项",
        "An option the merger's parser does not have.",
    ),
    (
        "merger/ambiguous-option",
        "Ambiguous merger option",
        "有歧义的 model merger 选项",
        "An abbreviated option that matches several options.",
    ),
    (
        "merger/unexpected-argument",
        "Unexpected merger argument",
        "多余的 model merger 参数",
        "A positional argument the merger does not take.",
    ),
    (
        "merger/unexpected-value",
        "Value given to a switch",
        "开关选项被赋值",
        "A value after an option that is a switch.",
    ),
    (
        "merger/missing-value",
        "Merger option without its value",
        "model merger 选项缺少取值",
        "An option that needs a value, given none.",
    ),
    (
        "merger/invalid-choice",
        "Invalid merger choice",
        "model merger 选项取值无效",
        "A value outside an option's choices.",
    ),
    (
        "merger/missing-required",
        "Required merger option missing",
        "缺少必需的 model merger 选项",
        "A required option that is not given.",
    ),
):
    declare(code, summary, zh, catches, "argparse stops the merger with a usage error; the checkpoint is not merged.")

# -- json/, yaml/, python/ ------------------------------------------------------------------
declare(
    "json/syntax",
    "Invalid JSON",
    "JSON 语法错误",
    "A JSON block or file that does not parse.",
    "Whatever reads it (HCCL's whitelist, a config) fails.",
    bad=Example("md", '```json {check="json"}\n{"a": 1,}\n```\n'),
    good=Example("md", '```json {check="json"}\n{"a": 1}\n```\n'),
)
declare(
    "json/unknown-schema",
    "Unknown JSON schema",
    "未知的 JSON schema",
    "A JSON block naming a schema the catalog does not have.",
    "The block would go unchecked.",
)
declare(
    "json/schema-",
    "JSON that its schema rejects",
    "不符合 schema 的 JSON",
    "A JSON block that its declared schema rejects; the code names jsonschema's validator (`json/schema-required`).",
    "The file's reader (e.g. HCCL for its whitelist) expects that shape.",
    family=True,
)
declare(
    "yaml/syntax",
    "Invalid YAML",
    "YAML 语法错误",
    "A YAML block or config that does not parse.",
    "Hydra cannot load it.",
    bad=Example("yaml", "trainer:\n  total_epochs: [2\n"),
    good=Example("yaml", "trainer:\n  total_epochs: 2\n"),
)
declare(
    "yaml/empty",
    "Empty YAML block",
    "空 YAML 代码块",
    "A YAML config block with nothing in it.",
    "There is nothing to check.",
)
declare(
    "yaml/not-a-mapping",
    "YAML fragment is not a mapping",
    "YAML 片段不是映射",
    "A config fragment, or a YAML config given to doctor, whose top level is not a mapping.",
    "verl's config is a mapping; a list or scalar cannot be merged onto it.",
    bad=Example("md", '```yaml {check="config"}\n- trainer\n```\n'),
    good=Example("md", '```yaml {check="config"}\ntrainer:\n  total_epochs: 2\n```\n'),
)
declare(
    "python/syntax",
    "Invalid Python",
    "Python 语法错误",
    "A Python example that does not parse.",
    "Readers copy it and it fails.",
    bad=Example("md", '```python {check="python"}\ndef f(:\n    pass\n```\n'),
    good=Example("md", '```python {check="python"}\ndef f():\n    pass\n```\n'),
)
declare(
    "python/verl-import",
    "Import of something verl lacks",
    "导入 verl 中不存在的对象",
    "A Python example importing a module or name this verl release does not have.",
    "The example fails at its first line.",
    bad=Example("md", '```python {check="python"}\nfrom verl.checkpoint_engine import NoSuchEngine\n```\n'),
    good=Example(
        "md", '```python {check="python"}\nfrom verl.checkpoint_engine import CheckpointEngineRegistry\n```\n'
    ),
)
declare(
    "python/override-signature",
    "Override with another signature",
    "重写方法的签名与基类不同",
    "A subclass method in an example that overrides verl's with a different signature (a constructor only where verl "
    "itself builds the object with the base's arguments, e.g. a tool from its config; not a Worker subclass).",
    "verl calls it with the base class's arguments.",
)
