"""Rules about shell, JSON, YAML and Python snippets and launch scripts: the shell itself (``shell/``, ShellCheck's
``shellcheck/SC…``), exported environment (``env/``; the Ascend rules are in :mod:`.ascend`), Mooncake's CMake
options (``cmake/``), verl's model merger command line (``merger/``), JSON files (``json/``), YAML blocks (``yaml/``)
and Python examples (``python/``)."""

from __future__ import annotations

from verl_cookbook.rules import WARNING, Example, declare
from verl_cookbook.rules.config import PPO

_ENV = (
    "The library each variable belongs to (HCCL, CANN or Mooncake) reads it at start-up; a wrong one is silently "
    "ignored or fails late."
)
_MERGER = "argparse stops the merger with a usage error; the checkpoint is not merged."

# Why a value is refused (catalog.check_value's cases), after what names it: ``{name}`` of an env variable or a
# ``-D`` option.
_VALUE = {
    "": "`{value}` is not allowed: expected {expected}",
    "descending": "`{value}`: device IDs must be in strictly ascending order",
    "json": "`{value}` is not valid JSON: {error} (column {column})",
    "port-form": "`{value}`: `{part}` is not a port or a range a-b (expected {expected})",
    "port-outside": "`{value}`: port `{part}` is outside 1~65535",
    "port-backwards": "`{value}`: range `{part}` runs backwards",
    "port-overlap": "`{value}`: `{part}` overlaps another entry; HCCL requires entries that do not overlap",
}
_VALUE_ZH = {
    "": "`{value}` 不是允许的取值：应为 {expected}",
    "descending": "`{value}`：设备 ID 须严格递增",
    "json": "`{value}` 不是合法的 JSON：{error}（第 {column} 列）",
    "port-form": "`{value}`：`{part}` 不是端口号或 a-b 形式的端口范围（应为 {expected}）",
    "port-outside": "`{value}`：端口 `{part}` 超出 1~65535",
    "port-backwards": "`{value}`：范围 `{part}` 的起点大于终点",
    "port-overlap": "`{value}`：`{part}` 与其他条目重叠；HCCL 要求各条目互不重叠",
}

# What python/override-signature lists as wrong with an override's signature (its parts).
_SIGNATURE_CASES = {
    "position": "parameter `{param}` is position {here}, verl's is {there}",
    "keyword-only": "`{param}` is keyword-only here but positional-or-keyword in verl's",
    "missing": "missing parameter `{param}`[[; did you mean `{suggestion}`?]]",
    "missing-keyword": "missing keyword-only parameter `{param}`[[; did you mean `{suggestion}`?]]",
    "no-varargs": "no `*{param}`, which verl's takes",
    "no-kwargs": "no `**{param}`: verl passes its hooks keyword arguments and may add more",
    "new-required": "new required parameter `{param}`, which verl never passes",
    "new-required-keyword": "new required keyword-only parameter `{param}`, which verl never passes",
    "async": "one is `async def`, the other is not",
}
_SIGNATURE_CASES_ZH = {
    "position": "参数 `{param}` 位于第 {here} 位，verl 中位于第 {there} 位",
    "keyword-only": "`{param}` 在此处为仅限关键字参数，在 verl 中为位置或关键字参数",
    "missing": "缺少参数 `{param}`[[；是否应为 `{suggestion}`？]]",
    "missing-keyword": "缺少仅限关键字参数 `{param}`[[；是否应为 `{suggestion}`？]]",
    "no-varargs": "没有 verl 中的 `*{param}`",
    "no-kwargs": "没有 `**{param}`：verl 以关键字参数调用钩子，并可能增加新的参数",
    "new-required": "新增的必填参数 `{param}` 不会由 verl 传入",
    "new-required-keyword": "新增的必填仅限关键字参数 `{param}` 不会由 verl 传入",
    "async": "两者中一个是 `async def`，另一个不是",
}


def _value(subject: str, colon: str, cases: dict[str, str]) -> dict[str, str]:
    return {case: subject + colon + text for case, text in cases.items()}


# -- shell/ ------------------------------------------------------------------
SHELL_SYNTAX = declare(
    "shell/syntax",
    "Shell syntax error",
    "Shell 语法错误",
    "A script or shell block that `bash -n` rejects.",
    "bash stops at the error; nothing after it runs.",
    message={
        "": "bash: {error}[[ in `{near}`]]",
        "raw": "bash -n: {error}",
        "unterminated": "`{expected}` expected here (unterminated construct)",
        "reader-failed": "the shell reader failed: {error}",
    },
    message_zh={
        "": "bash：{error}[[（位于 `{near}`）]]",
        "raw": "bash -n：{error}",
        "unterminated": "此处应为 `{expected}`（结构未闭合）",
        "reader-failed": "Shell 解析器出错：{error}",
    },
    bad=Example("sh", 'if [ -n "$X" ]; then\n  echo x\n'),
    good=Example("sh", 'if [ -n "$X" ]; then\n  echo x\nfi\n'),
    fix="correct the shell at the line given",
    fix_zh="在所给的行改正 shell 代码",
)
SHELL_TIMEOUT = declare(
    "shell/timeout",
    "A shell check did not finish",
    "shell 检查未在时限内完成",
    "A script whose syntax check (`bash -n`) or ShellCheck did not finish within the time limit.",
    "What that tool would have said about it is missing.",
    message="{tool} did not finish within {seconds} s",
    message_zh="{tool} 未在 {seconds} 秒内完成",
    fix="shorten the block, or run the check again",
    fix_zh="缩短该代码块，或重新运行检查",
)
SHELL_COMMENT_ENDS_COMMAND = declare(
    "shell/comment-ends-command",
    "Comment line cuts a command short",
    "注释行截断了命令",
    "A comment line inside a command continued with `\\`: the arguments after it are not the command's.",
    "bash ends the command at the comment; the overrides after it run as a command of their own.",
    message="this comment line ends the command started on line {start}: the `\\` before it joins the comment, so "
    "`{word}` on line {next} and the lines after it are not arguments of that command (bash runs them as "
    "a command of their own)",
    message_zh="该注释行截断了第 {start} 行开始的命令：其前的 `\\` 连接的是注释，因此第 {next} 行的 `{word}` "
    "及其后各行不是该命令的参数（bash 会将它们作为独立的命令运行）",
    fix="move the comment above the command (or delete it) so that the `\\` joins the next argument",
    fix_zh="将注释移到命令上方（或删除），使 `\\` 能连接下一个参数",
    bad=Example("sh", f"{PPO} \\\n    # epochs\n    trainer.total_epochs=2\n"),
    good=Example("sh", f"# epochs\n{PPO} \\\n    trainer.total_epochs=2\n"),
)
SHELL_ORPHAN_OVERRIDES = declare(
    "shell/orphan-overrides",
    "Overrides that reach no command",
    "未传给任何命令的覆盖项",
    "Lines of overrides after a line that does not end with `\\`.",
    "bash runs them as a command of their own ('command not found'); verl never sees them.",
    message="`{word}` starts a command of its own (bash: 'command not found'): the line before does not end with "
    "`\\`, so these overrides reach no command",
    message_zh="`{word}` 成为一条独立的命令（bash 报 'command not found'）：上一行末尾没有 `\\`，"
    "这些覆盖项不会传给任何命令",
    fix="end the line before with `\\` so that these lines continue the command",
    fix_zh="在上一行末尾加上 `\\`，使这些行接续该命令",
    bad=Example("sh", f"{PPO}\n    trainer.total_epochs=2 \\\n    trainer.save_freq=10\n"),
    good=Example("sh", f"{PPO} \\\n    trainer.total_epochs=2 \\\n    trainer.save_freq=10\n"),
    folds=("config/required-missing",),  # what the cut-off command lacks may be among the lines it lost
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
        "": "脚本中从未设置 `${name}`：除非环境中已设置该变量，bash 会将其展开为空，并将 `{next}` 当作命令运行"
        "（command not found）",
        "alone": "脚本中从未设置 `${name}`：除非环境中已设置该变量，这一行不运行任何命令",
    },
    fix='set `{name}` in the script before this line (`{name}="torchrun --nproc_per_node=8 -m verl.trainer.'
    'sft_trainer"`), or write the command itself',
    fix_zh='在这一行之前设置 `{name}`（`{name}="torchrun --nproc_per_node=8 -m verl.trainer.sft_trainer"`），'
    "或直接写出命令本身",
    bad=Example("sh", "#!/usr/bin/env bash\n$COMMAND \\\n    trainer.total_epochs=2\n"),
    good=Example(
        "sh",
        f'#!/usr/bin/env bash\nCOMMAND="{PPO}"\n$COMMAND \\\n    trainer.total_epochs=2\n',
    ),
)
_CKPT_DIR = "trainer.default_local_dir=$WORKSPACE_HOME/ckpt"
SHELL_UNSET_VARIABLE = declare(
    "shell/unset-variable",
    "Value built on a lowercase variable the script never sets",
    "取值基于脚本从未设置的小写变量",
    "An assignment whose value starts with a lowercase variable that no line of the script sets, such as "
    "`WORKSPACE_HOME=$pwd` (the working directory is `$PWD` or `$(pwd)`).",
    "bash variables are case-sensitive: unless the environment sets it, the value starts empty, and a checkpoint or "
    "data path built on it (`$WORKSPACE_HOME/logs/ckpt`) starts at `/`, on the root disk of every node.",
    severity=WARNING,
    message="`${name}` is never set in this script, so `{assigned}` starts empty unless the environment sets "
    "`{name}`: a path built on `{assigned}` starts at `/`",
    message_zh="脚本中从未设置 `${name}`：除非环境中已设置该变量，`{assigned}` 的取值以空串开头，基于 `{assigned}` "
    "拼接的路径会从 `/` 开始",
    fix="write `$PWD` or `$(pwd)` for the working directory (bash variables are case-sensitive), or set `{name}` "
    "before this line",
    fix_zh="当前工作目录应写作 `$PWD` 或 `$(pwd)`（bash 变量区分大小写），或在这一行之前设置 `{name}`",
    bad=Example(
        "sh",
        f"#!/usr/bin/env bash\nWORKSPACE_HOME=$pwd\n{PPO} \\\n    trainer.default_local_dir=$WORKSPACE_HOME/ckpt\n",
    ),
    good=Example(
        "sh",
        f"#!/usr/bin/env bash\nWORKSPACE_HOME=$PWD\n{PPO} \\\n    trainer.default_local_dir=$WORKSPACE_HOME/ckpt\n",
    ),
)
SHELL_AFTER_PIPE = declare(
    "shell/after-pipe",
    "Override after `| tee`",
    "覆盖项位于 `| tee` 之后",
    "An override written after `2>&1 | tee log`: it is a file name for tee.",
    "verl never sees the setting.",
    message="`{word}` comes after `| tee` (line {line}), so it is a file name for tee, not an override: "
    "`{module}` never sees it; move it before `| tee`",
    message_zh="`{word}` 位于 `| tee`（第 {line} 行）之后，是 tee 的文件名而不是覆盖项：`{module}` 读取不到它；"
    "请将其移到 `| tee` 之前",
    fix="put every override before `2>&1 | tee …`; only the log file name goes after `tee`",
    fix_zh="将所有覆盖项放在 `2>&1 | tee …` 之前；`tee` 之后只写日志文件名",
    bad=Example("sh", f"{PPO} 2>&1 | tee run.log \\\n    trainer.total_epochs=2\n"),
    good=Example("sh", f"{PPO} \\\n    trainer.total_epochs=2 2>&1 | tee run.log\n"),
)
# ShellCheck codes that flag snippet idioms rather than mistakes: `cd dir` without `|| exit` (SC2164),
# variables set for the processes a snippet starts (SC2034), variables the reader's environment provides
# (SC2154), files sourced from the reader's machine (SC1090/SC1091). The checks pass them to `-e`; the rule says so.
SHELLCHECK_EXCLUDE = ("SC2164", "SC2034", "SC2154", "SC1090", "SC1091")
SHELLCHECK_SC = declare(
    "shellcheck/SC",
    "ShellCheck's own rules",
    "ShellCheck 规则",
    "The errors and warnings ShellCheck reports on a shell block (`-S warning`: not its info and style notes, nor "
    f"{', '.join(SHELLCHECK_EXCLUDE)}, which flag snippet idioms); the code is ShellCheck's (`shellcheck/SC2045`). "
    "Nothing is reported when ShellCheck is not installed.",
    "ShellCheck's wiki page, linked in the message, explains each one.",
    message={
        "": "{message} (https://www.shellcheck.net/wiki/{code})",
        # codes the published drift list shows get a 中文 statement before ShellCheck's own words
        "SC2283": "{message} (https://www.shellcheck.net/wiki/{code})",
    },
    message_zh={
        "": "ShellCheck 原文：{message}（说明见 https://www.shellcheck.net/wiki/{code}）",
        "SC2283": "`=` 两侧有空格，bash 将其作为命令而不是赋值运行（说明见 https://www.shellcheck.net/wiki/{code}；"
        "ShellCheck 原文：{message}）",
    },
    family=True,
    fix="follow the explanation on ShellCheck's wiki page linked in the message",
    fix_zh="按提示信息中链接的 ShellCheck wiki 页面修改",
)

# -- env/ ------------------------------------------------------------------
ENV_UNKNOWN_NAME = declare(
    "env/unknown-name",
    "Misspelt environment variable",
    "环境变量名拼写错误",
    "An exported name close to a known HCCL/Ascend variable but not one.",
    _ENV,
    message="`{name}` is not a known variable; did you mean `{suggestion}`? The misspelt name is silently ignored",
    message_zh="`{name}` 不是已知的环境变量，是否应为 `{suggestion}`？拼写错误的变量名会被静默忽略",
    fix="correct the variable's name, or remove it",
    fix_zh="改正变量名，或删除该变量",
)
ENV_NOT_EXPORTED = declare(
    "env/not-exported",
    "Variable set but not exported",
    "环境变量已赋值但未导出",
    "A known variable assigned without `export`, so the processes started do not see it.",
    _ENV,
    message="`{name}={value}` is set but never exported, so the processes this script starts do not see it; write "
    "`export {name}=…`",
    message_zh="`{name}={value}` 已赋值但未导出，脚本启动的进程读取不到它；请写作 `export {name}=…`",
    fix="write `export NAME=value`",
    fix_zh="改写为 `export 变量名=取值`",
)
ENV_PRESENCE_ENABLES = declare(
    "env/presence-enables",
    "Variable enabled by being set",
    "环境变量一经设置即生效",
    "A variable whose mere presence enables a feature, set to a value meant to turn it off.",
    _ENV,
    message="`{name}={value}` turns the feature ON: only whether `{name}` is set matters, not its value; unset it "
    "(`unset {name}`) to keep it off",
    message_zh="`{name}={value}` 会开启该功能：只要设置了 `{name}` 即生效，与取值无关；如需关闭，请取消设置（`unset "
    "{name}`）",
    fix="unset the variable to turn the feature off; do not set it to 0",
    fix_zh="如需关闭该功能，请取消设置该变量，而不是将其设为 0",
)
ENV_INVALID_VALUE = declare(
    "env/invalid-value",
    "Invalid variable value",
    "环境变量取值无效",
    "A value outside what the variable's documentation allows.",
    _ENV,
    message=_value("`{name}`", ": ", _VALUE),
    message_zh=_value("`{name}`", "：", _VALUE_ZH),
    fix="give the variable one of the values the message lists",
    fix_zh="将该变量改为提示信息所列的取值之一",
)
ENV_REQUIRES = declare(
    "env/requires",
    "Variable needs another",
    "环境变量依赖其他变量",
    "A variable that has effect only together with another this script does not export.",
    _ENV,
    message="`{name}={value}` needs `{required}` too, and this script does not export it",
    message_zh="`{name}={value}` 还需要设置 `{required}`，而该脚本没有导出它",
    fix="export the variable the message names as well",
    fix_zh="同时导出提示信息所列的变量",
)
ENV_CONFLICT = declare(
    "env/conflict",
    "Conflicting variables",
    "环境变量相互冲突",
    "Two variables whose values contradict each other.",
    _ENV,
    message="`{name}={value}` together with `{other}={other_value}`: {why}",
    message_zh="`{name}={value}` 与 `{other}={other_value}` 不能同时设置：{why}",
    fix="keep one of the two settings",
    fix_zh="两项设置中只保留一项",
)
# -- cmake/, merger/ ------------------------------------------------------------------
CMAKE_UNKNOWN_OPTION = declare(
    "cmake/unknown-option",
    "Unknown Mooncake CMake option",
    "Mooncake 不支持的 CMake 选项",
    "A `-D<NAME>` that is not one of Mooncake's CMake options.",
    "CMake only warns about an unused variable; the build is not what was meant.",
    message="`-D{name}` is not one of Mooncake's CMake options, so CMake ignores it (it only warns about an "
    "unused variable)[[; did you mean `{suggestion}`?]]",
    message_zh="`-D{name}` 不是 Mooncake 的 CMake 选项，CMake 会忽略它（只对未使用的变量给出警告）[[；是否应为 "
    "`{suggestion}`？]]",
    fix="remove the option, or correct its name to one of Mooncake's CMake options",
    fix_zh="删除该选项，或改为 Mooncake 的 CMake 选项名",
)
CMAKE_INVALID_VALUE = declare(
    "cmake/invalid-value",
    "Invalid Mooncake CMake value",
    "Mooncake CMake 选项取值无效",
    "A `-D<NAME>=<value>` outside the option's values.",
    "The build is not what was meant.",
    message=_value("`-D{name}`", ": ", _VALUE),
    message_zh=_value("`-D{name}`", "：", _VALUE_ZH),
    fix="give the option one of the values the message lists",
    fix_zh="改为提示信息所列的取值之一",
)
MERGER_ABSENT = declare(
    "merger/absent",
    "No model merger in this release",
    "该版本无 model merger 命令",
    "A `python -m verl.model_merger` command for a release without it.",
    "`python -m` finds nothing to run (that release has no `verl.model_merger` command line); the checkpoint is not "
    "merged.",
    message="verl {release} has no `{name}` command line (no argparse parser in `verl/model_merger`)",
    message_zh="verl {release} 中没有 `{name}` 命令行（`verl/model_merger` 中没有 argparse 解析器）",
    fix="use a verl release that has the model merger, or the script it had before",
    fix_zh="改用提供模型合并工具的 verl 版本，或使用该版本自带的合并脚本",
)
MERGER_MISSING_SUBCOMMAND = declare(
    "merger/missing-subcommand",
    "Merger subcommand missing",
    "缺少 model merger 子命令",
    "`python -m verl.model_merger` without `merge` or `test`.",
    _MERGER,
    message="`python -m {name}` needs a subcommand first: one of {subcommands!c}",
    message_zh="`python -m {name}` 须先给出子命令：{subcommands!c} 之一",
    fix="give a subcommand first, such as `merge`",
    fix_zh="先给出子命令，如 `merge`",
)
MERGER_UNKNOWN_SUBCOMMAND = declare(
    "merger/unknown-subcommand",
    "Unknown merger subcommand",
    "未知的 model merger 子命令",
    "A subcommand the merger's argparse parser does not have.",
    _MERGER,
    message="`{command}` is not a subcommand of `{name}`[[; did you mean `{suggestion}`?]]",
    message_zh="`{command}` 不是 `{name}` 的子命令[[；是否应为 `{suggestion}`？]]",
    fix="use one of the merger's subcommands",
    fix_zh="改用模型合并工具提供的子命令",
)
MERGER_UNKNOWN_OPTION = declare(
    "merger/unknown-option",
    "Unknown merger option",
    "未知的 model merger 选项",
    "An option the merger's parser does not have.",
    _MERGER,
    message="`{command}` has no option `{flag}` (argparse stops: unrecognized arguments)[[; only {elsewhere!c} "
    "takes it]][[; did you mean `{suggestion}`?]]",
    message_zh="`{command}` 没有选项 `{flag}`（argparse 报 unrecognized arguments 并退出）[[；只有 {elsewhere!c} "
    "接受它]][[；是否应为 `{suggestion}`？]]",
    fix="remove the option, or correct its name",
    fix_zh="删除该选项，或改正选项名",
)
MERGER_AMBIGUOUS_OPTION = declare(
    "merger/ambiguous-option",
    "Ambiguous merger option",
    "有歧义的 model merger 选项",
    "An abbreviated option that matches several options.",
    _MERGER,
    message="`{flag}` is ambiguous for `{command}`: it could be {candidates!c}",
    message_zh="`{flag}` 对 `{command}` 有歧义：可能是 {candidates!c}",
    fix="write the option in full",
    fix_zh="写出选项的完整名称",
)
MERGER_UNEXPECTED_ARGUMENT = declare(
    "merger/unexpected-argument",
    "Unexpected merger argument",
    "多余的 model merger 参数",
    "A positional argument the merger does not take.",
    _MERGER,
    message="`{command}` takes no positional argument `{arg}`",
    message_zh="`{command}` 不接受位置参数 `{arg}`",
    fix="remove the argument, or give it with its option",
    fix_zh="删除该参数，或在其前写出对应的选项",
)
MERGER_UNEXPECTED_VALUE = declare(
    "merger/unexpected-value",
    "Value given to a switch",
    "开关选项被赋值",
    "A value after an option that is a switch.",
    _MERGER,
    message="`{flag}` is a switch ({action}) and takes no value",
    message_zh="`{flag}` 是开关选项（{action}），不接受取值",
    fix="write the switch alone, without a value",
    fix_zh="只写出该开关选项，不带取值",
)
MERGER_MISSING_VALUE = declare(
    "merger/missing-value",
    "Merger option without its value",
    "model merger 选项缺少取值",
    "An option that needs a value, given none.",
    _MERGER,
    message="`{flag}` needs a value",
    message_zh="`{flag}` 需要一个值",
    fix="give the option a value",
    fix_zh="为该选项给出取值",
)
MERGER_INVALID_CHOICE = declare(
    "merger/invalid-choice",
    "Invalid merger choice",
    "model merger 选项取值无效",
    "A value outside an option's choices.",
    _MERGER,
    message="`{flag} {value}`: invalid choice[[; did you mean `{suggestion}`?]]",
    message_zh="`{flag} {value}`：取值无效[[；是否应为 `{suggestion}`？]]",
    fix="give one of the values the option accepts",
    fix_zh="改为该选项接受的取值之一",
)
MERGER_MISSING_REQUIRED = declare(
    "merger/missing-required",
    "Required merger option missing",
    "缺少必需的 model merger 选项",
    "A required option that is not given.",
    _MERGER,
    message="`{command}` requires `{flag}`[[ (one of {choices!c})]]",
    message_zh="`{command}` 须指定 `{flag}`[[（{choices!c} 之一）]]",
    fix="add the required option",
    fix_zh="补充必需的选项",
)

# -- json/, yaml/, python/ ------------------------------------------------------------------
JSON_SYNTAX = declare(
    "json/syntax",
    "Invalid JSON",
    "JSON 语法错误",
    "A JSON block or file that does not parse.",
    "Whatever reads it (HCCL's whitelist, a config) fails.",
    message={
        "": "invalid JSON: {error} (line {line}, column {column})",
        "key": "invalid JSON: {error} (line {line}, column {column}) (inside an object every value needs a "
        '"key": in front)',
        "key-ips": "invalid JSON: {error} (line {line}, column {column}) (inside an object every value needs a "
        '"key": in front; put all IPs in one array)',
        "trailing-comma": "invalid JSON: trailing comma before `{closer}` (line {line}, column {column}): JSON "
        "allows no comma after the last item of an object or array; remove it",
    },
    message_zh={
        "": "JSON 格式错误（第 {line} 行第 {column} 列），解析器原文：{error}",
        "key": 'JSON 格式错误（第 {line} 行第 {column} 列）：对象中的每个值前都须有 `"key":`（解析器原文：{error}）',
        "key-ips": 'JSON 格式错误（第 {line} 行第 {column} 列）：对象中的每个值前都须有 `"key":`，请将所有 IP '
        "放在同一个数组中（解析器原文：{error}）",
        "trailing-comma": "JSON 格式错误（第 {line} 行第 {column} 列）：`{closer}` 前有多余的逗号，JSON "
        "不允许在对象或数组的最后一项后加逗号，请删除",
    },
    bad=Example("md", '```json {check="json"}\n{"a": 1,}\n```\n'),
    good=Example("md", '```json {check="json"}\n{"a": 1}\n```\n'),
    fix="correct the JSON at the line and column given",
    fix_zh="在所给的行、列处改正 JSON",
)
JSON_UNKNOWN_SCHEMA = declare(
    "json/unknown-schema",
    "Unknown JSON schema",
    "未知的 JSON schema",
    "A JSON block naming a schema the catalog does not have.",
    "The block would go unchecked.",
    message="no schema `{schema}` in the catalog; known: {known!c}",
    message_zh="目录中没有 schema `{schema}`；已知：{known!c}",
    fix="name a schema the catalog has",
    fix_zh="改为目录中已有的 schema",
)
JSON_SCHEMA = declare(
    "json/schema-",
    "JSON that its schema rejects",
    "不符合 schema 的 JSON",
    "A JSON block that its declared schema rejects; the code names jsonschema's validator (`json/schema-required`).",
    "The file's reader (e.g. HCCL for its whitelist) expects that shape.",
    message={
        "": "{schema}[[ at `{at}`]]: {message}",
        "format": "{schema}[[ at `{at}`]]: {value!r} is not a valid {format} address",
        "additional": "{schema}[[ at `{at}`]]: {message}; the file may only have {allowed!c}",
    },
    message_zh={
        "": "{schema}[[ `{at}` 处]]：{message}",
        "format": "{schema}[[ `{at}` 处]]：{value!r} 不是有效的 {format} 地址",
        "additional": "{schema}[[ `{at}` 处]]：{message}；该文件只能包含 {allowed!c}",
    },
    family=True,
    fix="correct the value as the schema says",
    fix_zh="按 schema 的要求修改该值",
)
YAML_SYNTAX = declare(
    "yaml/syntax",
    "Invalid YAML",
    "YAML 语法错误",
    "A YAML block or config that does not parse.",
    "Hydra cannot load it.",
    message="invalid YAML: {error}",
    message_zh="YAML 格式错误：{error}",
    bad=Example("yaml", "trainer:\n  total_epochs: [2\n"),
    good=Example("yaml", "trainer:\n  total_epochs: 2\n"),
    fix="correct the YAML at the line given",
    fix_zh="在所给的行改正 YAML",
)
YAML_EMPTY = declare(
    "yaml/empty",
    "Empty YAML block",
    "空 YAML 代码块",
    "A YAML config block with nothing in it.",
    "There is nothing to check.",
    message="the YAML block is empty",
    message_zh="YAML 代码块为空",
    fix="write the block's content, or remove the block",
    fix_zh="补充代码块内容，或删除该代码块",
)
YAML_NOT_A_MAPPING = declare(
    "yaml/not-a-mapping",
    "YAML fragment is not a mapping",
    "YAML 片段不是映射",
    "A config fragment, or a YAML config given to doctor, whose top level is not a mapping.",
    "verl's config is a mapping; a list or scalar cannot be merged onto it.",
    message={
        "": "a config fragment must be a YAML mapping",
        "config": "a verl config must be a YAML mapping (such as `actor_rollout_ref: ...`), not a list or a value",
    },
    message_zh={
        "": "配置片段须为 YAML 映射",
        "config": "verl 配置须为 YAML 映射（如 `actor_rollout_ref: ...`），而不是列表或单个值",
    },
    bad=Example("md", '```yaml {check="config"}\n- trainer\n```\n'),
    good=Example("md", '```yaml {check="config"}\ntrainer:\n  total_epochs: 2\n```\n'),
    fix="write the config as a mapping, `key: value`",
    fix_zh="将配置写成映射（`键: 值`）",
)
PYTHON_SYNTAX = declare(
    "python/syntax",
    "Invalid Python",
    "Python 语法错误",
    "A Python example that does not parse.",
    "Readers copy it and it fails.",
    message="invalid Python: {error}",
    message_zh="Python 语法错误：{error}",
    bad=Example("md", '```python {check="python"}\ndef f(:\n    pass\n```\n'),
    good=Example("md", '```python {check="python"}\ndef f():\n    pass\n```\n'),
    fix="correct the Python at the line given",
    fix_zh="在所给的行改正 Python 代码",
)
PYTHON_VERL_IMPORT = declare(
    "python/verl-import",
    "Import of something verl lacks",
    "导入 verl 中不存在的对象",
    "A Python example importing a module or name this verl release does not have.",
    "The example fails at its first line.",
    message="`{path}` does not exist in verl {release}: `{name}` is not defined[[ in `{file}`]][[; did you mean "
    "`{suggestion}`?]]",
    message_zh="`{path}` 在 verl {release} 中不存在：[[`{file}` 中]]没有定义 `{name}`[[；是否应为 `{suggestion}`？]]",
    bad=Example("md", '```python {check="python"}\nfrom verl.checkpoint_engine import NoSuchEngine\n```\n'),
    good=Example(
        "md", '```python {check="python"}\nfrom verl.checkpoint_engine import CheckpointEngineRegistry\n```\n'
    ),
    fix="import the name from where it is in that release",
    fix_zh="改为从该版本中实际的位置导入",
)
PYTHON_OVERRIDE_SIGNATURE = declare(
    "python/override-signature",
    "Override with another signature",
    "重写方法的签名与基类不同",
    "A subclass method in an example that overrides verl's with a different signature (a constructor only where verl "
    "itself builds the object with the base's arguments, e.g. a tool from its config; not a Worker subclass).",
    "verl calls it with the base class's arguments.",
    message="`{cls}.{method}` overrides verl's `{base}.{method}` with another signature: {problems!p}",
    message_zh="`{cls}.{method}` 重写了 verl 的 `{base}.{method}`，但签名不同：{problems!p}",
    parts=_SIGNATURE_CASES,
    parts_zh=_SIGNATURE_CASES_ZH,
    fix="give the method the signature of the verl method it overrides",
    fix_zh="使该方法的签名与其重写的 verl 方法一致",
)
