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
)
FACT_NO_ENTRY = declare(
    "fact/no-entry",
    "No documented value for the stated CANN release",
    "所述 CANN 版本没有对应的文档值",
    "A `check: fact … cann=X` claim where no documented CANN release at or before X has the fact.",
    "A value for a release nobody documented is a guess, not a fact.",
)
FACT_MISMATCH = declare(
    "fact/mismatch",
    "Claim disagrees with the snapshot",
    "声明与快照条目的取值不符",
    "A `check: fact id=… value=…` claim whose value differs from the snapshot's (for the stated CANN release).",
    "The page says one thing, the upstream source another: the finding names the repository, commit and line.",
)
WHEEL_UNKNOWN = declare(
    "wheel/unknown",
    "Claim names a wheel not in the snapshot",
    "声明引用的 wheel 不在快照中",
    "A `check: wheel dist=…` (or `shares=`) naming a distribution the wheel snapshot does not hold.",
    "Only wheels whose metadata was read (scripts/refresh_wheel_facts.py) can hold a claim.",
)
WHEEL_MISMATCH = declare(
    "wheel/mismatch",
    "Claim disagrees with the wheel's metadata",
    "声明与 wheel 元数据不符",
    "A `check: wheel …` claim (a file in RECORD, a requirement, a platform tag, top_level, a needed library, "
    "shared files, the glibc floor) that the wheel's own metadata contradicts.",
    "What pip installs is what the wheel says, not what a page remembers.",
)
COMBO_CONFLICT = declare(
    "combo/conflict",
    "Combination presented as installable conflicts",
    "声明可共存的版本组合实际冲突",
    "A `check: combo pins=… verdict=ok|missing` that pip's resolver rejects (ResolutionImpossible; pip's "
    "conflicting requirement is quoted).",
    "A reader following the page would hit the resolver's conflict on the cluster.",
)
COMBO_NO_CONFLICT = declare(
    "combo/no-conflict",
    "Combination presented as conflicting (or not installable) that pip resolves",
    "声明冲突的版本组合实际可共存",
    "A `check: combo pins=… verdict=conflict|missing` for which pip's resolver finds a set of versions.",
    "A warning that no longer holds sends readers to needless workarounds.",
)
COMBO_NOT_ON_INDEX = declare(
    "combo/not-on-index",
    "Combination whose requirements the package index cannot satisfy",
    "版本组合的依赖在包索引上不存在",
    "A `check: combo pins=… verdict=ok|conflict` where pip stops at a requirement no distribution on the index "
    "matches (e.g. vllm-ascend 0.23.0's triton-ascend==3.2.2), quoted in pip's words.",
    "`pip install` from the page fails before it resolves anything; the reader needs another index or a pin.",
)
COMBO_UNRESOLVED = declare(
    "combo/unresolved",
    "Combination pip has not resolved",
    "pip 尚未解析该版本组合",
    "A `check: combo` whose pins have no answer in snapshots/resolver.json.",
    "Only pip's own resolver decides whether pins install together; run scripts/refresh_resolver.py.",
)
INSTALL_UNINSTALL_SHARED_FILES = declare(
    "install/uninstall-shared-files",
    "Uninstalling a wheel that shares files with one just installed",
    "卸载与已装 wheel 共用文件的包",
    "`pip uninstall X` after installing Y in the same script, where the two wheels' RECORD lists the same paths.",
    "pip deletes the shared files, so Y stays listed as installed while its files are gone; uninstall first.",
)
INSTALL_CHECKOUT_OTHER_RELEASE = declare(
    "install/checkout-other-release",
    "Checking out another release than the page's",
    "检出的版本与页面所述版本不同",
    "`git checkout vX` in a snippet on a page that states another verl release.",
    "The reader runs code of another release than the one the page was checked against.",
)
INSTALL_COMMAND_FAILED = declare(
    "install/command-failed",
    "Install snippet stops in the sandbox",
    "安装片段在沙箱中执行失败",
    "A snippet declared in install-runs.yaml that exits non-zero when run (`check --run-install`) in a throwaway "
    "virtualenv with the real wheels from the package index, its NPU/cluster commands skipped as declared.",
    "A reader who copies the snippet hits the same error on the cluster, before any NPU is involved.",
)
INSTALL_EXPECTATION = declare(
    "install/expectation",
    "Install snippet leaves a state other than the one it promises",
    "安装片段执行后的状态与预期不符",
    "After a sandboxed run (`check --run-install`), an `expect:` of install-runs.yaml that does not hold: a "
    "module that does not import, a distribution pip lists (or not), a listed distribution whose RECORD files "
    "are gone, a module file missing from site-packages, a platform check that prints the other answer on a "
    "faked glibc; with `start:`, from any of the states the run starts from.",
    "pip says `installed` while `import mooncake` fails: the reader finds out on the cluster, at the first sync.",
)
INSTALL_MANIFEST = declare(
    "install/manifest",
    "install-runs.yaml entry that cannot be run",
    "install-runs.yaml 中的条目无法执行",
    "An install run naming a missing snippet, stating no expectation or a skip without needs/reason, or a "
    "manifest that is not YAML (reported by every check of the site); with `--run-install`, also a skip "
    "matching no command or wheels the package index does not have.",
    "A run that cannot run, or a skip that skips nothing, would pass without checking anything.",
)
CLAIM_BAD_ATTR = declare(
    "claim/bad-attr",
    "Claim attribute that cannot be read",
    "声明属性无法解析",
    "A claim attribute whose value does not parse (e.g. `requires=` that is not a requirement specifier).",
    "A claim that cannot be read holds nothing.",
)
