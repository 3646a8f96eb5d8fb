"""Rules of claim coverage (``coverage/unbound`` and its kin): every factual statement of a page is bound to what fails
when it is wrong, or marked ※ (``verl_cookbook.checks.coverage``)."""

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

declare(
    "coverage/unbound",
    "Factual statement that nothing holds",
    "事实陈述未绑定检查",
    "A sentence (or a row of an undeclared table) that states a value, version, default, count, file, command, "
    "behaviour or cause — it has a code span, a number, a file name or a word of behaviour or cause — with no `check:` "
    "claim, `run:` marker, verified citation of verl's source or ※ mark in it or right after it.",
    _WHY,
    fix="bind the sentence: a `check:` claim or a `run:` marker right after it, a citation of the verl lines it rests "
    "on, or a ※ mark whose title says what it rests on",
    bad=Example("md", "On Ascend, the HCCL engine registers under the name `nccl`.\n"),
    good=Example("md", f"On Ascend, the HCCL engine registers under the name `nccl`.{_REGISTER}\n"),
)
declare(
    "coverage/history-unbound",
    "Release history without a since/until claim",
    "版本沿革陈述缺少 since/until 声明",
    'A sentence that says where a verl release starts or ends ("since 0.8.0", "0.7.x and earlier", "before 0.9.0", '
    '"the default in 0.9.0", "自 0.9.0 起", "0.7.1 及更早") with no claim carrying the matching `since=`/`until=` '
    "(or applying to that release), or naming a release the site does not cover.",
    "Only the release matrix, which checks a bounded claim on every covered release, can tell whether the history "
    "is right; a claim without the bound is checked on the pinned release alone.",
    fix='add since="X" (or until="Y") to the claim that holds the sentence, or mark it ※ when no covered release '
    "can check it",
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
declare(
    "coverage/blanket-checked",
    "Hand-written claim that everything was checked",
    "手写的“全部已核对”说法",
    "A sentence saying that every statement (snippet, claim, option …) of the page or the site was checked, e.g. "
    '"Every statement on this page was checked against verl 0.9.1" or "本页每一条说法都已核对".',
    "The line under each page's title is generated from what is actually bound; a hand-written blanket claim says "
    "more than the figures and goes stale with the first unbound sentence.",
    fix="delete the sentence; keep the release the page is checked against with its verl-version claim",
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
declare(
    "coverage/mark-without-title",
    "※ mark without a title",
    "※ 标记缺少 title",
    'A ※ mark (`sup class="unchecked"`) without a `title="…"` saying what the statement rests on.',
    "The title is what the reader sees on hover: a report, an upstream thread, reading the source, not run.",
    fix='add title="…" (for example "from a user report, not checked"), and link the report in the sentence',
    bad=Example("md", 'A user reports that the sync hangs on 16 nodes.<sup class="unchecked">※</sup>\n'),
    good=Example(
        "md",
        "A user reports that the sync hangs on 16 nodes."
        '<sup class="unchecked" title="from a user report, not checked">※</sup>\n',
    ),
)
declare(
    "coverage/debt-fixed",
    "Coverage debt entry that no longer applies",
    "覆盖率欠账中的条目已失效",
    "An entry of the site's `coverage-debt.json` that no unbound statement of its page matches any more: the "
    "sentence was bound, reworded or deleted (or the page is gone).",
    "The list only shrinks: a stale entry would let the same sentence come back unbound without a finding.",
    fix="remove the entry (`verl-cookbook coverage --write-debt` rewrites the list from the pages)",
    bad=Example("md", "Nothing here.\n", files={"coverage-debt.json": _DEBT}),
    good=Example("md", "The HCCL engine registers as `nccl`.\n", files={"coverage-debt.json": _DEBT}),
)
declare(
    "coverage/debt-invalid",
    "Coverage debt list cannot be read",
    "覆盖率欠账文件无法读取",
    "A `coverage-debt.json` at the site root that is not JSON, or not a coverage debt list.",
    "Nothing it records is read, so every statement it lists is reported.",
    fix="rewrite it with `verl-cookbook coverage --write-debt`",
)
