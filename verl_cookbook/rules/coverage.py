"""Rules of claim coverage (``coverage/``): every factual statement of a page is bound to what fails when it is wrong,
or marked ※ (``verl_cookbook.checks.coverage``); the site's debt list of statements not bound yet only shrinks
(``verl_cookbook.coverage_debt``)."""

from __future__ import annotations

from verl_cookbook.rules import Example, declare

_REGISTER = """<!-- check: contains file="verl/checkpoint_engine/hccl_checkpoint_engine.py" \
match='@CheckpointEngineRegistry.register("nccl")' -->"""
_ADAPTER = """<!-- check: contains file="verl/utils/checkpoint/megatron_checkpoint_manager.py" \
match='hf_adapter_ckpt_path = os.path.join(hf_ckpt_path, "adapter")'"""
_DEBT = (
    '{"verl-cookbook-coverage-debt": 1, "coverage/unbound": {"example.md": ["The HCCL engine registers as `nccl`."]}}\n'
)
_WHY = "A factual sentence that nothing checks goes stale silently; the reader cannot tell it from a checked one."

COVERAGE_UNBOUND = declare(
    "coverage/unbound",
    "Factual statement that nothing holds",
    "事实陈述未绑定检查",
    "A sentence (or a row of an undeclared table) that states a value, version, default, count, file, command, "
    "behaviour or cause — it has a code span, a number, a file name or a word of behaviour or cause — with no `check:` "
    "claim, `run:` marker, verified citation of verl's source or ※ mark in it or right after it.",
    _WHY,
    message="“{words}” states a fact that nothing holds",
    message_zh="“{words}”陈述了事实，但没有任何检查、运行或源码引用支撑，也未标 ※",
    extra=("text", "signal"),
    fix="bind the sentence: a `check:` claim or a `run:` marker right after it, a citation of the verl lines it rests "
    "on, or a ※ mark whose title says what it rests on",
    fix_zh="为该句建立依据：紧随其后添加 `check:` 声明或 `run:` 标记、引用其所依据的 verl 源码行，或加上 ※ "
    "标记并在其 title 中说明依据",
    bad=Example("md", "On Ascend, the HCCL engine registers under the name `nccl`.\n"),
    good=Example("md", f"On Ascend, the HCCL engine registers under the name `nccl`.{_REGISTER}\n"),
)
COVERAGE_HISTORY_UNBOUND = declare(
    "coverage/history-unbound",
    "Release history without a since/until claim",
    "版本沿革陈述缺少 since/until 声明",
    'A sentence that says where a verl release starts or ends ("since 0.8.0", "0.7.x and earlier", "before 0.9.0", '
    '"the default in 0.9.0", "自 0.9.0 起", "0.7.1 及更早") with no claim carrying the matching `since=`/`until=` '
    "(or applying to that release), or naming a release the site does not cover.",
    "Only the release matrix, which checks a bounded claim on every covered release, can tell whether the history "
    "is right; a claim without the bound is checked on the pinned release alone.",
    message={
        "": '“{words}” says “{said}”: bind it with a claim carrying {bound}="{value}" (the release matrix checks it '
        "on every covered release)",
        "at": "“{words}” says “{said}”: bind it with a claim that applies to verl {value} (the release matrix checks "
        "it on every covered release)",
        "uncovered": "“{words}” names verl {version} (“{said}”), which no covered release can check (covered: "
        "{covered!l}): cover that release or mark the sentence ※",
        "oldest": "“{words}” says that something starts with verl {version} (“{said}”), but {version} is the oldest "
        "covered release and no earlier one can show the start: mark the sentence ※, or say “every covered release” "
        "if that is what you checked",
    },
    message_zh={
        "": '“{words}”写明“{said}”：请用带 {bound}="{value}" 的声明支撑（版本矩阵会在每个覆盖的版本上检查）',
        "at": "“{words}”写明“{said}”：请用适用于 verl {value} 的声明支撑（版本矩阵会在每个覆盖的版本上检查）",
        "uncovered": "“{words}”提到的 verl {version}（“{said}”）不在覆盖范围内（覆盖的版本：{covered!l}），无法检查："
        "请覆盖该版本，或为该句标 ※",
        "oldest": "“{words}”写明某项自 verl {version} 起（“{said}”），但 {version} 是覆盖范围内最早的版本，"
        "没有更早的版本可以证明这一起点：请为该句标 ※；若核对的只是覆盖范围内的各版本，请改写为“本手册覆盖的各版本”",
    },
    extra=("text",),
    fix='add since="X" (or until="Y") to the claim that holds the sentence, or mark it ※ when no covered release '
    "can check it",
    fix_zh='为承载该句的声明添加 `since="X"`（或 `until="Y"`）；若没有任何覆盖的版本能核对它，请将其标记为 ※',
    bad=Example(
        "md",
        f"Since verl 0.8.0, Megatron-Bridge saves a LoRA adapter under `huggingface/adapter/`.\n{_ADAPTER} -->\n",
    ),
    good=Example(
        "md",
        "Since verl 0.8.0, Megatron-Bridge saves a LoRA adapter under `huggingface/adapter/`.\n"
        f'{_ADAPTER} since="0.8.0" -->\n',
    ),
)
COVERAGE_BLANKET_CHECKED = declare(
    "coverage/blanket-checked",
    "Hand-written claim that everything was checked",
    "手写的“全部已核对”说法",
    "A sentence saying that every statement (snippet, claim, option …) of the page or the site was checked, e.g. "
    '"Every statement on this page was checked against verl 0.9.1" or "本页每一条说法都已核对".',
    "The line under each page's title is generated from what is actually bound; a hand-written blanket claim says "
    "more than the figures and goes stale with the first unbound sentence.",
    message="“{words}” says everything here was checked; the line under the title says what is",
    message_zh="“{words}”声称全部内容均已核对；标题下的说明按实际数字生成",
    extra=("text",),
    fix="delete the sentence; keep the release the page is checked against with its verl-version claim",
    fix_zh="删除该句；页面所核对的版本由其 verl-version 声明给出",
    bad=Example(
        "md",
        '!!! info "Checked against"\n    Every statement on this page was checked against verl 0.9.1.\n'
        '    <!-- check: verl-version version="0.9.1" -->\n',
    ),
    good=Example(
        "md",
        '!!! info "Checked against"\n    This page was checked against verl 0.9.1.\n'
        '    <!-- check: verl-version version="0.9.1" -->\n',
    ),
)
COVERAGE_UNKNOWN_TEST = declare(
    "coverage/unknown-test",
    "Run marker naming no test",
    "run 标记指向不存在的测试",
    "A `run:` marker, or a generated page's `generated:` marker, naming `FILE::TEST` where FILE under the site's "
    "`tests/` folder does not define a test function TEST (read statically).",
    "Claim coverage counts the statement as held by that test; a marker left behind by a renamed or deleted test "
    "holds nothing.",
    message={
        "": "`{ref}`: tests/{file} defines no test `{test}`",
        "no-file": "`{ref}`: there is no tests/{file}",
    },
    message_zh={
        "": "`{ref}`：tests/{file} 中没有测试函数 `{test}`",
        "no-file": "`{ref}`：不存在 tests/{file}",
    },
    fix="name the test function that holds the statement (`FILE::test_name`, FILE relative to tests/), or bind the "
    "statement another way",
    fix_zh="改为支撑该句的测试函数（`文件::test_函数名`，文件路径相对于 tests/），或以其他方式为该句建立依据",
)
COVERAGE_MARK_WITHOUT_TITLE = declare(
    "coverage/mark-without-title",
    "※ mark without a title",
    "※ 标记缺少 title",
    'A ※ mark (`sup class="unchecked"`) without a `title="…"` saying what the statement rests on.',
    "The title is what the reader sees on hover: a report, an upstream thread, reading the source, not run.",
    message='※ without title="…": say what “{words}” rests on',
    message_zh='※ 标记缺少 `title="…"`：请写明“{words}”的依据',
    extra=("text",),
    fix='add title="…" (for example "from a user report, not checked"), and link the report in the sentence',
    fix_zh='添加 `title="…"`（例如 `title="from a user report, not checked"`），并在句中链接该报告',
    bad=Example("md", 'A user reports that the sync hangs on 16 nodes.<sup class="unchecked">※</sup>\n'),
    good=Example(
        "md",
        "A user reports that the sync hangs on 16 nodes ([verl #1234](https://github.com/verl-project/verl/issues/123"
        "4))."
        '<sup class="unchecked" title="from a user report, not checked">※</sup>\n',
    ),
)
COVERAGE_MARK_WITHOUT_LINK = declare(
    "coverage/mark-without-link",
    "※ resting on a report that is not linked",
    "※ 所依据的报告未给出链接",
    "A ※ mark whose title says the statement rests on a report, a thread or an issue, on a sentence under a heading "
    "whose section links none.",
    "The mark moves the proof to the report; a reader who cannot open it has nothing to check the sentence against.",
    message="“{words}” is marked ※ as {title!r} but links no report",
    message_zh="“{words}”以“{title}”标 ※，但未给出报告的链接",
    extra=("text",),
    fix="link the report, thread or issue in the sentence (or say in the title what else the sentence rests on)",
    fix_zh="在句中链接该报告、讨论或议题（issue）（或在 title 中说明该句还依据什么）",
    bad=Example(
        "md",
        "A user reports that the sync hangs on 16 nodes."
        '<sup class="unchecked" title="from a user report, not checked">※</sup>\n',
    ),
    good=Example(
        "md",
        "A user reports that the sync hangs on 16 nodes ([verl #1234](https://github.com/verl-project/verl/issues/123"
        "4))."
        '<sup class="unchecked" title="from a user report, not checked">※</sup>\n',
    ),
)
COVERAGE_DEBT_FIXED = declare(
    "coverage/debt-fixed",
    "Coverage debt entry that no longer applies",
    "待补依据清单中的条目已失效",
    "An entry of the site's `coverage-debt.json` that no unbound statement of its page matches any more: the "
    "sentence was bound, reworded or deleted (or the page is gone).",
    "The list only shrinks: a stale entry would let the same sentence come back unbound without a finding.",
    message={
        "": "{page} no longer has this {listed} statement: “{words}”; remove the entry",
        "gone": "{page} does not exist: remove its {listed} entries",
    },
    message_zh={
        "": "{page} 中已没有这条 {listed} 陈述：“{words}”，请删除该条目",
        "gone": "{page} 不存在：请删除它的 {listed} 条目",
    },
    extra=("text",),
    fix="remove the entry (`verl-cookbook coverage --write-debt` rewrites the list from the pages)",
    fix_zh="删除该条目（`verl-cookbook coverage --write-debt` 会根据页面重写该列表）",
    bad=Example("md", "Nothing here.\n", files={"coverage-debt.json": _DEBT}),
    good=Example("md", "The HCCL engine registers as `nccl`.\n", files={"coverage-debt.json": _DEBT}),
)
COVERAGE_DEBT_INVALID = declare(
    "coverage/debt-invalid",
    "Coverage debt list cannot be read",
    "待补依据清单无法读取",
    "A `coverage-debt.json` at the site root that cannot be read, is not JSON, or is not a coverage debt list.",
    "Nothing it records is read, so every statement it lists is reported.",
    message="{file} is not a coverage debt list ({error})",
    message_zh="{file} 不是待补依据清单（{error}）",
    fix="rewrite it with `verl-cookbook coverage --write-debt`",
    fix_zh="用 `verl-cookbook coverage --write-debt` 重写该文件",
)
