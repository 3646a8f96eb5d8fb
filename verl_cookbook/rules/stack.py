"""Rules about the stack beyond verl: claims held by the committed snapshots of Mooncake, HCCL/CANN docs,
vllm-ascend and checkpoint-engine (``fact``), by the wheels' metadata on the package index (``wheel``, ``combo``),
and the two static rules on install scripts (``install``). The checks live in ``checks/stack.py``."""

from __future__ import annotations

from verl_cookbook.rules import declare

_SNAPSHOT = "the committed snapshot (verl_cookbook/snapshots/, with repository, commit, path and line per entry)"

FACT_UNKNOWN = declare(
    "fact/unknown",
    "Claim names no snapshot fact",
    "声明引用的快照条目不存在",
    "A `check: fact id=…` claim whose id is not in the stack snapshot (a misspelt id gets a did-you-mean).",
    f"The claim would hold nothing: it must rest on an entry of {_SNAPSHOT}.",
    message="no fact `{id}` in the stack snapshot[[; did you mean `{suggestion}`?]]",
    message_zh="上游事实快照中没有事实 `{id}`[[；是否应为 `{suggestion}`？]]",
    fix="name a fact the snapshot has, or add it with its source",
    fix_zh="改为快照中已有的事实，或连同来源添加该事实",
)
FACT_NO_ENTRY = declare(
    "fact/no-entry",
    "No documented value for the stated CANN release",
    "所述 CANN 版本没有对应的文档值",
    "A `check: fact … cann=X` claim where no documented CANN release at or before X has the fact.",
    "A value for a release nobody documented is a guess, not a fact.",
    message={
        "": "fact `{id}` has no entry for CANN {cann} (documented for CANN {known!l})",
        "no-cann": "fact `{id}` has no entry without `cann=…` (documented for CANN {known!l})",
    },
    message_zh={
        "": "事实 `{id}` 没有 CANN {cann} 的条目（已记录的 CANN 版本：{known!l}）",
        "no-cann": "事实 `{id}` 须指定 `cann=…`（已记录的 CANN 版本：{known!l}）",
    },
    fix="give a CANN version the fact records, or add the entry from its source",
    fix_zh="改为该事实已记录的 CANN 版本，或按来源补充该条目",
)
FACT_MISMATCH = declare(
    "fact/mismatch",
    "Claim disagrees with the snapshot",
    "声明与快照条目的取值不符",
    "A `check: fact id=… value=…` claim whose value differs from the snapshot's (for the stated CANN release).",
    "The page says one thing, the upstream source another: the finding names the repository, commit and line.",
    message="the page says `{claimed}`[[ for CANN {cann}]], the source says `{value}` (fact `{id}`)",
    message_zh="页面写的是 `{claimed}`[[（CANN {cann}）]]，而来源中为 `{value}`（事实 `{id}`）",
    fix="write the value the source gives, or update the fact from the source",
    fix_zh="改为来源中的取值，或按来源更新该事实",
)
WHEEL_UNKNOWN = declare(
    "wheel/unknown",
    "Claim names a wheel not in the snapshot",
    "声明引用的 wheel 不在快照中",
    "A `check: wheel dist=…` (or `shares=`) naming a distribution the wheel snapshot does not hold.",
    "Only wheels whose metadata was read (scripts/refresh_wheel_facts.py) can hold a claim.",
    message="no snapshot of `{spec}`[[ (the snapshot has {known!c})]]",
    message_zh="快照中没有 `{spec}`[[（快照包含 {known!c}）]]",
    fix="name a wheel the snapshot has, or add it to the snapshot",
    fix_zh="改为快照中已有的 wheel，或将其加入快照",
)
WHEEL_MISMATCH = declare(
    "wheel/mismatch",
    "Claim disagrees with the wheel's metadata",
    "声明与 wheel 元数据不符",
    "A `check: wheel …` claim (a file in RECORD, a requirement, a platform tag, top_level, a needed library, "
    "shared files, the glibc floor) that the wheel's own metadata contradicts.",
    "What pip installs is what the wheel says, not what a page remembers.",
    message={
        "record": "{spec} does not ship `{path}` (RECORD)",
        "absent": "{spec} does ship `{path}` (RECORD)",
        "absent-unread": "the snapshot of {spec} was not read for `{path}`: add it to the wheel's paths in "
        "scripts/refresh_wheel_facts.py",
        "requires": "{spec} requires {have!c} for {name}, not `{want}`",
        "requires-none": "{spec} has no requirement on {name}, not `{want}`",
        "tag": "{spec} is tagged {tags!l}, not `{tag}`",
        "top-level": "{spec}'s top_level.txt lists {listed!c}, not `{name}`",
        "needs": "no shared object in {spec} needs `{lib}` (readelf NEEDED)",
        "shares": "{spec} and {other} share {count} paths, not {claimed}",
        "min-glibc": "{spec}: the index has it from {lowest!l}, not from {claimed}",
        "min-glibc-none": "{spec}: the index has no build of it for any glibc level, not from {claimed}",
    },
    message_zh={
        "record": "{spec} 未包含 `{path}`（RECORD）",
        "absent": "{spec} 包含 `{path}`（RECORD）",
        "absent-unread": "{spec} 的快照未读取 `{path}`："
        "请将该路径加入 scripts/refresh_wheel_facts.py 中该 wheel 的路径列表",
        "requires": "{spec} 对 {name} 的依赖为 {have!c}，而非 `{want}`",
        "requires-none": "{spec} 没有对 {name} 的依赖，而非 `{want}`",
        "tag": "{spec} 的标签为 {tags!l}，而非 `{tag}`",
        "top-level": "{spec} 的 top_level.txt 列出 {listed!c}，而非 `{name}`",
        "needs": "{spec} 中没有共享库依赖 `{lib}`（readelf NEEDED）",
        "shares": "{spec} 与 {other} 共有 {count} 个相同路径，而非 {claimed}",
        "min-glibc": "{spec}：索引中从 {lowest!l} 起提供，而非从 {claimed} 起",
        "min-glibc-none": "{spec}：索引中没有任何 glibc 级别的构建，而非从 {claimed} 起",
    },
    fix="correct the page to what the wheel holds, or refresh the snapshot",
    fix_zh="按 wheel 的实际内容修改页面，或更新快照",
)
COMBO_CONFLICT = declare(
    "combo/conflict",
    "Combination presented as installable conflicts",
    "声明可共存的版本组合实际冲突",
    "A `check: combo pins=… verdict=ok|missing` that pip's resolver rejects (ResolutionImpossible; pip's "
    "conflicting requirement is quoted). Every combo rule resolves for the target snapshots/resolver.json records "
    "(CPython 3.11, glibc 2.35, x86_64, binary wheels only), not for the aarch64 hosts `stack` plans for.",
    "A reader following the page would hit the resolver's conflict on the cluster.",
    message="the page says {verdict}; pip cannot install them together: [[{pip}]][[{resolved} distributions resolved]]",
    message_zh="页面的结论为 {verdict}；pip 无法同时安装它们：[[{pip}]][[已解析 {resolved} 个发行包]]",
    fix="correct the page's verdict to what pip's resolver says, or change the versions on the page",
    fix_zh="按 pip 解析器的结果修改页面的结论，或修改页面所列的版本",
)
COMBO_NO_CONFLICT = declare(
    "combo/no-conflict",
    "Combination presented as conflicting (or not installable) that pip resolves",
    "声明冲突的版本组合实际可共存",
    "A `check: combo pins=… verdict=conflict|missing` for which pip's resolver finds a set of versions.",
    "A warning that no longer holds sends readers to needless workarounds.",
    message="the page says {verdict}; pip installs them together: [[{pip}]][[{resolved} distributions resolved]]",
    message_zh="页面的结论为 {verdict}；pip 可以同时安装它们：[[{pip}]][[已解析 {resolved} 个发行包]]",
    fix="correct the page's verdict to what pip's resolver says, or change the versions on the page",
    fix_zh="按 pip 解析器的结果修改页面的结论，或修改页面所列的版本",
)
COMBO_NOT_ON_INDEX = declare(
    "combo/not-on-index",
    "Combination whose requirements the package index cannot satisfy",
    "版本组合的依赖在包索引上不存在",
    "A `check: combo pins=… verdict=ok|conflict` where pip stops at a requirement no distribution on the index "
    "matches (e.g. vllm-ascend 0.23.0's triton-ascend==3.2.2), quoted in pip's words.",
    "`pip install` from the page fails before it resolves anything; the reader needs another index or a pin.",
    message="the page says {verdict}; pip cannot finish, the index lacks a requirement: [[{pip}]][[{resolved} "
    "distributions resolved]]",
    message_zh="页面的结论为 {verdict}；pip 无法完成解析，索引中缺少某个依赖：[[{pip}]][[已解析 {resolved} 个发行包]]",
    fix="name a version the index has, or give the verdict `missing`",
    fix_zh="改为包索引中存在的版本，或将结论改为 `missing`",
)
COMBO_UNRESOLVED = declare(
    "combo/unresolved",
    "Combination pip has not resolved",
    "pip 尚未解析该版本组合",
    "A `check: combo` whose pins have no answer in snapshots/resolver.json.",
    "Only pip's own resolver decides whether pins install together; run scripts/refresh_resolver.py.",
    message="pip's resolver has not answered for `{key}`: add it with `python scripts/refresh_resolver.py`",
    message_zh="pip 解析器尚未给出 `{key}` 的结果：请用 `python scripts/refresh_resolver.py` 添加",
    fix="run `python scripts/refresh_resolver.py` and commit the answer",
    fix_zh="运行 `python scripts/refresh_resolver.py`，并提交生成的解析结果",
)
INSTALL_UNINSTALL_SHARED_FILES = declare(
    "install/uninstall-shared-files",
    "Uninstalling a wheel that shares files with one just installed",
    "卸载与已装 wheel 共用文件的包",
    "`pip uninstall X` after installing Y in the same script, where the two wheels' RECORD lists the same paths.",
    "pip deletes the shared files, so Y stays listed as installed while its files are gone; uninstall first.",
    message="`pip uninstall {removed}` after installing {kept}: both wheels install the same {count} paths "
    "({paths!l} …), so the uninstall deletes {kept}'s files while pip still lists it; uninstall first, or "
    "reinstall {kept} with `--force-reinstall` afterwards",
    message_zh="在安装 {kept} 之后执行 `pip uninstall {removed}`：两个 wheel 安装了相同的 {count} 个路径（{paths!l} "
    "…），卸载会删除 {kept} 的文件，而 pip 仍将其列为已安装；请先卸载，或之后以 `--force-reinstall` "
    "重新安装 {kept}",
    fix="uninstall the package before installing the wanted one; if the uninstall must come after, reinstall the "
    "wanted one afterwards with `pip install --force-reinstall --no-deps`",
    fix_zh="先卸载该软件包，再安装所需的软件包；若卸载必须在安装之后，之后以 `pip install --force-reinstall --no-deps` "
    "重新安装所需的软件包",
)
INSTALL_CHECKOUT_OTHER_RELEASE = declare(
    "install/checkout-other-release",
    "Checking out another release than the page's",
    "检出的版本与页面所述版本不同",
    "`git checkout vX` in a snippet on a page that states another verl release.",
    "The reader runs code of another release than the one the page was checked against.",
    message="`git checkout {ref}` on a page checked against verl {pinned}: the code run is {release}'s, not the "
    "release the page describes",
    message_zh="页面按 verl {pinned} 核对，却执行了 `git checkout {ref}`：运行的是 {release} 的代码，"
    "而不是页面所述的版本",
    fix="check out the release the page is checked against",
    fix_zh="改为检出页面所核对的版本",
)
INSTALL_COMMAND_FAILED = declare(
    "install/command-failed",
    "Install snippet stops in the sandbox",
    "安装片段在沙箱中执行失败",
    "A snippet declared in install-runs.yaml that exits non-zero when run (`check --run-install`) in a throwaway "
    "virtualenv with the real wheels from the package index, its NPU/cluster commands skipped as declared.",
    "A reader who copies the snippet hits the same error on the cluster, before any NPU is involved.",
    message={
        "": "the snippet stops in the sandbox[[, starting from {start}]]: {error}",
        "overdue": "the run stops in the sandbox: {error}",
    },
    message_zh={
        "": "片段[[从初始状态 {start} 开始运行时]]在沙箱中运行失败：{error}",
        "overdue": "运行在沙箱中中止：{error}",
    },
    fix="correct the snippet until it runs in a fresh environment, or declare the command a skip in "
    "`install-runs.yaml`",
    fix_zh="修改片段，使其在全新环境中可以运行，或在 `install-runs.yaml` 中将该命令声明为跳过",
)
# What install/expectation says did not hold after a sandboxed run, and the run it was (its start state, a faked glibc).
_EXPECTATIONS = {
    "import": "`import {value}` fails after the snippet: {error}",
    "listed": "pip does not list {value} after the snippet[[ (it lists {listed!l})]]",
    "unlisted": "pip still lists {value} after the snippet",
    "intact": "pip lists {dist} {version} but {count} of the files its RECORD names are gone ({files!l} …)",
    "file": "`{value}` is not on disk after the snippet ({folder}/ holds {held!l})",
    "file-gone": "`{value}` is not on disk after the snippet ({folder}/ is empty or missing)",
    "stdout": "the snippet did not print `{value}` (it printed: {printed!r})",
}
_EXPECTATIONS_ZH = {
    "import": "片段运行后 `import {value}` 失败：{error}",
    "listed": "片段运行后 pip 没有列出 {value}[[（实际列出 {listed!l}）]]",
    "unlisted": "片段运行后 pip 仍列出 {value}",
    "intact": "pip 列出了 {dist} {version}，但其 RECORD 中有 {count} 个文件已不存在（{files!l} …）",
    "file": "片段运行后 `{value}` 不在磁盘上（`{folder}/` 中有 {held!l}）",
    "file-gone": "片段运行后 `{value}` 不在磁盘上（`{folder}/` 为空或不存在）",
    "stdout": "片段没有输出 `{value}`（实际输出：{printed!r}）",
}
_AFTER = "[[ (starting from {start})]][[ (glibc faked as {glibc})]]"
_AFTER_ZH = "[[（从初始状态 {start} 开始）]][[（glibc 模拟为 {glibc}）]]"

INSTALL_EXPECTATION = declare(
    "install/expectation",
    "Install snippet leaves a state other than the one it promises",
    "安装片段执行后的状态与预期不符",
    "After a sandboxed run (`check --run-install`), an `expect:` of install-runs.yaml that does not hold: a "
    "module that does not import, a distribution pip lists (or not), a listed distribution whose RECORD files "
    "are gone, a module file missing from site-packages, a platform check that prints the other answer on a "
    "faked glibc; with `start:`, from any of the states the run starts from.",
    "pip says `installed` while `import mooncake` fails: the reader finds out on the cluster, at the first sync.",
    message={case: text + _AFTER for case, text in _EXPECTATIONS.items()},
    message_zh={case: text + _AFTER_ZH for case, text in _EXPECTATIONS_ZH.items()},
    fix="correct the snippet, or the expectation in `install-runs.yaml`",
    fix_zh="修改片段，或修改 `install-runs.yaml` 中的预期结果",
)
INSTALL_MANIFEST = declare(
    "install/manifest",
    "install-runs.yaml entry that cannot be run",
    "install-runs.yaml 中的条目无法执行",
    "An install run naming a missing snippet, stating no expectation or a skip without needs/reason, or a "
    "manifest that is not YAML (reported by every check of the site); with `--run-install`, also a skip "
    "matching no command or wheels the package index does not have.",
    "A run that cannot run, or a skip that skips nothing, would pass without checking anything.",
    message={
        "yaml": "not YAML: {error}",
        "snippet": "the run names snippet `{snippet}`, which is not a file of the site",
        "skip": "a skip needs `match=`, `reason=` and `needs=` one of {needs!c} (got {got!r})",
        "expect": "an expectation is one of {kinds!c}[[ (got {got!c})]]",
        "nothing-expected": "the run of {snippet} states nothing that must hold afterwards (`expect:`)",
        "unused-skip": "skip `{match}` of the run of {snippet} matches no command of the snippet",
        "sandbox": "the sandbox of the run cannot be made: {error}",
        "setup": "setup `{command}`[[ (making the start state {start!r})]] failed in the sandbox: {error}",
        "start-not-mapping": "the run of {snippet}: start: is a mapping of a state's name to the commands that make it",
        "start-state-not-list": "the run of {snippet}: start state {state!r} is not a list of commands",
        "start-empty": "the run of {snippet}: start: names no state",
        "fetch": "cannot fetch the wheels the runs use from the package index: {errors!l}",
    },
    message_zh={
        "yaml": "不是合法的 YAML：{error}",
        "snippet": "运行条目引用的片段 `{snippet}` 不是本手册的文件",
        "skip": "skip 条目须有 `match=`、`reason=`，且 `needs=` 为 {needs!c} 之一（实际为 {got!r}）",
        "expect": "期望条目须为 {kinds!c} 之一[[（实际为 {got!c}）]]",
        "nothing-expected": "{snippet} 的运行条目没有声明运行后须成立的条件（`expect:`）",
        "unused-skip": "{snippet} 运行条目中的 skip `{match}` 不匹配片段中的任何命令",
        "sandbox": "无法为该运行创建沙箱：{error}",
        "setup": "setup 命令 `{command}`[[（生成初始状态 {start!r} 时）]]在沙箱中失败：{error}",
        "start-not-mapping": "{snippet} 的运行条目：`start:` 须为状态名到生成该状态的命令列表的映射",
        "start-state-not-list": "{snippet} 的运行条目：初始状态 {state!r} 不是命令列表",
        "start-empty": "{snippet} 的运行条目：`start:` 中没有任何状态",
        "fetch": "无法从软件包索引获取运行所用的 wheel：{errors!l}",
    },
    fix="correct the entry in `install-runs.yaml` as the message says",
    fix_zh="按提示信息修改 `install-runs.yaml` 中的条目",
)
CLAIM_BAD_ATTR = declare(
    "claim/bad-attr",
    "Claim attribute that cannot be read",
    "声明属性无法解析",
    "A claim attribute whose value does not parse (e.g. `requires=` that is not a requirement specifier).",
    "A claim that cannot be read holds nothing.",
    message={
        "": '`{attr}="{value}"`: {error}',
        "choice": '`{attr}="{value}"`: expected one of {expected!c}',
    },
    message_zh={
        "": '`{attr}="{value}"`：{error}',
        "choice": '`{attr}="{value}"`：应为 {expected!c} 之一',
    },
    fix="write the attribute in the form its declaration kind takes",
    fix_zh="按该声明类型要求的格式改写属性值",
)
