"""The 中文 of each rule's ``catches`` and ``why``, for the Chinese rules page (docs/tools/rules.md).

The declarations (the other modules of this package) carry these two texts in English only; the rules page
(``render.py``) reads the Chinese ones from here. One entry per declared code (a family by its declared prefix,
``shellcheck/SC``, ``json/schema-``): ``tests/test_rules_page.py`` fails when a declared rule has no entry here
and when an entry names a code that is no longer declared. Written for Ascend engineers, with the terms of
docs/glossary.md; code, keys, codes and paths stay as in the English.
"""

from __future__ import annotations

# Texts several rules share, as their English declarations share them.
_STALE = "与 verl 源码不再一致的说明会误导读者。"
_DIAGRAM = "本手册显示预先渲染的 SVG；mermaid 无法绘制的图表不显示任何内容。"
_ENV = "各变量由其所属的组件（HCCL、CANN 或 Mooncake）在启动时读取；取值错误时或被忽略而不报错，或在较晚阶段才失败。"
_UNREADABLE = "无法读取的文件中的内容均不会被检查。"
_MERGER = "argparse 以用法错误终止模型合并工具，检查点未被合并。"
_PARITY = "中英文页面内容应一致；结构不同说明译文已偏离原文。"
_DEFAULTS = "读者会从页面复制默认值，错误的默认值会误导读者。"
_REASON = "写明原因，审阅者才能区分有意跳过与遗漏的检查。"
_COVERAGE = "没有任何检查支撑的事实陈述会悄然失效，读者无法将其与经过检查的陈述区分开。"

ZH: dict[str, tuple[str, str]] = {
    # ascend
    "ascend/intra-roce": (
        "在昇腾上使用 `kimi_ckpt_engine`，CANN 版本 ≥ 8.5.0，但未设置 `HCCL_INTRA_ROCE_ENABLE=1`"
        "（Ascend 950PR/Ascend 950DT 除外）。",
        "Mooncake 的 Ascend Direct 在 Server 内默认使用 HCCS 链路通信，未设置该变量时，主机到设备（H2D）的权重传输"
        "可能执行超时；设置后改为使用 RoCE 链路通信。",
    ),
    "ascend/rebuild-group-npu": (
        "在昇腾上设置 `engine_kwargs.nccl.rebuild_group=True`：HCCL 引擎的 `finalize()` 会调用 vllm-ascend "
        "通信域对象没有的方法。",
        "任务在首次权重同步结束时失败。",
    ),
    "ascend/whitelist-file": (
        "`HCCL_WHITELIST_FILE` 指向脚本旁（或本机绝对路径下）的文件，但其内容不是合法的 JSON，或不是由 IPv4 地址组成的 "
        '`{"host_ip": [...]}`；本机找不到的文件不读取，汇总信息中会说明。',
        "白名单文件内容无效时，HCCL 的白名单校验失败，建链失败；HCCL 文档称 `device_ip` 为预留字段、当前版本暂不支持，"
        "只在该字段中列出的地址不会加入白名单。",
    ),
    "ascend/whitelist-required": (
        "在 Ascend 950PR/Ascend 950DT 上使用 `kimi_ckpt_engine`，但未同时设置 `HCCL_WHITELIST_DISABLE=0` 与 "
        "`HCCL_WHITELIST_FILE`。",
        "verl 的 README 要求在 Ascend 950PR/Ascend 950DT 上使用 `kimi_ckpt_engine` 时开启 HCCL 白名单校验"
        "（verl 主分支 1dda039 的 README，用于 0.9.1 与 verl 源码检出；README 未提及该产品的版本不作判断），"
        "未开启时的具体失败现象未见说明。",
    ),
    "ascend/kimi-950-unsupported": (
        "在 Ascend 950PR/Ascend 950DT 上使用 `kimi_ckpt_engine`，"
        "而所用 verl 版本的 README 写明该产品不支持该后端（verl 0.9.0）。",
        "任何白名单设置都无法使其可用：该版本的 README 已写明该产品不支持该后端。",
    ),
    # cite
    "cite/claim-outside-lines": ("声明所引的代码不在引用标注的行号范围内。", _STALE),
    "cite/line-out-of-range": ("引用的行号超出文件末尾。", _STALE),
    "cite/missing-file": ("引用的 verl 文件在所引版本中不存在。", _STALE),
    "cite/unknown-release": ("引用的 verl 版本不在本手册覆盖范围内。", "无法读取的声明不核对任何内容。"),
    # coverage
    "coverage/unbound": (
        "陈述数值、版本、默认值、数量、文件、命令、行为或原因的句子（或未声明表格中的一行）——含代码片段、"
        "数字或表示行为、"
        "原因的词——句内或句后既没有 `check:` 声明、`run:` 标记、经检查的 verl 源码引用，"
        "也没有 ※ 标记。",
        _COVERAGE,
    ),
    "coverage/history-unbound": (
        "说明某个 verl 版本起止的句子（“自 0.9.0 起”“0.7.1 及更早”“since 0.8.0”“0.9.0 中默认”），没有带相应 "
        "`since=`/`until=`（或适用于该版本）的声明，或提到的版本不在本手册覆盖范围内。",
        "只有版本矩阵能判断版本沿革是否属实：它在每个覆盖的版本上检查带版本界限的声明；"
        "不带界限的声明只在锁定版本上检查。",
    ),
    "coverage/blanket-checked": (
        "声称本页（或本手册）每一条陈述、片段、声明都已核对的句子，例如“本页每一条说法都已核对”。",
        "每页标题下的说明由实际绑定的陈述生成；手写的“全部已核对”说法超出实际数字，一旦出现未绑定的句子即失实。",
    ),
    "coverage/unknown-test": (
        "`run:` 标记或生成页面的 `generated:` 标记写明 `FILE::TEST`，"
        "但站点 `tests/` 目录下的文件 FILE 中没有测试函数 TEST（静态读取）。",
        "覆盖率统计将该句计为由该测试支撑；测试改名或删除后遗留的标记不再支撑任何内容。",
    ),
    "coverage/mark-without-title": (
        '※ 标记（`sup class="unchecked"`）缺少说明依据的 `title="…"`。',
        "title 是读者悬停时看到的内容：依据用户报告、上游讨论、源码阅读，或未运行。",
    ),
    "coverage/mark-without-link": (
        "※ 标记的 title 说明该陈述依据报告、讨论或议题（issue），但它所在标题下的段落没有给出任何链接。",
        "该陈述以报告为依据，未给出链接时读者无法核对。",
    ),
    "coverage/debt-fixed": (
        "站点 `coverage-debt.json` 中的条目已不对应其页面上任何未绑定的陈述："
        "该句已绑定、改写或删除（或页面已不存在）。",
        "待补依据清单只减不增：失效的条目会让同一句话在未绑定的状态下重新出现而不报告。",
    ),
    "coverage/debt-invalid": (
        "站点根目录下的 `coverage-debt.json` 不是 JSON，或不是待补依据清单。",
        "其中记录的内容均不会被读取，所列的每条陈述都会被报告。",
    ),
    # claim
    "claim/bad-attr": (
        "声明的属性值无法解析（如 `requires=` 的值不是合法的依赖版本说明）。",
        "无法读取的声明不核对任何内容。",
    ),
    "claim/backends-differ": ("`check: backends names=…` 声明所列的后端与 verl 注册的后端名不完全一致。", _STALE),
    "claim/bad-file": ("声明的 `file=` 不是 verl 包内的路径。", "无法读取的声明不核对任何内容。"),
    "claim/code-changed": ("声明所引的代码与 verl 中最接近的代码行已不一致。", _STALE),
    "claim/code-missing": ("声明所引的代码不在该 verl 文件的任何一行中。", _STALE),
    "claim/file-missing": ("声明涉及的 verl 文件在该版本中不存在。", _STALE),
    "claim/message-changed": ("声明所引的错误信息在 verl 中已被修改。", _STALE),
    "claim/missing-attr": ("声明缺少其类型所需的属性。", _STALE),
    "claim/only-in-comment": ("声明所引的代码只出现在注释或 docstring 中。", _STALE),
    "claim/params-mismatch": ("声明列出了函数不接受的参数。", _STALE),
    "claim/raises-missing": ("声明 verl 会抛出某条错误信息，但没有任何 `raise` 语句带有该信息。", _STALE),
    "claim/raises-other-error": ("声明所述的错误信息，verl 以另一个异常类抛出。", _STALE),
    "claim/symbol-missing": ("声明引用的类或函数在该 verl 文件中未定义。", _STALE),
    "claim/unknown-check": ("`check: …` 声明注释的类型不是检查工具支持的类型。", _STALE),
    "claim/unparsable": ("声明涉及的 verl 文件无法被 Python 解析。", _STALE),
    "claim/verl-version": ("页面注明的核对所用 verl 版本与锁定版本不同。", _STALE),
    # cmake
    "cmake/invalid-value": ("`-D<NAME>=<value>` 的取值不在该选项的可选值内。", "编译结果与预期不符。"),
    "cmake/unknown-option": (
        "`-D<NAME>` 不是 Mooncake 的 CMake 选项。",
        "CMake 对未使用的变量只给出警告，编译结果与预期不符。",
    ),
    # combo
    "combo/conflict": (
        "`check: combo pins=… verdict=ok|missing` 所述组合被 pip 依赖解析器拒绝（ResolutionImpossible；"
        "引用 pip 给出的冲突依赖）。所有 combo 规则均按 snapshots/resolver.json 记录的目标平台解析"
        "（CPython 3.11、glibc 2.35、x86_64，仅二进制 wheel），而不是 `stack` 所规划的 aarch64 主机。",
        "按页面操作的读者会在集群上遇到同样的依赖冲突。",
    ),
    "combo/no-conflict": (
        "`check: combo pins=… verdict=conflict|missing` 所述组合，pip 解析器能找到一组可共存的版本。",
        "已不成立的警告会让读者采取不必要的规避措施。",
    ),
    "combo/not-on-index": (
        "`check: combo pins=… verdict=ok|conflict` 所述组合中，pip 停在包索引上无任何发行包满足的依赖处"
        "（如 vllm-ascend 0.23.0 要求的 triton-ascend==3.2.2），按 pip 原文引用。",
        "按页面执行 `pip install` 在解析前即失败；需要换用其他包索引或固定版本。",
    ),
    "combo/unresolved": (
        "`check: combo` 的版本组合在 snapshots/resolver.json 中没有解析结果。",
        "版本能否共同安装只以 pip 自身的解析器为准；需运行 scripts/refresh_resolver.py。",
    ),
    # command
    "command/missing-dash-m": (
        "`python verl.trainer.main_ppo`：模块名被当作文件传给 Python。",
        "Python 查找同名文件，找不到即退出。",
    ),
    "command/unknown-entry-point": (
        "`python -m verl.<module>` 中的模块在该 verl 版本中不存在。",
        "Python 报错 `No module named …` 并退出。",
    ),
    # config
    "config/both-set": (
        "同时设置了一对微批大小配置项（`ppo_micro_batch_size` 与 `ppo_micro_batch_size_per_gpu` 等）中的两项，"
        "而 verl 的 `validate_config` 只允许设置其一。",
        "verl 的配置校验在启动时抛出 `ValueError`（`You have set both …`），提示信息引用抛出该异常的代码行。",
    ),
    "config/not-a-field-group": (
        "在 verl 构造的数据类（dataclass）不具有的同一名称下，用 `+` 新增了两个或更多配置项（例如字段为 `mcore_kwargs` "
        "时的全部 `actor_rollout_ref.actor.mindspeed.llm_kwargs.*`）：只在第一个配置项处报告一次，并给出数量与行号；"
        "各配置项自身的检查结果归入其下。",
        "一个原因只报告一次：字段名写错是一处需要修改的错误，而不是一百处。",
    ),
    "config/legacy-key": (
        "Hydra 仍接受、但当前入口已不再读取的配置项（只有其他入口会迁移该配置项）。",
        "该设置不生效且无任何提示：任务照常运行，但与所写配置不符。",
    ),
    "config/not-a-field": (
        "以 `+` 新增的配置项，其所在节点由 verl 转换为数据类（dataclass），而该数据类没有此字段。",
        "Hydra 接受该配置项，但构造数据类时失败：抛出 `TypeError`（`unexpected keyword argument`），verl 用 "
        "`hydra.utils.instantiate` 构造时，该异常包含在 Hydra 的 InstantiationException 中。",
    ),
    "config/not-a-mapping": (
        "点分配置项的上级在 verl 配置中不是映射（如 `trainer.total_epochs.x`）。",
        "Hydra 无法在数字或字符串下设置子项，任务在启动时退出。",
    ),
    "config/omegaconf": (
        "OmegaConf 无法合并到 verl 默认配置上的 YAML 片段。",
        "verl 使用 OmegaConf 合并配置，被拒绝的内容不会传到训练端。",
    ),
    "config/required-missing": (
        "verl 配置中标记为 `???`（必填）的配置项，在已启用的配置节中没有任何覆盖项或配置文件设置它。",
        "verl 读取该配置项时 Hydra 抛出 MissingMandatoryValue，此时尚未执行任何训练步。",
    ),
    "config/unknown-config": (
        "Hydra 无法从 verl 配置目录组合出的配置名（`--config-name`、`config=`）；"
        "对命令而言，检查结果中列出该版本提供的配置以及最后提供所指配置的版本，命令所设的各项折叠在其下。",
        "入口在训练开始前退出；命令的每个配置项都是按其他配置判断的。",
    ),
    "config/unknown-key": (
        "verl 组合后的配置中不存在的配置项（拼写错误，或属于其他 verl 版本）。",
        "Hydra 以 struct 模式加载配置（不允许未知键），遇到未知配置项即在启动时退出。",
    ),
    "config/unknown-section": (
        "同一配置节下有两个及以上未知配置项，且该版本的配置中没有此配置节（如所有 "
        "`actor_rollout_ref.actor.mindspeed.*` 配置项）：只在第一项处报告一次，并给出数量与行号；各配置项"
        "自身的检查结果折叠在其下（JSON 输出逐条保留，并标注 `caused_by`）。",
        "一个原因只报告一条检查结果：缺少一个配置节只需修改一处，而不是一百处。",
    ),
    "config/value-not-accepted": (
        "取值不在 verl 源码列出的范围内，如 `actor_rollout_ref.rollout.name` 未在 `_ROLLOUT_REGISTRY`"
        "（verl/workers/rollout/base.py）中注册。",
        "verl 在启动时或构建推理端时查找该名称，并在该处失败。",
    ),
    "config/wrong-type": (
        "verl 通过 OmegaConf 类型化合并（`dataclass_type=`：model、profiler、蒸馏教师模型、skip 设置）构造的"
        "数据类（dataclass）字段不接受该取值。",
        "verl 构造该数据类时由 OmegaConf 转换取值，无法转换即导致任务退出。只由 `_target_` 实例化的节点"
        "（actor、rollout、优化器）不做类型检查，原样传递。",
    ),
    "config/unconverted-type": (
        "verl 通过实例化 `_target_` 构造的节点下，按字面无法成为字段类型的取值：字段需要数值、列表或映射时给出了"
        "字符串（双引号 shell 变量中带引号的列表会保留引号），或字段需要其他类型时给出了列表或映射。",
        "`hydra.utils.instantiate` 不做任何转换：数据类（dataclass）原样保存该取值，读取该字段的代码会失败或误读"
        "（torch 的优化器无法使用 `betas='[0.9,0.95]'`）。",
    ),
    # defaults
    "defaults/mismatch": (
        '声明为 verl 默认值的 YAML 代码块（`check="defaults"`）中有与 verl 默认配置不同的取值。',
        _DEFAULTS,
    ),
    "defaults/not-a-default": (
        "默认值代码块中有 verl 默认配置中不存在的配置项。",
        "页面描述了一个不存在的设置。",
    ),
    # delta
    "delta/rejected": (
        "被 verl 的 delta 引擎中某条 `raise` 语句拒绝的 `delta_sharded` 配置。",
        "任务在集群资源分配完成后、首次权重同步时退出。",
    ),
    # diagram
    "diagram/empty": (
        "只有注释、front matter 或图表类型的 mermaid 代码块（完全为空的代码块报告为 `snippet/empty`）。",
        _DIAGRAM,
    ),
    "diagram/not-drawn": ("docs/diagrams/ 下对应的 SVG 缺失或已过期。", _DIAGRAM),
    "diagram/not-mermaid": ('声明 `check="diagram"` 的代码块不是 mermaid。', _DIAGRAM),
    "diagram/unknown-type": ("mermaid 图表的第一个词不是图表类型。", _DIAGRAM),
    # engine
    "engine/injected-kwarg": (
        "`engine_kwargs.<backend>` 下由 verl 自行传给引擎的参数（如 `bucket_size`）。",
        "构造函数两次收到同一参数，抛出 TypeError（`multiple values for keyword argument`）。",
    ),
    "engine/kwargs-ignored": (
        "`engine_kwargs.<name>` 中的 `<name>` 不是当前生效的后端。",
        "verl 只将 `engine_kwargs[<backend>]` 传给引擎，其余内容被忽略且无提示。",
    ),
    "engine/kwargs-not-mapping": (
        "`engine_kwargs.<backend>` 被设为普通值，而不是构造函数参数的映射。",
        "verl 将其展开为引擎构造函数的关键字参数。",
    ),
    "engine/not-on-device": (
        "后端的引擎模块未在任务运行的设备上注册。",
        "verl 在该设备上找不到此引擎，随即退出。",
    ),
    "engine/npu-device": (
        '引擎的构造函数将 `device` 参数与 `"npu"` 比较，在昇腾上使用时却未设置 `device: npu`。',
        "未设置时，引擎在 NPU 上执行 CUDA 分支。",
    ),
    "engine/unknown-backend": (
        "没有任何检查点引擎注册的 `checkpoint_engine.backend` 取值（或 `engine_kwargs` 键）。",
        "verl 按该名称查找引擎，找不到即退出；昇腾上的 HCCL 引擎注册名为 `nccl`。",
    ),
    "engine/unknown-model-backend": (
        "actor、ref 或 critic 的 `strategy` 取值，该版本没有任何 `EngineRegistry.register(...)` "
        "为对应模型类型（已知设备时，为该设备）注册。",
        "verl 以 `EngineRegistry.get_engine_cls(model_type, strategy)` 构造 worker 的引擎，找不到即以 "
        "`AssertionError: Unknown backend: <strategy>` 退出；为其编写的 `<strategy>.*` 配置项在配置中也不存在。",
    ),
    "engine/unknown-kwarg": (
        "`engine_kwargs.<backend>` 下引擎类的 `__init__` 在当前设备上不接受的参数。",
        "构造引擎时抛出 TypeError（`unexpected keyword argument`）。",
    ),
    "engine/wrong-type": (
        "`engine_kwargs` 取值的类型与构造函数参数的类型注解或默认值不同。",
        "引擎收到预期之外的取值（例如在比较布尔值处收到字符串）。",
    ),
    # env
    "env/conflict": ("两个变量的取值相互矛盾。", _ENV),
    "env/invalid-value": ("取值超出该变量文档允许的范围。", _ENV),
    "env/not-exported": ("已知变量赋值时未使用 `export`，启动的进程读不到该变量。", _ENV),
    "env/presence-enables": ("只要设置即开启某功能的变量，被赋予了意在关闭该功能的取值。", _ENV),
    "env/requires": ("变量只有与另一变量同时设置才生效，而脚本未导出后者。", _ENV),
    "env/unknown-name": ("导出的变量名与某个已知 HCCL/昇腾变量相近，但并不相同。", _ENV),
    # fact
    "fact/mismatch": (
        "`check: fact id=… value=…` 声明的取值与快照条目（所述 CANN 版本下）的取值不同。",
        "页面与上游源码说法不一：提示信息给出仓库、提交与行号。",
    ),
    "fact/no-entry": (
        "`check: fact … cann=X` 声明中，X 及更早的 CANN 版本均无该条目的文档记载。",
        "没有文档记载的版本取值是猜测，不是事实。",
    ),
    "fact/unknown": (
        "`check: fact id=…` 声明的 id 不在技术栈快照中（拼写错误时给出相近的 id）。",
        "声明须以已提交快照（verl_cookbook/snapshots/，每个条目注明仓库、提交、路径与行号）中的条目为依据，"
        "否则不核对任何内容。",
    ),
    # file
    "file/binary": ("页面或传给 doctor 的文件含 NUL 字节，不是文本文件。", _UNREADABLE),
    "file/encoding": ("页面或传给 doctor 的文件不是 UTF-8 文本。", _UNREADABLE),
    "file/missing": (
        "传给 Python 接口（`runner.check_paths`）的页面或目录不存在；"
        "在命令行中指定不存在的路径属于用法错误（退出码 2，不产生检查结果）。",
        _UNREADABLE,
    ),
    "file/too-large": ("页面或传给 doctor 的文件超过检查工具读取的大小上限。", _UNREADABLE),
    "file/unreadable": ("页面或传给 doctor 的文件无法读取（无权限）。", _UNREADABLE),
    # include
    "include/missing": (
        "`--8<--` 引用的目标文件不存在。",
        "页面渲染时缺少该配置片段，本应引用的配置片段也从未被检查。",
    ),
    # install
    "install/checkout-other-release": (
        "页面注明了某个 verl 版本，其配置片段中的 `git checkout vX` 却检出另一版本。",
        "读者运行的代码与页面核对所用的版本不同。",
    ),
    "install/command-failed": (
        "install-runs.yaml 中声明的配置片段，在临时虚拟环境中使用包索引上的真实 wheel 运行"
        "（`check --run-install`）时以非零状态退出；需要 NPU 或集群的命令按声明跳过。",
        "复制该配置片段的读者会在集群上、尚未用到 NPU 时遇到同样的错误。",
    ),
    "install/expectation": (
        "沙箱运行（`check --run-install`）后，install-runs.yaml 中的某条 `expect:` 不成立：模块无法导入、"
        "pip 列出（或未列出）某发行包、已列出的发行包其 RECORD 中的文件已不存在、site-packages 中缺少某个模块文件、"
        "在模拟的 glibc 上平台检查给出相反结果；声明了 `start:` 时，从其中任一初始状态运行均须成立。",
        "pip 显示 `installed`，而 `import mooncake` 失败：读者要到集群上首次同步时才会发现。",
    ),
    "install/manifest": (
        "安装运行条目引用了不存在的配置片段、未写预期结果或跳过项缺少 needs/reason，或清单不是合法的 YAML"
        "（每次检查站点时都会报告）；使用 `--run-install` 时，还报告匹配不到任何命令的跳过项，"
        "以及包索引上不存在的 wheel。",
        "无法运行的条目或未跳过任何命令的跳过项，会在未检查任何内容的情况下通过。",
    ),
    "install/uninstall-shared-files": (
        "同一脚本中安装 Y 之后执行 `pip uninstall X`，而两个 wheel 的 RECORD 列出相同的路径。",
        "pip 会删除共用的文件，Y 仍显示为已安装，其文件却已不存在；应先卸载再安装。",
    ),
    # json
    "json/schema-": (
        "被所声明 schema 拒绝的 JSON 代码块；规则代码中含 jsonschema 的校验项名称（`json/schema-required`）。",
        "读取该文件的程序（如读取白名单的 HCCL）要求这一结构。",
    ),
    "json/syntax": ("无法解析的 JSON 代码块或文件。", "读取它的程序（HCCL 白名单、配置）会失败。"),
    "json/unknown-schema": ("JSON 代码块引用的 schema 不在目录中。", "该代码块不会被检查。"),
    # lenient
    "lenient/wrong-language": (
        "其他项目文档中标注为 `bash`（或 `shell`、`sh`）的代码块，内容却是程序的输出（日志、异常堆栈、报错信息、"
        "`--help` 帮助信息、状态输出、带输出的终端会话）；或标注为 `python` 的代码块，内容却是 shell 命令。"
        "该代码块按其实际内容读取，不作为脚本或模块检查，只在代码块起始处给出一条提示。",
        "Sphinx 与 GitHub 按所标语言高亮代码块，读者也按该语言复制：标为 `bash` 的输出看起来像要执行的命令。"
        "这不会导致运行失败，因此只是提示（单独出现时退出码为 0）。",
    ),
    # markdown
    "markdown/unterminated-fence": (
        "缺少闭合标记的 ``` 代码块。",
        "页面其余内容均被并入该代码块，显示为代码。",
    ),
    # merger
    "merger/absent": (
        "在没有该命令的版本中使用 `python -m verl.model_merger`。",
        "该版本没有 `verl.model_merger` 命令行，`python -m` 无可运行的内容，检查点未被合并。",
    ),
    "merger/ambiguous-option": ("缩写的选项同时匹配多个选项。", _MERGER),
    "merger/invalid-choice": ("取值不在选项的可选值内。", _MERGER),
    "merger/missing-required": ("未给出必需的选项。", _MERGER),
    "merger/missing-subcommand": ("`python -m verl.model_merger` 后缺少 `merge` 或 `test`。", _MERGER),
    "merger/missing-value": ("需要取值的选项未给出取值。", _MERGER),
    "merger/unexpected-argument": ("模型合并工具不接受的位置参数。", _MERGER),
    "merger/unexpected-value": ("开关选项后跟了取值。", _MERGER),
    "merger/unknown-option": ("模型合并工具的解析器没有该选项。", _MERGER),
    "merger/unknown-subcommand": ("模型合并工具的 argparse 解析器没有该子命令。", _MERGER),
    # override
    "override/delete-missing": (
        "覆盖项 `~key` 要删除的配置项在 verl 配置中不存在。",
        "Hydra 退出：没有可删除的内容。",
    ),
    "override/flag-needs-value": (
        "`--config-name` 等 Hydra 参数位于命令末尾，没有取值。",
        "Hydra 的参数解析器退出。",
    ),
    "override/group": (
        "Hydra 无法组合的配置组选择（`model_engine=...`、`actor@actor_rollout_ref.actor=...`），多为该版本没有的选项；"
        "检查结果中列出该版本提供的选项，以及最后提供所选项的版本。该选项本应定义的配置项折叠在其下。",
        "所选项不在 verl 的配置目录中，任务在启动时退出；为该选项本应定义的配置所设的各项，都是按其他选项判断的，"
        "在修正该选择之前没有意义。",
    ),
    "override/malformed": (
        "不符合 Hydra 覆盖项语法的命令行覆盖项（括号或引号不成对）。",
        "Hydra 在组合配置前退出。",
    ),
    "override/needs-plus": (
        "覆盖的配置项在 verl 配置中不存在（其上级为空），且未加 `+`。",
        "Hydra 只允许以 `+`（或 `++`）新增配置项，否则任务在启动时退出。",
    ),
    "override/plus-on-existing": (
        "以 `+key=value` 覆盖 verl 配置中已有的配置项。",
        "Hydra 拒绝新增已存在的配置项；应写作 `key=value`（或 `++key=value`）。",
    ),
    "override/rejected": (
        "其他被 Hydra 自身的解析与组合拒绝的覆盖项；提示信息引用 Hydra 的原文。",
        "被 Hydra 拒绝的覆盖项会使任务在启动时退出。",
    ),
    "override/sweep-without-multirun": (
        "命令中有参数扫描取值（`a=1,2`），但 Hydra 未以 `--multirun` 运行。",
        "Hydra 单次运行不接受参数扫描。",
    ),
    "override/unknown-flag": (
        "Hydra 命令行不支持的 `--flag`。",
        "脚本在训练前报错 `unrecognized arguments` 并退出。",
    ),
    "override/unknown-group": (
        "Hydra 视为配置组选择的覆盖项，而 verl 配置中没有该配置组。",
        "Hydra 在启动时退出。",
    ),
    # parity
    "parity/admonitions": ("提示框的类型与另一语言的对应页面不同。", _PARITY),
    "parity/blocks": ("代码块（语言、check、行数）与另一语言的对应页面不同。", _PARITY),
    "parity/claims": ("检查声明与另一语言的对应页面不同。", _PARITY),
    "parity/marks": ("`run:` 运行标记或 ※ 标记的数量或顺序与另一语言的对应页面不同。", _PARITY),
    "parity/heading-anchor": ("标题缺少 `{ #anchor }`，两种语言生成的 slug 会不同。", _PARITY),
    "parity/headings": ("标题（级别与锚点）与另一语言的对应页面不同。", _PARITY),
    "parity/missing-twin": ("页面没有另一语言的对应页面。", _PARITY),
    "parity/tables": ("参数表格的行与另一语言的对应页面不同。", _PARITY),
    "parity/snippet-variant": ("中文页面引用的 `x.zh.sh` 在去掉注释后与 `x.sh` 的代码不同。", _PARITY),
    # python
    "python/override-signature": (
        "示例中的子类方法重写了 verl 的方法，但签名不同"
        "（构造函数仅在 verl 自己按基类参数创建对象时检查，如按配置创建的工具；Worker 子类不检查）。",
        "verl 按基类的参数调用该方法。",
    ),
    "python/syntax": ("无法解析的 Python 示例。", "读者复制后运行即失败。"),
    "python/verl-import": (
        "Python 示例导入了该 verl 版本中不存在的模块或名称。",
        "示例在第一行即失败。",
    ),
    # shell
    "shell/after-pipe": (
        "写在 `2>&1 | tee log` 之后的覆盖项：该覆盖项被 tee 当作文件名。",
        "verl 读不到该设置。",
    ),
    "shell/comment-ends-command": (
        "以 `\\` 续行的命令中间出现注释行：其后的参数不再属于该命令。",
        "bash 在注释处结束命令，之后的覆盖项作为独立命令运行。",
    ),
    "shell/orphan-overrides": (
        "位于某个不以 `\\` 结尾的行之后的覆盖项行。",
        "bash 将其作为独立命令运行（`command not found`），verl 读不到这些设置。",
    ),
    "shell/unset-command": (
        "命令名是一个脚本中从未设置的变量（`$COMMAND data.train_files=…`）。",
        "除非环境中已设置该变量，bash 会将其展开为空，并将下一个词当作命令运行（command not found），覆盖项到不了 "
        "verl。",
    ),
    "shell/unset-variable": (
        "赋值语句的取值以脚本中从未设置的小写变量开头，例如 `WORKSPACE_HOME=$pwd`"
        "（当前工作目录应为 `$PWD` 或 `$(pwd)`）。",
        "bash 变量区分大小写：除非环境中已设置该变量，取值以空串开头，基于它拼接的 checkpoint 或数据路径"
        "（`$WORKSPACE_HOME/logs/ckpt`）会从 `/` 开始，写到每个节点的根盘上。",
    ),
    "shell/syntax": ("被 `bash -n` 拒绝的脚本或 shell 代码块。", "bash 在出错处停止，之后的内容均不运行。"),
    "shell/timeout": (
        "语法检查（`bash -n`）或 ShellCheck 未在时限内完成的脚本。",
        "缺少该工具对脚本的判断。",
    ),
    "shellcheck/SC": (
        "ShellCheck 对 shell 代码块报告的错误与警告（`-S warning`：不含提示与风格类结果，也不含标记配置片段惯用写法的 "
        "SC2164、SC2034、SC2154、SC1090、SC1091）；规则代码沿用 ShellCheck 的编号（`shellcheck/SC2045`）。"
        "未安装 ShellCheck 时不报告。",
        "提示信息附有 ShellCheck wiki 页面的链接，其中说明每一项。",
    ),
    # snippet
    "snippet/empty": ("没有内容的代码块。", "空代码块通常是丢失的配置片段（多因引用的文件被移动）。"),
    "snippet/orphan": ("snippets/ 下没有被任何页面引用的文件。", "没有检查覆盖该文件，读者也看不到它。"),
    "snippet/orphan-declaration": (
        "`.. verl-cookbook: check=…` 注释（reStructuredText）或 `<!-- verl-cookbook: check=… -->` 注释"
        "（Markdown、MyST）未紧接在代码块上方。",
        "该声明不检查任何内容，其本应作用的代码块则按未声明处理。",
    ),
    "snippet/skip-without-reason": ('声明了 `check="skip"` 但缺少 `reason="…"` 的代码块。', _REASON),
    "snippet/undeclared": (
        '未声明 `check="<kind>"`（或 `check="skip" reason="…"`）的代码块。',
        "代码块所需的检查须显式声明，不做推测；未声明的代码块不会被检查。",
    ),
    "snippet/unknown-attr": ("所声明的检查不读取的代码块属性。", "拼错的属性（`devcie=`）不起作用，也不报错。"),
    "snippet/unknown-check": (
        '代码块的 `check="…"` 不是检查工具支持的检查方式。',
        "否则拼错的类型会使该代码块不被检查。",
    ),
    # startup
    "startup/missing-value": (
        "verl 启动代码要求设置（如微批大小）、但没有任何覆盖项设置的配置项；在命令处报告。",
        "verl 在训练前以提示信息所引的错误信息退出。",
    ),
    "startup/rejected": (
        "被 verl 自身启动代码（`validate_config`、配置数据类（dataclass）的 `__post_init__`、训练模式的断言）"
        "拒绝的覆盖项，"
        "由 `doctor --startup` 在独立环境中运行得出；提示信息引用 verl 的原文。",
        "这是 verl 自身对组合后配置的判定，报告在设置该取值的行。",
    ),
    # suppression
    "suppression/unknown-code": (
        "`verl-cookbook: ignore[<code>]` 注释中的规则代码未声明。",
        "拼错的规则代码不会忽略任何检查结果。",
    ),
    "suppression/unused": (
        "`verl-cookbook: ignore[<code>]` 注释所在行及下一行均没有该规则的检查结果。",
        "过期的忽略注释会掩盖该行以后出现的真实检查结果；应删除。",
    ),
    # table
    "table/ambiguous-engine": (
        '后端对应多个引擎，`engine="<backend>"` 表格却未指定 `device="npu|gpu"`。',
        "每个引擎有各自的构造函数，表格须说明描述的是哪一个。",
    ),
    "table/default-mismatch": ("表格行中的默认值与 verl 配置或引擎构造函数中的默认值不同。", _DEFAULTS),
    "table/no-default-column": ("已声明的参数表格没有“默认值”或“Default”列。", "无法与 verl 的默认值比较。"),
    "table/no-key": ("参数表格中第一列没有以 `code` 形式给出配置项名的行。", "该行无法与 verl 配置对应。"),
    "table/orphan-declaration": ("未紧接在表格上方的 `check: …` 注释。", "该声明不检查任何内容。"),
    "table/skip-without-reason": ('表格上方的 `check: skip` 注释缺少 `reason="…"`。', _REASON),
    "table/terms-avoided-form": (
        "术语的中文译法，或不用说法表中给出的替代写法，含有同一术语表的不用说法表或口语表所列的说法。",
        "术语表会要求使用其自身禁止的写法，按其中一处编写的页面无法通过另一处的检查。",
    ),
    "table/terms-shape": (
        '`check: terms` 表格缺少其类型所需的列（术语的中文和英文形式；`list="avoid"` 或 `list="register"` 表格为'
        "不用的说法和替代写法），或某一行缺少其中一项。",
        "文字检查按这些表格检查每个页面，无法读取的行不检查任何内容。",
    ),
    "table/undeclared": (
        "带默认值列、上方却没有 `check: params …` 注释（或 skip）的表格。",
        "未经检查的默认值表格会与 verl 产生文档漂移而无人察觉。",
    ),
    "table/undeclared-scope": (
        '参数表格既没有 `scope="<config path>"`，也没有 `engine="<backend>"`。',
        "检查工具无法判断表格各行对应 verl 配置的哪一部分。",
    ),
    "table/unknown-check": ("表格声明中的检查方式不是检查工具支持的类型。", "该表格不会被检查。"),
    # upgrade
    "upgrade/entry-point-moved": (
        "`python -m X` 中的 X 是旧版 verl 的入口，当前版本已替换（`verl.trainer.fsdp_sft_trainer` → "
        "`verl.trainer.sft_trainer`，`recipe.fully_async_policy.…` → `verl.experimental.fully_async_policy.…`）。",
        "Python 报错 `No module named X` 并退出；需要知道的是应改用哪个模块；命令其余部分按替代模块的配置检查，"
        "其他变更一次全部列出，并折叠在此检查结果之下。",
    ),
    "upgrade/key-moved": (
        "旧版 verl 在此位置读取、当前版本改在别处读取的配置项（由各版本生成的配置推导得出，少数来自版本历史，"
        "均注明出处），或常被写在各版本均未读取的位置的配置项（如应为 `data.train_batch_size` 的 `train_batch_size`，"
        "即 `misplaced` 情形）。",
        "Hydra 在旧配置项处退出；按 Hydra 的提示加 `+` 只会让 verl 读不到该设置，verl 读取的是新位置。",
    ),
    "upgrade/key-removed": (
        "旧版 verl 中有、当前版本的配置中已没有的配置项：配置中其他位置也没有同名配置项，版本历史中也未记录其更名"
        "（有记录的更名见 `upgrade/key-moved`）。",
        "Hydra 在该配置项处退出；加 `+` 只会保留一个当前版本配置中已不再声明的设置。",
    ),
    # verl
    "verl/config-drift": (
        "verl 的 CheckpointEngineConfig 中某字段的 dataclass 默认值与 verl 自身 `checkpoint_engine` 的 YAML 配置块"
        "（verl/trainer/config/rollout/rollout.yaml）不同或在其中缺失，或该配置块中有不是字段的配置项。"
        "仅在检查整个站点（`check` 不指定路径）时判断。",
        "本手册只描述其中之一；verl 内部不一致，意味着其中一方对部分用户有误。",
    ),
    # wheel
    "wheel/mismatch": (
        "被 wheel 自身元数据否定的 `check: wheel …` 声明（RECORD 中的文件、依赖、平台标签、top_level、"
        "所需的库、共用文件、glibc 最低版本）。",
        "pip 安装的内容以 wheel 元数据为准，而不是页面的记述。",
    ),
    "wheel/unknown": (
        "`check: wheel dist=…`（或 `shares=`）引用的发行包不在 wheel 快照中。",
        "只有已读取元数据的 wheel（scripts/refresh_wheel_facts.py）才能作为声明的依据。",
    ),
    # yaml
    "yaml/empty": ("内容为空的 YAML 配置代码块。", "没有可检查的内容。"),
    "yaml/not-a-mapping": (
        "顶层不是映射的配置片段，或传给 doctor 的顶层不是映射的 YAML 配置。",
        "verl 的配置是映射，列表或标量无法合并到其上。",
    ),
    "yaml/syntax": ("无法解析的 YAML 代码块或配置。", "Hydra 无法加载。"),
}
