"""Compatibility pages, rendered from the facts of every covered verl release (never typed by hand).

Pure functions: ``{release: facts.data}`` (oldest first) in, Markdown out, in Chinese (``"zh"``) or
English (``"en"``). ``scripts/hooks/compat_pages.py`` feeds them at build time.

- ``backends_page``: which ``checkpoint_engine.backend`` names register on CUDA and on NPU in each
  release, and the engine class each resolves to (with the registration's ``file:line``).
- ``settings_page``: each ``CheckpointEngineConfig`` field and each engine constructor kwarg × release:
  its default per release, and what changed (added, default changed, removed).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from verl_cookbook.releases import version_key

DEVICES = ("cuda", "npu")
ABSENT = "—"  # what a cell shows when a release lacks the thing
GENERATOR = "scripts/hooks/compat_pages.py"


class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


REQUIRED = _Marker("REQUIRED")  # a constructor parameter without a default
MISSING = _Marker("MISSING")  # the release lacks the setting
NO_ENGINE = _Marker("NO_ENGINE")  # the release does not register the engine at all (the backends page says so)


_DOTTED = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$")

TEXT: dict[str, dict[str, str]] = {
    "zh": {
        "backends_title": "各 verl 版本支持的后端与硬件 { #backends }",
        "settings_title": "配置项与引擎参数的版本支持情况 { #settings }",
        "generated": (
            "本页在构建站点时由 `{gen}` 从 verl {releases} 的源码（静态读取，从不导入）生成，"
            "没有一个单元格是手写的。本站核对的 verl 版本：**{pinned}**。"
        ),
        "info_title": "由 verl 源码生成",
        "list_sep": "、",
        "registered_h": "各版本注册的后端 { #registered }",
        "registered_p": (
            "`actor_rollout_ref.rollout.checkpoint_engine.backend` 的每个取值在 CUDA 与昇腾 NPU 上解析到的引擎类。"
            "`{absent}` 表示该版本在这种硬件上没有注册这个名字（模块不存在，或在这种硬件上无法导入）。"
            "同一个名字在两种硬件上可能对应不同的类：NPU 上最后导入的模块会覆盖先注册的类。"
        ),
        "sources_h": "注册位置 { #sources }",
        "sources_p": "每个类用 `CheckpointEngineRegistry.register` 注册的位置（verl 包内的文件与行号）。",
        "backend": "后端",
        "device": "硬件",
        "config_h": "`CheckpointEngineConfig` 字段 { #config-fields }",
        "config_p": (
            "`actor_rollout_ref.rollout.checkpoint_engine` 下各字段在每个版本中的默认值"
            "（取自 `CheckpointEngineConfig` 数据类）。`{absent}` 表示该版本没有这个字段。"
        ),
        "kwargs_h": "引擎构造参数 { #engine-kwargs }",
        "kwargs_p": (
            "写在 `engine_kwargs.<backend>` 下的参数会传给引擎类的构造函数。下表列出每个后端（按硬件解析到的类）"
            "在每个版本中的构造参数及默认值；“必填”表示没有默认值。标为“由 verl 传入”的参数由 verl 自己填写，"
            "不要写进 `engine_kwargs`。"
        ),
        "field": "字段",
        "kwarg": "参数",
        "engine": "引擎类",
        "changes": "变化",
        "required": "必填",
        "added": "{v} 新增",
        "removed": "{v} 移除",
        "changed": "{v} 默认值 {old} → {new}",
        "injected": "由 verl 传入",
        "skip_reason": "generated from verl's source by scripts/hooks/compat_pages.py",
    },
    "en": {
        "backends_title": "Backends × releases × hardware { #backends }",
        "settings_title": "Settings and engine kwargs × releases { #settings }",
        "generated": (
            "This page is generated at build time by `{gen}` from the source of verl {releases} "
            "(read statically, never imported); no cell is typed by hand. The site is checked against "
            "verl **{pinned}**."
        ),
        "info_title": "Generated from verl's source",
        "list_sep": ", ",
        "registered_h": "Registered backends per release { #registered }",
        "registered_p": (
            "The engine class each value of `actor_rollout_ref.rollout.checkpoint_engine.backend` resolves to "
            "on CUDA and on Ascend NPU. `{absent}` means the release does not register that name on that "
            "hardware (no such module, or the module does not import there). One name can map to different "
            "classes per device: on NPU the module imported last replaces the class registered first."
        ),
        "sources_h": "Where each class registers { #sources }",
        "sources_p": (
            "Where `CheckpointEngineRegistry.register` registers each class (file and line in the verl package)."
        ),
        "backend": "Backend",
        "device": "Hardware",
        "config_h": "`CheckpointEngineConfig` fields { #config-fields }",
        "config_p": (
            "The default of each field under `actor_rollout_ref.rollout.checkpoint_engine` in each release "
            "(from the `CheckpointEngineConfig` dataclass). `{absent}` means the release has no such field."
        ),
        "kwargs_h": "Engine constructor kwargs { #engine-kwargs }",
        "kwargs_p": (
            "Whatever sits under `engine_kwargs.<backend>` is passed to the engine class's constructor. The table "
            "lists each backend's constructor parameters (per class the name resolves to on each device) and their "
            "defaults in each release; “required” means there is no default. Parameters marked “set by verl” are "
            "filled in by verl itself and must not appear in `engine_kwargs`."
        ),
        "field": "Field",
        "kwarg": "Kwarg",
        "engine": "Engine class",
        "changes": "Changes",
        "required": "required",
        "added": "added in {v}",
        "removed": "removed in {v}",
        "changed": "default {old} → {new} in {v}",
        "injected": "set by verl",
        "skip_reason": "generated from verl's source by scripts/hooks/compat_pages.py",
    },
}

FactsByRelease = Mapping[str, Mapping[str, Any]]


def _t(lang: str) -> dict[str, str]:
    if lang not in TEXT:
        raise ValueError(f"unknown language {lang!r}; known: {', '.join(TEXT)}")
    return TEXT[lang]


def _ordered(facts: FactsByRelease) -> list[str]:
    return sorted(facts, key=version_key)


def format_value(value: Any) -> str:
    """A default as the reader would write it: ``"naive"``, ``2048``, ``None``, ``torch.bfloat16`` (an expression)."""
    if isinstance(value, str):
        return value if _DOTTED.match(value) else f'"{value}"'
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, dict | list):
        return "{}" if value == {} else "[]" if value == [] else repr(value)
    return repr(value)


def _code(text: str) -> str:
    return f"`{text.replace('|', '&#124;')}`"


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _table(header: list[str], rows: list[list[str]], reason: str) -> list[str]:
    return [
        f'<!-- check: skip reason="{reason}" -->',
        _row(header),
        _row(["---"] * len(header)),
        *(_row(r) for r in rows),
    ]


# the pages are written from the facts: claim coverage counts their statements as generated, held by this test
GENERATED_BY = "<!-- generated: test_compat.py::test_generated_pages_pass_the_site_check -->"


def _info(t: dict[str, str], releases: list[str], pinned: str) -> list[str]:
    listed = t["list_sep"].join(releases)
    return [
        f'!!! info "{t["info_title"]}"',
        "",
        "    " + t["generated"].format(gen=GENERATOR, releases=listed, pinned=pinned),
        f'    <!-- check: verl-version version="{pinned}" -->',
        f"    {GENERATED_BY}",
    ]


def _resolution(data: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    return (data.get("engines") or {}).get("resolution") or {}


def _registration(data: Mapping[str, Any], backend: str, cls: str) -> dict | None:
    regs = (data.get("engines") or {}).get("registrations") or []
    return next((r for r in regs if r["backend"] == backend and r["class"] == cls), None)


def _short_source(source: str) -> str:
    file, _, line = source.rpartition(":")
    return f"{file.removeprefix('verl/checkpoint_engine/')}:{line}"


def backend_rows(facts: FactsByRelease) -> list[tuple[str, str, dict[str, str | None]]]:
    """(backend, device, {release: engine class or None}) for every backend any release registers."""
    releases = _ordered(facts)
    names = sorted({b for r in releases for b in _resolution(facts[r])})
    rows = []
    for name in names:
        for dev in DEVICES:
            cells = {r: _resolution(facts[r]).get(name, {}).get(dev) for r in releases}
            if any(cells.values()):
                rows.append((name, dev, cells))
    return rows


def backends_page(facts: FactsByRelease, lang: str, pinned: str) -> str:
    """The backend × release × hardware page."""
    t = _t(lang)
    releases = _ordered(facts)
    rows = backend_rows(facts)
    head = [t["backend"], t["device"], *releases]
    classes = [[_code(b), d.upper(), *(_code(c) if c else ABSENT for c in cells.values())] for b, d, cells in rows]
    sources = []
    for b, d, cells in rows:
        out = []
        for r, c in cells.items():
            reg = _registration(facts[r], b, c) if c else None
            out.append(_code(_short_source(reg["source"])) if reg else ABSENT)
        sources.append([_code(b), d.upper(), *out])
    lines = [f"# {t['backends_title']}", "", *_info(t, releases, pinned), ""]
    lines += [f"## {t['registered_h']}", "", t["registered_p"].format(absent=ABSENT), ""]
    lines += [*_table(head, classes, t["skip_reason"]), ""]
    lines += [f"## {t['sources_h']}", "", t["sources_p"], ""]
    lines += [*_table(head, sources, t["skip_reason"]), ""]
    return "\n".join(lines)


def changes(values: dict[str, Any], t: dict[str, str]) -> list[str]:
    """What happened to one setting across releases (oldest first): added, default changed, removed.

    ``values`` maps release → default (``MISSING`` when the release lacks the setting). The first
    release is the baseline: being there already is not "added". Releases where the engine itself is not
    registered (``NO_ENGINE``) are passed over: a new backend's kwargs are not each "added".
    """
    out: list[str] = []
    prev: Any = None
    present = [(r, v) for r, v in values.items() if v is not NO_ENGINE]
    for i, (release, value) in enumerate(present):
        if i > 0:
            if prev is MISSING and value is not MISSING:
                out.append(t["added"].format(v=release))
            elif prev is not MISSING and value is MISSING:
                out.append(t["removed"].format(v=release))
            elif prev is not MISSING and value != prev:
                out.append(t["changed"].format(v=release, old=_code(_cell(prev, t)), new=_code(_cell(value, t))))
        prev = value
    return out


def _cell(value: Any, t: dict[str, str]) -> str:
    if value is MISSING or value is NO_ENGINE:
        return ABSENT
    if value is REQUIRED:
        return t["required"]
    return format_value(value)


def _fmt(value: Any, t: dict[str, str]) -> str:
    if value is MISSING or value is NO_ENGINE:
        return ABSENT
    return t["required"] if value is REQUIRED else _code(_cell(value, t))


def config_field_rows(facts: FactsByRelease) -> list[tuple[str, dict[str, Any]]]:
    """(field, {release: default or MISSING}) for every CheckpointEngineConfig field in any release."""
    releases = _ordered(facts)
    per = {
        r: ((facts[r].get("config") or {}).get("checkpoint_engine_config") or {}).get("fields") or {} for r in releases
    }
    names: list[str] = []
    for r in releases:
        names += [n for n in per[r] if n not in names]
    return [(n, {r: per[r][n]["default"] if n in per[r] else MISSING for r in releases}) for n in names]


def _injected(data: Mapping[str, Any]) -> set[str]:
    return {k for i in (data.get("engines") or {}).get("injected_kwargs") or [] for k in i["kwargs"]}


def kwarg_rows(facts: FactsByRelease) -> list[tuple[str, str, str, str, dict[str, Any], bool]]:
    """(backend, devices, engine class, kwarg, {release: default, REQUIRED or MISSING}, set by verl)."""
    releases = _ordered(facts)
    engines: dict[tuple[str, str], list[str]] = {}  # (backend, class) -> devices
    for r in releases:
        for backend, by_dev in _resolution(facts[r]).items():
            for dev, cls in by_dev.items():
                devs = engines.setdefault((backend, cls), [])
                if dev not in devs:
                    devs.append(dev)
    injected = set().union(*(_injected(facts[r]) for r in releases)) if releases else set()
    rows = []
    order = sorted(engines, key=lambda k: (k[0], min(DEVICES.index(d) for d in engines[k]), k[1]))
    for backend, cls in order:
        devices = ", ".join(d.upper() for d in DEVICES if d in engines[(backend, cls)])
        per: dict[str, dict[str, Any] | None] = {}
        for r in releases:
            reg = _registration(facts[r], backend, cls)
            registered = reg is not None and cls in _resolution(facts[r]).get(backend, {}).values()
            params = reg["constructor"]["params"] if registered and reg else None
            per[r] = (
                {p["name"]: REQUIRED if p["required"] else p["default"] for p in params} if params is not None else None
            )
        names: list[str] = []
        for r in releases:
            names += [n for n in per[r] or {} if n not in names]
        for n in names:
            # releases where the engine itself is not registered are NO_ENGINE: shown as absent, no "added"
            values = {r: NO_ENGINE if (kw := per[r]) is None else kw.get(n, MISSING) for r in releases}
            rows.append((backend, devices, cls, n, values, n in injected))
    return rows


def settings_page(facts: FactsByRelease, lang: str, pinned: str) -> str:
    """The CheckpointEngineConfig fields × release and engine kwargs × release page."""
    t = _t(lang)
    releases = _ordered(facts)
    cfg_rows = []
    for name, values in config_field_rows(facts):
        cfg_rows.append([_code(name), *(_fmt(values[r], t) for r in releases), "; ".join(changes(values, t)) or ""])
    kw_rows = []
    for backend, devices, cls, name, values, injected in kwarg_rows(facts):
        notes = ([t["injected"]] if injected else []) + changes(values, t)
        kw_rows.append(
            [
                _code(backend),
                devices,
                _code(cls),
                _code(name),
                *(_fmt(values[r], t) for r in releases),
                "; ".join(notes),
            ]
        )
    lines = [f"# {t['settings_title']}", "", *_info(t, releases, pinned), ""]
    lines += [f"## {t['config_h']}", "", t["config_p"].format(absent=ABSENT), ""]
    lines += [*_table([t["field"], *releases, t["changes"]], cfg_rows, t["skip_reason"]), ""]
    lines += [f"## {t['kwargs_h']}", "", t["kwargs_p"], ""]
    head = [t["backend"], t["device"], t["engine"], t["kwarg"], *releases, t["changes"]]
    lines += [*_table(head, kw_rows, t["skip_reason"]), ""]
    return "\n".join(lines)


PAGES = {"compat/backends": backends_page, "compat/settings": settings_page}


def render_all(facts: FactsByRelease, pinned: str) -> dict[str, str]:
    """Every generated page: ``{"compat/backends.md": …, "compat/backends.en.md": …, …}``."""
    out = {}
    for stem, fn in PAGES.items():
        out[f"{stem}.md"] = fn(facts, "zh", pinned)
        out[f"{stem}.en.md"] = fn(facts, "en", pinned)
    return out
