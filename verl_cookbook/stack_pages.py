"""The version-matrix tables, rendered from the plans ``verl-cookbook stack`` prints (never typed by hand).

Pure functions of the committed resolutions (``snapshots/stack_plans.json``), the stack facts and the index's upload
times (``snapshots/index_uploads.json``), in Chinese (``"zh"``) or English (``"en"``). The mkdocs hook
``scripts/hooks/stack_tables.py`` puts them where a page has the marker ``<!-- stack: plans -->`` or
``<!-- stack: uploads -->``; a page with a marker the hook cannot fill fails the build.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from packaging.utils import canonicalize_name
from packaging.version import Version

from verl_cookbook.stack_facts import UNSUPPORTED, StackFact
from verl_cookbook.stack_plan import Plan, build, guide_differences, rejects, source_build
from verl_cookbook.stack_render import glibc_text
from verl_cookbook.stack_resolve import BACKENDS, Ask, recorded, release_fact, uploads

# the rows a table shows: what verl's guide and the wheels pin; the other pins are in the command's output
KEY_DISTS = (
    "verl",
    "torch",
    "torch-npu",
    "torchvision",
    "torchaudio",
    "transformers",
    "numpy",
    "vllm",
    "vllm-ascend",
    "triton-ascend",
    "arctic-inference",
    "pyzmq",
    "checkpoint-engine",
    "mooncake-transfer-engine-npu",
)
PRODUCT_TABLES = ("A2", "A3", "950")  # one compatibility table per product line, as Ascend's 版本配套表 are laid out
INSTALL_STEPS = "index.md#install-steps"  # the one set of install commands; the tables link to it, never repeat it

TEXT: dict[str, dict[str, Any]] = {
    "zh": {
        "release_h": "verl {release} {{ #verl-{anchor} }}",
        "cols": "| 软件 | 版本 | 安装方式/说明 |\n|---|---|---|",
        "no_plan": "verl 昇腾安装指南所列的版本无法在一次 pip 依赖解析中同时满足：{conflicts}"
        "（逐个安装时 pip 只提示冲突，所装版本不满足这些要求）。请使用 verl {newest}（见上表）。",
        "no_plan_raw": "verl 昇腾安装指南所列的版本无法在一次 pip 依赖解析中同时满足。请使用 verl {newest}（见上表）。",
        "how": {
            "index": "从 PyPI 安装",
            "elsewhere": "从 verl 安装脚本所用的 triton-ascend 软件源安装（PyPI 上没有该版本）",
            "sdist": "从 PyPI 安装源码包，安装时在节点上编译",
            "sdist-pure": "从 PyPI 安装源码包（纯 Python，无需编译）",
            "build": "源码编译（`VLLM_TARGET_DEVICE=empty`）",
            "no-deps": "从 PyPI 安装 wheel（`--no-deps`，最后安装）",
            "source": "在节点上源码编译",
        },
        "host": "在主机上安装，见 [verl 昇腾安装指南]({source}){at}",
        "at_main": "（读自主分支 {commit} 提交：本手册所读的 verl 仓库副本早于 {release} 发布）",
        "glibc": "操作系统的 glibc 版本：各固定版本在 PyPI 上最旧的 wheel 所需 glibc 中的最高者",
        "backend_only": "（仅 {backends} 后端）",
        "backends_only": "该产品上只有 {backends} 后端有配套版本，下表仅适用于这些后端。",
        "dated": "`{version}`（{date}）",
        "upload_cols": "| verl | 发布到 PyPI | 当时最新的 Mooncake NPU wheel | 当时最新的 checkpoint-engine |\n"
        "|---|---|---|---|",
        "none_yet": "无（尚未发布）",
        "no_guide": "verl {release} 没有为该产品提供昇腾安装指南，因此没有配套版本。",
        "not_stated": "—",
        "not_stated_note": "以昇腾为该产品发布的配套版本为准，"
        "verl 的 [Ascend 950PR/Ascend 950DT 安装指南]({source}){at}未给出版本",
        "guide_diff": "verl 昇腾安装指南中 {name} 的版本为 {guide}，{decider}，因此本表为 {pinned}。",
        "guide_diff_plain": "verl 昇腾安装指南中 {name} 的版本为 {guide}，该版本无法与表中其他版本同时安装，"
        "本表为 {pinned}。",
        "decider": "{who} 要求 `{req}`",
        "guide_none": "verl 的 [Ascend 950PR/Ascend 950DT 安装指南]({source}){at}尚未给出 {name} 版本"
        "（指南注明待 Q2 版本正式商发后更新）；{decider}，因此本表为 {pinned}，本手册未验证该版本能否在该产品上运行。",
        "see_note": "（见表下说明）",
        "guide_triton": "[verl 昇腾安装指南]({source}){at}还列出了 `triton` {guide}（主线 Triton），本表不列："
        "表中各软件均不依赖它{script}，主线 Triton 与 triton-ascend 不应同时安装在一个环境中，"
        "见[故障排查：日志出现 `Failed to import Triton kernels`]"
        "(../recipes/troubleshooting.md#vllm-triton-kernels-log)。",
        "guide_triton_script": "，A2/A3 的 [verl 安装脚本]({script})也会先卸载 `triton`，只安装 triton-ascend",
        "guide_megatron": "verl 昇腾安装指南{at}还列出了 [Megatron-LM `{megatron}`]({m_guide}) 与 "
        "[MindSpeed `{mindspeed}`]({s_guide})（Megatron 训练后端），verl 按该分支或提交从源码安装"
        "（[Megatron-LM]({m_src})、[MindSpeed]({s_src})）；"
        "本表不列这两项，表中版本的依赖解析也未包含它们。",
        "kimi_950": "据 verl 的 [checkpoint_engine/README.md]({source}){at}，在该产品上使用 `kimi_ckpt_engine` 时，"
        "须开启 HCCL 白名单校验，"
        "见 [HCCL 白名单与相关环境变量](../ascend/hccl-whitelist.md)。",
        "kimi_950_unsupported": "verl {release} 不支持在该产品上使用 `kimi_ckpt_engine`。",
        "by_backend": "{floor} 及以上（{backends}，由 {who} 决定）",
        "list_sep": "、",
        "hdk": "NPU 驱动与固件",
        "products": {"A2": "Atlas A2 训练系列产品", "A3": "Atlas A3 训练系列产品", "950": "Ascend 950PR/Ascend 950DT"},
        "source_build": "按本表安装时，在该产品的节点上源码编译 vllm-ascend {version}："
        "PyPI 上的 wheel 只能在 {chip_name}上运行。"
        "编译步骤见[安装检查点引擎的依赖：安装 `nccl` 后端的依赖](index.md#nccl-backend){soc}。",
        "source_soc": "；无法执行 npu-smi 的环境中编译时，设置 `SOC_VERSION={soc}`",
        "soc_for": "（{product} 的取值）",
        "older_stack": "上述编译步骤按 verl {newest} 的软件栈编写"
        "（克隆 vLLM 的 `v{newest_vllm}` 与 vllm-ascend 的 `v{newest_va}` 标签）："
        "用于本表时，改为克隆 vLLM 的 `v{vllm}` 与 vllm-ascend 的 `v{va}` 标签，并安装本表所列版本，"
        "也可执行 `verl-cookbook stack --verl {release} --product {product}` 查看本表的安装顺序。",
        "wheel_ok": "该产品上可安装 PyPI 上的 vllm-ascend {version} wheel，"
        "也可按[安装检查点引擎的依赖：安装 `nccl` 后端的依赖](index.md#nccl-backend)在节点上源码编译。",
    },
    "en": {
        "release_h": "verl {release} {{ #verl-{anchor} }}",
        "cols": "| Software | Version | How to install / notes |\n|---|---|---|",
        "no_plan": "The versions verl's Ascend install guide names do not resolve together in a single pip resolution: "
        "{conflicts} (installed one at a time, pip only warns, and what is installed breaks these requirements). "
        "Use verl {newest} (tables above).",
        "no_plan_raw": "The versions verl's Ascend install guide names do not resolve together in a single pip "
        "resolution. Use verl {newest} (tables above).",
        "how": {
            "index": "from PyPI",
            "elsewhere": "from the triton-ascend index verl's install script uses (this version is not on PyPI)",
            "sdist": "source package from PyPI, compiled on the node",
            "sdist-pure": "source package from PyPI (pure Python, no compiler)",
            "build": "from source (`VLLM_TARGET_DEVICE=empty`)",
            "no-deps": "wheel from PyPI (`--no-deps`, last)",
            "source": "built on the node from source",
        },
        "host": "on the host, see [verl's Ascend install guide]({source}){at}",
        "at_main": " (read on main at commit {commit}: our copy of verl's repository predates {release})",
        "glibc": "the operating system's glibc: the highest of the glibc each pinned version's oldest wheel on PyPI "
        "needs",
        "backend_only": " ({backends} only)",
        "backends_only": "On this product only the {backends} backends have matching versions; "
        "the table applies to them only.",
        "dated": "`{version}` ({date})",
        "upload_cols": "| verl | Released on PyPI | Newest Mooncake NPU wheel then | Newest checkpoint-engine then |\n"
        "|---|---|---|---|",
        "none_yet": "none yet",
        "no_guide": "verl {release} has no Ascend install guide for this product, so there are no matching versions.",
        "not_stated": "—",
        "not_stated_note": "the version Ascend releases for this product; verl's [Ascend 950PR/950DT install guide]"
        "({source}){at} names none",
        "guide_diff": "verl's Ascend install guide names {name} {guide}; {decider}, so the table gives {pinned}.",
        "guide_diff_plain": "verl's Ascend install guide names {name} {guide}, which does not install together "
        "with the other versions of the table; the table gives {pinned}.",
        "decider": "{who} requires `{req}`",
        "guide_none": "verl's [Ascend 950PR/950DT install guide]({source}){at} names no {name} version yet (it says "
        "one follows once the Q2 release is out); {decider}, so the table gives {pinned}, which this manual has not "
        "checked on this product.",
        "see_note": " (see the note below the table)",
        "guide_triton": "[verl's Ascend install guide]({source}){at} also lists `triton` {guide} (mainline Triton); "
        "the table has no such row, because none of its packages requires it{script}: mainline Triton and "
        "triton-ascend do not belong in one environment (see [Troubleshooting: the log shows `Failed to import Triton "
        "kernels`](../recipes/troubleshooting.md#vllm-triton-kernels-log)).",
        "guide_triton_script": ", and on A2/A3 [verl's install script]({script}) uninstalls `triton` and installs "
        "triton-ascend alone",
        "guide_megatron": "verl's Ascend install guide{at} also names [Megatron-LM `{megatron}`]({m_guide}) and "
        "[MindSpeed `{mindspeed}`]({s_guide}), the Megatron training backend, which verl installs from source "
        "at that branch or commit "
        "([Megatron-LM]({m_src}), [MindSpeed]({s_src})); the table has no rows for them, and its versions were "
        "resolved without them.",
        "kimi_950": "verl's [checkpoint_engine/README.md]({source}){at} says that `kimi_ckpt_engine` on this "
        "product needs HCCL whitelist checking turned on: see "
        "[HCCL whitelist and related environment variables](../ascend/hccl-whitelist.md).",
        "kimi_950_unsupported": "verl {release} does not support `kimi_ckpt_engine` on this product.",
        "by_backend": "{floor} or later ({backends}; set by {who})",
        "list_sep": ", ",
        "hdk": "NPU driver and firmware",
        "products": {"A2": "Atlas A2 training series", "A3": "Atlas A3 training series", "950": "Ascend 950PR/950DT"},
        "source_build": "On this product this table builds vllm-ascend {version} on the node from source: "
        "the wheel on PyPI runs on the {chip_name} only. The build steps are in "
        "[Installing what the checkpoint engine needs: the `nccl` backend's dependencies](index.md#nccl-backend){soc}.",
        "source_soc": "; where npu-smi cannot run during the build, set `SOC_VERSION={soc}`",
        "soc_for": " (the value for the {product})",
        "older_stack": "Those build steps are written for verl {newest}'s stack "
        "(tags `v{newest_vllm}` of vLLM and `v{newest_va}` of vllm-ascend): for this table, clone tags "
        "`v{vllm}` of vLLM and `v{va}` of vllm-ascend instead and install the versions above, or print this "
        "table's install order with `verl-cookbook stack --verl {release} --product {product}`.",
        "wheel_ok": "On this product the vllm-ascend {version} wheel from PyPI can be installed, "
        "or vllm-ascend built on the node as in [Installing what the checkpoint engine needs: the `nccl` backend's "
        "dependencies](index.md#nccl-backend).",
    },
}


# What verl's guide names beyond the pins ``guide_differences`` compares (those are the index's packages the snapshot
# resolves with a --pin): triton-ascend, which verl's script takes from its own index, and the rows of a guide that
# names no version yet (verl's 950PR/950DT guide for torch_npu). Guide key -> distribution.
GUIDE_ALSO = {"triton_ascend": "triton-ascend", "torch_npu": "torch-npu"}


def _guide_version(value: str) -> bool:
    return re.fullmatch(r"\d[\w.]*", value) is not None


def guide_also_notes(release: str, base: Plan, lang: str) -> tuple[list[str], set[str]]:
    """Notes for the table where verl's guide names another triton-ascend than the table gives (review18a F1: 0.9.0's
    guide names 3.2.1, vllm-ascend 0.23.0 requires 3.2.2), or names no version of a row yet (F2: the 950PR/950DT guide's
    torch_npu), each with the requirement that decides; and the distributions whose row points to such a note."""
    t = TEXT[lang]
    notes: list[str] = []
    unnamed: set[str] = set()
    compared = {canonicalize_name(d.name) for d in guide_differences(base)}
    for key, dist in GUIDE_ALSO.items():
        f, pin = base.facts.get(key), _pin(base, dist)
        if f is None or pin is None or dist in compared:
            continue
        if _guide_version(f.value):
            if f.value == pin.version or dist != "triton-ascend":
                continue  # torch_npu with a version is guide_differences' (it resolves it with a --pin)
            against = [w for w in pin.why if rejects(w, f.value)]
            if against:
                decided = decider(against[0], lang)
                notes.append(t["guide_diff"].format(name=dist, guide=f.value, pinned=pin.version, decider=decided))
            else:
                notes.append(t["guide_diff_plain"].format(name=dist, guide=f.value, pinned=pin.version))
            continue
        why = next((w for w in pin.why if "Requires-Dist" in w), None)
        if why is None:
            continue
        at = at_main(f, release, lang)
        notes.append(
            t["guide_none"].format(
                source=f.source, at=at, name=pin.name, decider=decider(why, lang), pinned=pin.version
            )
        )
        unnamed.add(dist)
    # mainline Triton: a row of verl's guide the tables leave out on purpose (review24g F4): no package of the plan
    # requires it, and on A2/A3 verl's install script removes it before installing triton-ascend (the 950 guide
    # installs without that script: review26g M1)
    f, script = base.facts.get("triton"), release_fact(base.ask, "script", "uninstall_triton")
    if f is not None and _guide_version(f.value) and _pin(base, "triton") is None:
        at = at_main(f, release, lang)
        said = t["guide_triton_script"].format(script=script.source) if script and base.ask.family == "a3" else ""
        notes.append(t["guide_triton"].format(source=f.source, at=at, guide=f.value, script=said))
    # Megatron-LM and MindSpeed: the Megatron training backend, which verl checks out from git at the guide's branch
    # or commit (its script on A2/A3, the guide's own commands on 950); the tables resolve no training backend
    # (review25g F1)
    m, s = base.facts.get("megatron_lm"), base.facts.get("mindspeed")
    m_src, s_src = (release_fact(base.ask, "checkout", f"{base.ask.family}.{k}") for k in ("megatron_lm", "mindspeed"))
    # only where verl checks out what the guide names: else the note would name what verl does not install
    if m and s and m_src and s_src and (m_src.value, s_src.value) == (m.value, s.value):
        notes.append(
            t["guide_megatron"].format(
                at=at_main(m, release, lang),
                megatron=m.value,
                mindspeed=s.value,
                m_guide=m.source,
                s_guide=s.source,
                m_src=m_src.source,
                s_src=s_src.source,
            )
        )
    return notes, unnamed


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def decider(why: str, lang: str) -> str:
    """One reason of a pin ("who: requirement") said plainly, for the note under a table where the plan departs
    from verl's guide: "vllm-ascend 0.23.0 requires `transformers==5.5.4`" (the full reasons are in the command's
    output, not on the page)."""
    t = TEXT[lang]
    who, sep, req = why.rpartition(": ")
    if not sep:
        return _cell(why)
    who = re.sub(r"\s*\(https?://[^)\s]+\)", "", who)
    if m := re.match(r"(\S+ \S+) Requires-Dist", who):
        who = m.group(1)
    elif m := re.match(r"vLLM (\S+) built with", who):
        who = f"vLLM {m.group(1)}"
    return t["decider"].format(who=_cell(who), req=_cell(req))


@cache  # a pure function of the committed snapshots: both languages' pages build the same plans
def plans_for(release: str, product: str) -> dict[str, Plan]:
    out = {}
    for backend in BACKENDS:
        ask = Ask(release, product, backend=backend)
        record = recorded(ask)
        if record is None:
            raise LookupError(f"no committed resolution for {ask.key}: run scripts/refresh_stack_plans.py")
        out[backend] = build(ask, record)
    return out


def at_main(f: StackFact, release: str, lang: str) -> str:
    """Where a fact about verl ``release`` was read when not at the release's tag: our copy of verl's repository ends
    before 0.9.1 was released and 0.9.1's wheel and sdist ship neither the guide nor the checkpoint-engine README, so
    what the site follows for 0.9.1 is main at a commit (its version file says 0.10.0.dev); "" when read at the tag."""
    if f.read_at_tag(release):
        return ""
    return TEXT[lang]["at_main"].format(release=release, commit=(f.ref or "")[:7])


def table(release: str, product: str, lang: str) -> list[str]:
    """The compatibility table of one release on one product line: software, version, how to install it. What decides
    each version, the full dependency list and the commands are the output of ``verl-cookbook stack``, not the page's;
    the install steps are the install page's (``INSTALL_STEPS``)."""
    t = TEXT[lang]
    plans = plans_for(release, product)
    base = plans["nccl"]
    if base.verdict == "unsupported":
        return [t["no_guide"].format(release=release)]
    if base.verdict != "ok":
        return [conflict_text(base.pip_says, release, lang)]
    lines: list[str] = []
    ok = [b for b, p in plans.items() if p.verdict == "ok"]
    if len(ok) < len(BACKENDS):  # say once above the table, not on every row
        lines += [t["backends_only"].format(backends=t["list_sep"].join(f"`{b}`" for b in ok)), ""]
    lines.append(t["cols"])
    notes: list[str] = []
    unstated = None  # a guide that names no CANN version names no driver either: both rows say so
    for key, label in (("cann", "CANN"), ("hdk", t["hdk"])):  # the host's software first, as Ascend's tables do
        f = base.facts.get(key) or (unstated if key == "hdk" else None)
        if f is None:
            continue
        if key == "cann" and not f.value[:1].isdigit():
            unstated = f
        if f.value[:1].isdigit():
            shown = f.value.upper() if key == "hdk" else f.value  # Ascend writes driver releases as 26.0.RC1
            lines.append(
                f"| {label} | `{_cell(shown)}` | {t['host'].format(source=f.source, at=at_main(f, release, lang))} |"
            )
        else:
            note = t["not_stated_note"].format(source=f.source, at=at_main(f, release, lang))
            lines.append(f"| {label} | {t['not_stated']} | {note} |")
    also, unnamed = guide_also_notes(release, base, lang)
    for dist in KEY_DISTS:
        having = [b for b, p in plans.items() if p.verdict == "ok" and _pin(p, dist) is not None]
        if not having:
            continue
        pin = _pin(plans[having[0]], dist)
        assert pin is not None
        named = t["list_sep"].join(f"`{b}`" for b in having)
        only = "" if len(having) == len(ok) else t["backend_only"].format(backends=named)
        see = t["see_note"] if dist in unnamed else ""
        lines.append(f"| `{pin.name}`{only} | `{pin.version}` | {t['how'][pin.how]}{see} |")
    floors: dict[str, list[str]] = {}
    setters: dict[str, list[str]] = {}  # the pin whose oldest file for the target needs that glibc
    for backend, p in plans.items():
        if p.verdict == "ok":
            floor = glibc_text(p).removeprefix("glibc ")
            floors.setdefault(floor, []).append(backend)
            if (dec := p.glibc_decider) is not None and (who := f"`{dec[1].name}` {dec[1].version}") not in setters.get(
                floor, []
            ):
                setters.setdefault(floor, []).append(who)
    sep = t["list_sep"]
    cell = " / ".join(
        t["by_backend"].format(floor=f, backends=sep.join(f"`{x}`" for x in b), who=sep.join(setters.get(f, [])))
        for f, b in sorted(floors.items())
    )
    lines.append(f"| glibc | {cell} | {t['glibc']} |")
    for d in guide_differences(base):
        key = "guide_diff" if d.decided_by else "guide_diff_plain"
        decided = decider(d.decided_by, lang) if d.decided_by else ""
        notes.append(t[key].format(name=d.name, guide=d.guide, pinned=d.pinned, decider=decided))
    notes += also
    notes += source_build_notes(release, product, base, lang)
    kimi = plans["kimi_ckpt_engine"]
    if product == "950" and (f := release_fact(kimi.ask, "readme", "kimi_950")) is not None:
        key = "kimi_950_unsupported" if f.value == UNSUPPORTED else "kimi_950"
        notes.append(t[key].format(release=release, source=f.source, at=at_main(f, release, lang)))
    if notes:
        lines.append("")
        lines += [f"- {n}" for n in notes]
    return lines


CONFLICT = re.compile(r"^The user requested (\S+)\s+\[(.+)\]$")


def conflict_text(pip_says: list[str], release: str, lang: str) -> str:
    """Why the versions of verl's guide do not install together, said as requirements ("vllm-ascend 0.18.0 requires
    `opencv-python-headless<=4.11.0.86`, vLLM 0.18.0 requires …"), and what to use instead: the newest covered
    release. pip's own lines stay in ``verl-cookbook stack``'s output, not on the page."""
    from verl_cookbook.releases import newest_covered

    t = TEXT[lang]
    newest = newest_covered()
    said = [decider(f"{m.group(2)}: {m.group(1)}", lang) for line in pip_says if (m := CONFLICT.match(line.strip()))]
    if not said or len(said) != len(pip_says):
        return t["no_plan_raw"].format(newest=newest)
    sep = "，" if lang == "zh" else ", "
    return t["no_plan"].format(conflicts=sep.join(said), newest=newest)


def source_build_notes(release: str, product: str, base: Plan, lang: str) -> list[str]:
    """Whether this product line builds vllm-ascend on the node (the wheel on PyPI is compiled for another chip) or may
    take the wheel, with a link to the install page's steps and the ``SOC_VERSION`` a build without npu-smi needs."""
    t = TEXT[lang]
    va = _pin(base, "vllm-ascend")
    if va is None:
        return []
    b = source_build(Ask(release, product), va.version)
    if b is None:
        return [t["wheel_ok"].format(version=va.version) + older_stack_note(release, product, base, lang)]
    soc = t["source_soc"].format(soc=b.soc.value) if b.soc else ""
    if soc and product == "950":  # vllm-ascend's guide gives the value for one of the two products: name it
        soc += t["soc_for"].format(product=b.soc_product.replace("Atlas 950", "Ascend 950"))
    chip_name = t["products"].get(b.wheel_chip, b.wheel_chip)
    note = t["source_build"].format(version=b.version, chip_name=chip_name, soc=soc)
    return [note + older_stack_note(release, product, base, lang)]


def older_stack_note(release: str, product: str, base: Plan, lang: str) -> str:
    """The install page's build steps clone the tags of the newest covered release's stack: for an older release whose
    vLLM or vllm-ascend differs, the tags to clone instead ("" when they are the same)."""
    from verl_cookbook.releases import newest_covered

    newest = newest_covered()
    if release == newest:
        return ""
    top = plans_for(newest, product)["nccl"]
    pins = {d: _pin(p, d) for p, d in ((base, "vllm"), (base, "vllm-ascend"))}
    tops = {d: _pin(top, d) for d in ("vllm", "vllm-ascend")}
    if any(x is None for x in (*pins.values(), *tops.values())):
        return ""
    if all(pins[d].version == tops[d].version for d in pins):  # type: ignore[union-attr]
        return ""
    return ("" if lang == "zh" else " ") + TEXT[lang]["older_stack"].format(
        newest=newest,
        newest_vllm=tops["vllm"].version,  # type: ignore[union-attr]
        newest_va=tops["vllm-ascend"].version,  # type: ignore[union-attr]
        vllm=pins["vllm"].version,  # type: ignore[union-attr]
        va=pins["vllm-ascend"].version,  # type: ignore[union-attr]
        release=release,
        product=product,
    )


def _pin(plan: Plan, dist: str):
    for p in [*plan.pins, *plan.extra]:
        if canonicalize_name(p.name) == dist:
            return p
    return None


def plans_markdown(releases: list[str], lang: str) -> str:
    """One section per covered release (newest first), one compatibility table per product line."""
    t = TEXT[lang]
    out: list[str] = []
    for release in sorted(releases, key=lambda r: tuple(int(x) for x in r.split(".")), reverse=True):
        out.append(f"### {t['release_h'].format(release=release, anchor=release.replace('.', '-'))}")
        out.append("")
        for product in PRODUCT_TABLES:
            out.append(f"**{t['products'][product]}**")
            out.append("")
            out += table(release, product, lang)
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def uploads_markdown(releases: list[str], lang: str) -> str:
    """For each covered verl release: when it reached the index, and the newest Mooncake NPU wheel and
    checkpoint-engine the index had then (upload times, not tags)."""
    t = TEXT[lang]
    dists = uploads()["dists"]
    lines = [t["upload_cols"]]
    for release in releases:
        at = dists.get("verl", {}).get(release)
        if at is None:
            continue
        cells = []
        for name in ("mooncake-transfer-engine-npu", "checkpoint-engine"):
            before = [(time, v) for v, time in dists.get(name, {}).items() if time <= at and _final(v)]
            newest = max(before) if before else None
            cells.append(t["dated"].format(version=newest[1], date=newest[0][:10]) if newest else t["none_yet"])
        lines.append(f"| {release} | {at[:10]} | {cells[0]} | {cells[1]} |")
    return "\n".join(lines) + "\n"


def _final(version: str) -> bool:
    v = Version(version)
    return not (v.is_prerelease or v.is_devrelease)
