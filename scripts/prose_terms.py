"""Word-level rules of the prose lint: the terms, product names and notations the pages write one way.

Run by scripts/prose_lint.py. Code, HTML comments and tags, URLs and link targets are masked before any rule reads
a line (``prose_text.prose_lines``); the 中文 rules also leave alone what stands in quotation marks (“”「」《》: a
quoted word is mentioned, not used), and the product-name rule the text of links to other sites (their titles).

* ``prose/whitelist-switch`` (中文): whether the HCCL whitelist check is on is said as HCCL says it,
  开启/关闭白名单校验,
  not 打开, 开, 不开, 启用 or 禁用.
* ``prose/product-name`` (中文): products as CANN names them: Atlas A2 训练系列产品, Atlas A3 训练系列产品,
  Ascend 950PR/Ascend 950DT (one of the two alone when only it is meant). A product's own model name (Atlas 800T A3,
  Atlas 200T A2 Box16) and the Atlas 950 SuperPoD system are left alone.
* ``prose/first-use`` (中文): the first time a page uses a glossary term whose 中文 form carries its English
  (检查点引擎（checkpoint engine）), it writes that form; an abbreviation (H2D) used before the term counts as a use.
* ``prose/range`` (both): a range of numbers is written ``a~b`` (60000~60031), not with a hyphen, a dash or a
  full-width ～, nor as ``[a, b]``. Dates (2026-06), citations (``a.py:12-20``) and names (Qwen3-8B) are not ranges.
* ``prose/date`` (both): dates are written 2026-06-10 (2026-06 for a month), not 2026 年 6 月 10 日 or June 10, 2026.
* ``prose/reference`` (both): a link to a GitHub pull request says ``<project> PR #N`` and one to an issue
  ``<project> #N``, with the number and project of its address; a reference in the text is a link.
* ``prose/doubled-word`` (both): a word written twice in a row (“CANN CANN”).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from prose_text import (
    CJK,
    LINK,
    MASK,
    Finding,
    external_link_texts,
    is_heading,
    language,
    prose_lines,
    unquoted,
)

# ---- 开启/关闭白名单校验 ---------------------------------------------------------------------------------------

_SWITCH = re.compile(r"打开|不开(?!启|放)|关掉|关上|启用|禁用|(?<![打开公展离分避启])开(?![启始发放源头销关通支辟展])")
_NEAR = 8  # characters either side of the verb that must name the whitelist or its check


def whitelist_switch_findings(path: Path, text: str) -> list[Finding]:
    if language(path) != "zh":
        return []
    out = []
    for number, _, masked in prose_lines(text):
        view = unquoted(masked)
        if "白名单" not in view and "校验" not in view:
            continue
        for m in _SWITCH.finditer(view):
            before, after = view[max(0, m.start() - _NEAR) : m.start()], view[m.end() : m.end() + _NEAR]
            names_check = "校验" in after or "校验" in before
            names_list = ("白名单" in after and "白名单文件" not in after) or before.endswith(("白名单", "白名单校验"))
            if names_check or names_list:
                fix = "关闭" if m.group(0) in ("不开", "关掉", "关上", "禁用") else "开启"
                message = f"{m.group(0)}: HCCL writes {fix}白名单校验 (开启 / 关闭白名单校验)"
                out.append(Finding(path, number, m.start() + 1, "prose/whitelist-switch", message))
    return out


# ---- product names ------------------------------------------------------------------------------------------

_CANONICAL = re.compile(
    r"Atlas A[23] 训练系列产品|Ascend 950PR/Ascend 950DT|Ascend 950(?:PR|DT)(?!\s*/)|Atlas 950 SuperPoD"
)
_SERIES = re.compile(r"(?<![\w-])(?:Atlas\s+)?(A[23])(?![\w-])")
_CHIP950 = re.compile(r"(?<![\w.-])(?:Ascend\s*)?950(?:PR|DT)?(?:\s*/\s*(?:Ascend\s*)?950(?:PR|DT)?)?(?![\w.-])")
# a model name around A2/A3: "Atlas 800T A3", "Atlas 200T A2 Box16", "Atlas 900 A2 PODc", "A200T A3 Box8"
_MODEL_BEFORE = re.compile(r"(?:\b[A-Z]?\d{3,4}[A-Z]*\s+)$")
_MODEL_AFTER = re.compile(r"^\s+(?:Box\d+|PODc|SuperPoD|Pod)\b")
_CLAUSE_END = re.compile(r"[。；：，()\[\]]|[,;:] ")


def _in_english(view: str, start: int, end: int) -> bool:
    """Whether the clause around ``start``..``end`` is English (no Chinese in it): an English text quoted on a
    中文 page (a command's message) names products its own way."""
    before = [m.end() for m in _CLAUSE_END.finditer(view, 0, start)]
    after = _CLAUSE_END.search(view, end)
    return not CJK.search(view[before[-1] if before else 0 : after.start() if after else len(view)])


def product_name_findings(path: Path, text: str, exempt: bool = False) -> list[Finding]:
    """``exempt``: the glossary, which lists the forms (and the English ones beside them)."""
    if language(path) != "zh" or exempt:
        return []
    out = []
    for number, line, masked in prose_lines(text):
        if is_heading(line) and line.startswith("# "):
            continue  # a page title names the product as its subject; the body gives the full name
        view = _CANONICAL.sub(lambda m: MASK * len(m.group(0)), unquoted(external_link_texts(line, masked)))
        for m in _SERIES.finditer(view):
            if _MODEL_BEFORE.search(view[: m.start()]) or _MODEL_AFTER.match(view[m.end() :]):
                continue
            if _in_english(view, m.start(), m.end()):
                continue
            series = m.group(1)
            message = f"{m.group(0)}: CANN names the product Atlas {series} 训练系列产品"
            out.append(Finding(path, number, m.start() + 1, "prose/product-name", message))
        for m in _CHIP950.finditer(view):
            if _in_english(view, m.start(), m.end()):
                continue
            message = (
                f"{m.group(0)}: CANN names the products Ascend 950PR/Ascend 950DT (Atlas 950 SuperPoD: the system)"
            )
            out.append(Finding(path, number, m.start() + 1, "prose/product-name", message))
    return out


# ---- first use of a term: 中文 with its English ------------------------------------------------------------


def _link_texts_masked(line: str, masked: str) -> str:
    chars = list(masked)
    for m in LINK.finditer(line):
        for i in range(m.start("text"), m.end("text")):
            chars[i] = MASK
    return "".join(chars)


def first_use_findings(path: Path, text: str, forms: Iterable[tuple[str, str]]) -> list[Finding]:
    """``forms``: (中文, English) of each glossary term whose first use gives both (``glossary.Term.first_use``)."""
    if language(path) != "zh":
        return []
    out = []
    lines = [
        (number, _link_texts_masked(line, unquoted(masked)))
        for number, line, masked in prose_lines(text)
        if not is_heading(line)
    ]
    for zh, en in forms:
        full = re.compile(re.escape(zh) + r"\s*（\s*" + re.escape(en) + r"\s*）")
        abbreviation = re.compile(rf"(?<![\w-]){re.escape(en)}(?![\w-])") if re.fullmatch(r"[A-Z0-9]+", en) else None
        for number, view in lines:
            hits = [(m.start(), zh) for m in re.finditer(re.escape(zh), view)]
            if abbreviation is not None:
                hits += [(m.start(), en) for m in abbreviation.finditer(view) if not view[: m.start()].endswith("（")]
            if not hits:
                continue
            col, word = min(hits)
            if word != zh or not full.match(view, col):
                message = f"first use of {word} on this page: write {zh}（{en}）, then {zh}"
                out.append(Finding(path, number, col + 1, "prose/first-use", message))
            break
    return out


# ---- ranges, dates, references, doubled words --------------------------------------------------------------

_NUM = r"\d+(?:\.\d+)*"
_RANGE = re.compile(rf"(?<![\w.#/:~-])({_NUM})\s*[-–—～]\s*({_NUM})(?![\w.-]|:\d)")
_INTERVAL = re.compile(rf"\[\s*(-?{_NUM})\s*,\s*(-?{_NUM})\s*\](?!\()")
_MONTH = re.compile(r"^(?:19|20)\d\d$")


def range_findings(path: Path, text: str) -> list[Finding]:
    out = []
    for number, _line, masked in prose_lines(text):
        view = unquoted(masked)
        for m in _RANGE.finditer(view):
            a, b = m.group(1), m.group(2)
            if _MONTH.match(a) and re.fullmatch(r"0[1-9]|1[0-2]", b):
                continue  # 2026-06: a month
            out.append(Finding(path, number, m.start() + 1, "prose/range", f"{m.group(0)} → {a}~{b}"))
        for m in _INTERVAL.finditer(view):
            out.append(Finding(path, number, m.start() + 1, "prose/range", f"{m.group(0)} → {m.group(1)}~{m.group(2)}"))
    return out


_MONTHS = "January February March April May June July August September October November December".split()
_MONTH_NAME = r"(?:" + "|".join(f"{m[:3]}(?:{m[3:]})?" for m in _MONTHS) + r")\.?"
_DATES = [
    re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月(?:\s*(\d{1,2})\s*日)?"),
    re.compile(r"(?<![\d年])(\d{1,2})\s*月\s*(\d{1,2})\s*日"),
    re.compile(rf"\b{_MONTH_NAME}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}\b"),
    re.compile(rf"\b\d{{1,2}}\s+{_MONTH_NAME}\s+\d{{4}}\b"),
    re.compile(rf"\b{_MONTH_NAME}\s+\d{{4}}\b"),
    re.compile(r"(?<![\w/.])\d{4}/\d{1,2}/\d{1,2}(?![\w/])|(?<![\w/.])\d{1,2}/\d{1,2}/\d{4}(?![\w/])"),
]


def date_findings(path: Path, text: str) -> list[Finding]:
    out = []
    for number, _, masked in prose_lines(text):
        masked = unquoted(masked)
        taken: set[int] = set()
        for pattern in _DATES:
            for m in pattern.finditer(masked):
                if m.start() in taken:
                    continue
                taken.update(range(m.start(), m.end()))
                message = f"{m.group(0)}: write dates as 2026-06-10 (a month as 2026-06)"
                out.append(Finding(path, number, m.start() + 1, "prose/date", message))
    return out


_GITHUB_REF = re.compile(r"^https://github\.com/(?P<owner>[\w.-]+)/(?P<repo>[\w.-]+)/(?P<kind>pull|issues)/(?P<n>\d+)")
# how the pages name a repository in a reference (its name, except where the project writes it otherwise)
PROJECT_NAMES = {
    "vllm": "vLLM",
    "mooncake": "Mooncake",
    "verl": "verl",
    "vllm-ascend": "vllm-ascend",
    "rl": "NeMo-RL",  # NVIDIA-NeMo/RL
}
_BARE_REF = re.compile(r"(?<![\w#/&])(?:PR\s*#?\s*\d{3,}|#\d{3,})(?![\w-])")


def _project(repo: str) -> str:
    return PROJECT_NAMES.get(repo.lower(), repo)


def reference_findings(path: Path, text: str) -> list[Finding]:
    out = []
    for number, line, masked in prose_lines(text):
        link_spans = []
        for m in LINK.finditer(line):
            link_spans.append((m.start(), m.end()))
            ref = _GITHUB_REF.match(m.group("target"))
            if ref is None:
                continue
            project, n = _project(ref.group("repo")), ref.group("n")
            want = f"{project} PR #{n}" if ref.group("kind") == "pull" else f"{project} #{n}"
            link_text = m.group("text")
            ok = link_text.startswith(want) and not link_text[len(want) :][:1].isdigit()
            if not ok:
                message = (
                    f"[{link_text[:40]}] links {ref.group('kind')}/{n} of {ref.group('repo')}: its text says {want}"
                )
                out.append(Finding(path, number, m.start() + 1, "prose/reference", message))
        if is_heading(line):
            continue
        for m in _BARE_REF.finditer(unquoted(masked)):
            if any(a <= m.start() < b for a, b in link_spans):
                continue
            message = f"{m.group(0)}: a reference is a link, [verl PR #1234](https://github.com/…/pull/1234)"
            out.append(Finding(path, number, m.start() + 1, "prose/reference", message))
    return out


_DOUBLED = re.compile(r"(?<![\w.-])([A-Za-z][\w.-]*)\s+\1(?![\w.-])|([的了是在和与将把被])\2", re.I)


def doubled_word_findings(path: Path, text: str) -> list[Finding]:
    out = []
    for number, _, masked in prose_lines(text):
        for m in _DOUBLED.finditer(unquoted(masked)):
            out.append(
                Finding(path, number, m.start() + 1, "prose/doubled-word", f"“{m.group(0)}”: a word written twice")
            )
    return out
