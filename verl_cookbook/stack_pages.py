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

from verl_cookbook.stack_plan import UNSUPPORTED, Plan, build, guide_differences, source_build
from verl_cookbook.stack_render import glibc_text
from verl_cookbook.stack_resolve import BACKENDS, WHY_ASKED, Ask, recorded, release_fact, uploads

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
PRODUCT_TABLES = ("A3", "950")  # A2 and A3 share verl's guide table; each language names them in TEXT["table"]
FAMILY_PRODUCTS = {"A3": ("A2", "A3")}  # the products a table stands for, where they may install differently

TEXT: dict[str, dict[str, Any]] = {
    "zh": {
        "release_h": "verl {release} {{ #verl-{anchor} }}",
        "command": "命令：`{cmd}`",
        "cols": "| 软件包 | 版本 | 决定版本的依赖 | 安装方式 |\n|---|---|---|---|",
        "no_plan": "无法给出安装方案，pip 报告以下冲突：",
        "how": {
            "index": "从 PyPI 安装",
            "elsewhere": "从 verl 安装脚本使用的软件源安装",
            "sdist": "源码包编译",
            "sdist-pure": "源码包构建（纯 Python，无需编译器）",
            "build": "源码编译",
            "no-deps": "`--no-deps`，最后安装",
            "source": "在节点上源码编译",
        },
        "host": "主机上（pip 之外）",
        "glibc": "这些 wheel 要求的 glibc",
        "more": "另有 {n} 个由依赖带入的包，完整列表与理由见上面的命令。",
        "backend_only": "（仅 {backends}）",
        "backends_only": "本产品上只有 {backends} 后端有安装方案，下表仅适用于这些后端。",
        "dated": "`{version}`（{date}）",
        "upload_cols": "| verl | 上传到 PyPI | 当时最新的 Mooncake NPU wheel | 当时最新的 checkpoint-engine |\n"
        "|---|---|---|---|",
        "none_yet": "无（尚未发布）",
        "no_guide": "verl {release} 没有为这一产品提供昇腾安装指南，因此没有安装方案。",
        "asked": "所选的 verl 版本（不带 extra）",
        "backend": "{backend} 后端",
        "readme": "verl 的 README",
        "guide": "verl 的指南",
        "not_stated": "指南未写明",
        "guide_diff": "verl 的指南为 `{name}` `{guide}`（[verl 昇腾安装指南]({source})），方案锁定 `{pinned}`{why}。",
        "guide_diff_why": "，由这条依赖决定：{decider}",
        "readme_tag": "verl {verl} 的 README",
        "readme_main": "verl 主分支（`{commit}`）的 README",
        "kimi_950": "{readme}要求在 Ascend 950PR/Ascend 950DT 上使用 `kimi_ckpt_engine` "
        "前开启 HCCL 白名单校验（[README]({source})，"
        "操作见 [HCCL 白名单与相关环境变量](../ascend/hccl-whitelist.md)）。",
        "kimi_950_unsupported": "{readme}写明 Ascend 950PR/Ascend 950DT 不支持 `kimi_ckpt_engine`"
        "（[README]({source})）。",
        "by_backend": "{floor}（{backends}）",
        "per_product": "{product}：{how}",
        "sep": "；",
        "list_sep": "、",
        "hdk": "NPU 驱动与固件（HDK）",
        "colon": "：",
        "table": {"A3": "Atlas A2 训练系列产品、Atlas A3 训练系列产品", "950": "Ascend 950PR/Ascend 950DT"},
        "products": {"A2": "Atlas A2 训练系列产品", "A3": "Atlas A3 训练系列产品", "950": "Ascend 950PR/Ascend 950DT"},
        "source_build": "{products}上 vllm-ascend {version} 需在节点上源码编译：PyPI 上的 wheel 按 {chip_name}编译"
        "（wheel 内 `vllm_ascend/_build_info.py` 的 `__device_type__ = '{chip}'`），芯片不符时 vllm-ascend 在 worker "
        "启动时报错退出{check}。编译命令：`git clone --depth 1 --branch v{version} https://github.com/vllm-project/vllm-ascend.git`，"
        "`git -C vllm-ascend submodule update --init --recursive`，`pip install setuptools-scm`，"
        "然后 `pip install --no-deps --no-build-isolation -v -e vllm-ascend`（与 verl 的安装脚本相同）；"
        "编译时从 npu-smi 读取芯片型号{soc}。",
        "source_check": "（[utils.py]({source})）",
        "source_soc": "，无 npu-smi 的环境需设置 `SOC_VERSION={soc}`（{product}，[installation.md]({source})）",
        "soc_products": {"Atlas A3": "Atlas A3 训练系列产品", "Atlas 950DT": "Ascend 950DT"},
    },
    "en": {
        "release_h": "verl {release} {{ #verl-{anchor} }}",
        "command": "Command: `{cmd}`",
        "cols": "| Package | Version | Requirement that decides it | Installed |\n|---|---|---|---|",
        "no_plan": "No plan; pip says:",
        "how": {
            "index": "from the index",
            "elsewhere": "another index",
            "sdist": "built from the sdist",
            "sdist-pure": "built from the sdist (pure Python, no compiler)",
            "build": "built from source",
            "no-deps": "`--no-deps`, last",
            "source": "built on the node from source",
        },
        "host": "on the host (outside pip)",
        "glibc": "glibc the wheels need",
        "more": "{n} more packages come in as dependencies; the command above lists them all, with their reasons.",
        "backend_only": " ({backends} only)",
        "backends_only": "On this product only the {backends} backends have a plan; the table applies to them only.",
        "dated": "`{version}` ({date})",
        "upload_cols": "| verl | Uploaded to PyPI | Newest Mooncake NPU wheel then | Newest checkpoint-engine then |\n"
        "|---|---|---|---|",
        "none_yet": "none yet",
        "no_guide": "verl {release} has no Ascend install guide for this product, so there is no plan.",
        "asked": "the verl release asked (no extras)",
        "backend": "the {backend} backend",
        "readme": "verl's README",
        "guide": "verl's guide",
        "not_stated": "not stated in the guide",
        "guide_diff": "verl's guide names `{name}` `{guide}` ([source]({source})); the plan pins `{pinned}`{why}.",
        "guide_diff_why": ", decided by {decider}",
        "readme_tag": "verl {verl}'s README",
        "readme_main": "the README on verl's main branch (`{commit}`)",
        "kimi_950": "{readme} on kimi_ckpt_engine on the Ascend 950: “{text}” ([source]({source}))",
        "by_backend": "{floor} ({backends})",
        "per_product": "{product}: {how}",
        "sep": "; ",
        "list_sep": ", ",
        "hdk": "NPU driver and firmware (HDK)",
        "colon": ": ",
        "table": {"A3": "Atlas A2 and Atlas A3 training series", "950": "Ascend 950PR/950DT"},
        "products": {"A2": "Atlas A2 training series", "A3": "Atlas A3 training series", "950": "Ascend 950PR/950DT"},
        "source_build": "On {products}, vllm-ascend {version} is built on the node: the wheel on PyPI is compiled for "
        "{chip_name} (`__device_type__ = '{chip}'` in the wheel's `vllm_ascend/_build_info.py`), and vllm-ascend "
        "stops at worker start on another chip{check}. Build it with `git clone --depth 1 --branch v{version} "
        "https://github.com/vllm-project/vllm-ascend.git`, `git -C vllm-ascend submodule update --init --recursive` "
        "and `pip install setuptools-scm`, then `pip install --no-deps --no-build-isolation -v -e vllm-ascend` "
        "(as verl's install script does); the build reads the chip from npu-smi{soc}.",
        "source_check": " ([utils.py]({source}))",
        "source_soc": ", and where npu-smi is missing it needs `SOC_VERSION={soc}` ({product}, "
        "[installation.md]({source}))",
    },
}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def decider(why: str, lang: str) -> str:
    """One reason of a pin ("who: requirement"), in the page's language: the roots' reasons by the shapes
    ``stack_resolve`` gives them, a wheel's Requires-Dist as it is."""
    t = TEXT[lang]
    who, sep, req = why.rpartition(": ")
    if not sep:
        return _cell(why)
    url = re.search(r"\((https://[^)\s]+)\)", why)
    if who.startswith("verl's guide"):
        return f"[{t['guide']}]({url.group(1)})" if url else t["guide"]
    if who == WHY_ASKED:
        who = t["asked"]
    elif m := re.match(r"backend (\S+): ", who):
        who = t["backend"].format(backend=m.group(1))
        who = f"[{who}]({url.group(1)})" if url else who
    elif m := re.match(r"vLLM (\S+) built with VLLM_TARGET_DEVICE=empty \(\S+ (requirements/common\.txt:\d+)\)", who):
        who = f"vLLM {m.group(1)} `{m.group(2)}`"
    elif m := re.match(r"verl (\S+) Requires-Dist, extra verl-core", who):
        who = f"verl {m.group(1)} Requires-Dist (extra `verl-core`)"
    else:
        who = _cell(who)
    return f"{who}{t['colon']}`{_cell(req)}`"


def _link_source(text: str) -> str:
    """ "label (URL)" → "[label](URL)"."""
    if text.endswith(")") and " (http" in text:
        label, _, url = text[:-1].rpartition(" (")
        return f"[{_cell(label)}]({url})"
    return _cell(text)


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


def table(release: str, product: str, lang: str) -> list[str]:
    t = TEXT[lang]
    plans = plans_for(release, product)
    base = plans["nccl"]
    cmd = f"verl-cookbook stack --verl {release} --product {product}"
    lines = [t["command"].format(cmd=cmd), ""]
    if base.verdict == "unsupported":
        return [*lines, t["no_guide"].format(release=release)]
    if base.verdict != "ok":
        lines.append(t["no_plan"])
        lines.append("")
        lines += [f"- `{_cell(line)}`" for line in base.pip_says]
        return lines
    ok = [b for b, p in plans.items() if p.verdict == "ok"]
    if len(ok) < len(BACKENDS):  # say once above the table, not on every row
        lines += [t["backends_only"].format(backends=t["list_sep"].join(f"`{b}`" for b in ok)), ""]
    lines.append(t["cols"])
    shown = 0
    for dist in KEY_DISTS:
        having = [b for b, p in plans.items() if p.verdict == "ok" and _pin(p, dist) is not None]
        if not having:
            continue
        pin = _pin(plans[having[0]], dist)
        assert pin is not None
        only = "" if len(having) == len(ok) else t["backend_only"].format(backends=t["list_sep"].join(having))
        first = decider(pin.why[0], lang) if pin.why else "—"
        how = t["how"][pin.how]
        if len(products := FAMILY_PRODUCTS.get(product, (product,))) > 1:  # one table for several products
            hows = {p: _pin(plans_for(release, p)[having[0]], dist) for p in products}
            if len({h.how for h in hows.values() if h is not None}) > 1:
                how = t["sep"].join(
                    t["per_product"].format(product=t["products"][p], how=t["how"][h.how]) for p, h in hows.items() if h
                )
        lines.append(f"| `{pin.name}`{only} | `{pin.version}` | {first} | {how} |")
        shown += 1
    for key, label in (("cann", "CANN"), ("hdk", t["hdk"])):
        f = base.facts.get(key)
        if f is not None:
            value = f"`{_cell(f.value)}`" if f.value[:1].isdigit() else t["not_stated"]
            lines.append(f"| {label} | {value} | [{t['guide']}]({f.source}) | {t['host']} |")
    floors: dict[str, list[str]] = {}
    for backend, p in plans.items():
        if p.verdict == "ok":
            floors.setdefault(glibc_text(p).removeprefix("glibc "), []).append(backend)
    sep = t["list_sep"]
    cell = " / ".join(t["by_backend"].format(floor=f, backends=sep.join(b)) for f, b in sorted(floors.items()))
    lines.append(f"| glibc | {cell} | {t['glibc']} | — |")
    lines.append("")
    lines.append(t["more"].format(n=len(base.pins) + len(base.extra) - shown))
    notes = []
    for d in guide_differences(base):
        why = t["guide_diff_why"].format(decider=decider(d.decided_by, lang)) if d.decided_by else ""
        notes.append(t["guide_diff"].format(name=d.name, guide=d.guide, source=d.source, pinned=d.pinned, why=why))
    notes += source_build_notes(release, product, base, lang)
    kimi = plans["kimi_ckpt_engine"]
    if product == "950" and (f := release_fact(kimi.ask, "readme", "kimi_950")) is not None:
        key = "kimi_950_unsupported" if f.value == UNSUPPORTED and "kimi_950_unsupported" in t else "kimi_950"
        readme = t["readme_tag"] if f.read_at_tag(release) else t["readme_main"]
        readme = readme.format(verl=release, commit=(f.ref or "")[:7])
        notes.append(t[key].format(readme=readme, text=_cell(f.text), source=f.source))
    if notes:
        lines.append("")
        lines += [f"- {n}" for n in notes]
    return lines


def source_build_notes(release: str, product: str, base: Plan, lang: str) -> list[str]:
    """For each product of the table whose vllm-ascend is built on the node: why, and how."""
    t = TEXT[lang]
    va = _pin(base, "vllm-ascend")
    if va is None:
        return []
    builds = [b for p in FAMILY_PRODUCTS.get(product, (product,)) if (b := source_build(Ask(release, p), va.version))]
    out = []
    for b in builds:
        check = t["source_check"].format(source=b.check.source) if b.check else ""
        product_name = t.get("soc_products", {}).get(b.soc_product, b.soc_product)
        soc = t["source_soc"].format(soc=b.soc.value, product=product_name, source=b.soc.source) if b.soc else ""
        out.append(
            t["source_build"].format(
                products=_before_cjk(t["products"][b.product], lang),
                version=b.version,
                chip=b.wheel_chip,
                chip_name=_before_cjk(t["products"].get(b.wheel_chip, b.wheel_chip), lang),
                check=check,
                soc=soc,
            )
        )
    return out


def _before_cjk(name: str, lang: str) -> str:
    """A product name followed by 中文 text: a space after a name that ends in a Latin letter or digit
    (``Ascend 950DT 上``), none after one that ends in 中文 (``训练系列产品上``)."""
    return name + " " if lang == "zh" and name[-1:].isascii() and name[-1:].isalnum() else name


def _pin(plan: Plan, dist: str):
    for p in [*plan.pins, *plan.extra]:
        if canonicalize_name(p.name) == dist:
            return p
    return None


def plans_markdown(releases: list[str], lang: str) -> str:
    """One section per covered release (newest first), a table per product family."""
    t = TEXT[lang]
    out: list[str] = []
    for release in sorted(releases, key=lambda r: tuple(int(x) for x in r.split(".")), reverse=True):
        out.append(f"### {t['release_h'].format(release=release, anchor=release.replace('.', '-'))}")
        out.append("")
        for product in PRODUCT_TABLES:
            out.append(f"**{t['table'][product]}**")
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
