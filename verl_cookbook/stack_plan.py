"""The install plan ``verl-cookbook stack`` prints, built from a resolution (``stack_resolve``): every pin with
the requirements that name it, what is installed after pip's part (another index, sdist builds, vLLM from source,
vllm-ascend with ``--no-deps``), the glibc the wheels need, and where verl's guide names other versions."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name, parse_wheel_filename
from packaging.version import Version

from verl_cookbook import resolver
from verl_cookbook.stack_facts import UNSUPPORTED, StackFact, stack_facts, wheel
from verl_cookbook.stack_resolve import (
    Ask,
    file_version,
    guide,
    manylinux_level,
    pins_of_guide,
    release_fact,
    target_env,
)


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    file: str
    why: tuple[str, ...]  # "who: requirement" for every requirement naming it, the most specific first
    how: str = "index"  # index | no-deps | elsewhere | sdist | sdist-pure | build | source (vllm-ascend on the node)
    lowest: str = ""  # the file of this version that installs on the oldest glibc (the index's list; "" = ``file``)

    @property
    def spec(self) -> str:
        return f"{self.name}=={self.version}"


@dataclass
class Plan:
    ask: Ask
    verdict: str  # ok | conflict | missing | unsupported
    pip_says: list[str]
    pins: list[Pin] = field(default_factory=list)  # what pip installs from the index, by name
    extra: list[Pin] = field(default_factory=list)  # installed after: elsewhere, sdist builds, vLLM, vllm-ascend
    facts: dict[str, StackFact] = field(default_factory=dict)  # the guide's
    notes: list[str] = field(default_factory=list)
    pruned: list[str] = field(default_factory=list)  # pip's additions for markers of the resolving machine
    target: str = ""

    @property
    def glibc_floor(self) -> tuple[int, int] | None:
        """The oldest glibc every pin installs on: for each pinned version the lowest manylinux level among its
        files for the target (``Pin.lowest``), the highest of those over the pins. Not the files pip picked for a
        glibc 2.35 target: a version that also ships an older-manylinux file installs on the older glibc too."""
        decider = self.glibc_decider
        return decider[0] if decider else None

    @property
    def glibc_decider(self) -> tuple[tuple[int, int], Pin] | None:
        """The glibc floor and the first pin (by name) that sets it."""
        best: tuple[tuple[int, int], Pin] | None = None
        for p in [*self.pins, *self.extra]:
            level = wheel_glibc(p.lowest or p.file)
            if level is not None and (best is None or level > best[0]):
                best = (level, p)
        return best


wheel_glibc = manylinux_level  # the oldest glibc a wheel file installs on, None for pure ones


@lru_cache(maxsize=8192)
def _requires_dist(line: str) -> Requirement:
    """A ``Requires-Dist`` line parsed, once per process: the plans of every release and target read the same few
    thousand lines some hundred thousand times (the callers only read the result)."""
    return Requirement(line)


def _closure(roots: list[str], items: dict[str, dict], env: dict[str, str]) -> dict[str, set[str]]:
    """The distributions the roots need on the target (markers evaluated for it, extras followed), each with the
    extras asked of it."""
    seen: set[tuple[str, tuple[str, ...]]] = set()
    todo = [Requirement(r) for r in roots]
    while todo:
        req = todo.pop()
        name = str(canonicalize_name(req.name))
        item = items.get(name)
        key = (name, tuple(sorted(req.extras)))
        if item is None or key in seen:
            continue
        seen.add(key)
        for line in item.get("requires_dist", []):
            sub = _requires_dist(line)
            if sub.marker is None or any(sub.marker.evaluate({**env, "extra": e}) for e in ["", *req.extras]):
                todo.append(sub)
    out: dict[str, set[str]] = {}
    for name, extras in seen:
        out.setdefault(name, set()).update(extras)
    return out


def _reasons(record: dict, items: dict[str, dict], kept: dict[str, set[str]], env: dict[str, str]) -> dict:
    """For every distribution name, the requirements that name it (each line parsed once): an exact pin first, then
    the roots', verl's, the others'."""
    out: dict[str, list[tuple[int, str]]] = {}
    for root in record.get("roots", []):
        r = Requirement(root["requirement"])
        out.setdefault(canonicalize_name(r.name), []).append((_rank(r, 1), f"{root['why']}: {r}"))
    for other in sorted(kept):
        item = items[other]
        for line in item.get("requires_dist", []):
            r = _requires_dist(line)
            if r.marker is not None and not any(r.marker.evaluate({**env, "extra": e}) for e in ["", *kept[other]]):
                continue
            text = f"{item['name']} {item['version']} Requires-Dist: {line}"
            out.setdefault(canonicalize_name(r.name), []).append((_rank(r, 2 if other == "verl" else 3), text))
    return {name: tuple(text for _, text in sorted(found, key=lambda t: t[0])) for name, found in out.items()}


def _rank(r: Requirement, base: int) -> int:
    if any(s.operator == "==" for s in r.specifier):
        return 0
    return base if r.specifier else 9


def build(ask: Ask, record: dict) -> Plan:
    """The plan a recorded (or live) resolution gives: pins with their reasons, what is installed after."""
    g = guide(ask)
    plan = Plan(ask, record["verdict"], list(record.get("pip_says", [])), facts=g, target=record.get("target", ""))
    plan.notes = list(record.get("notes", []))
    plan.notes += support_notes(ask)
    if record["verdict"] == "ok" and (refusal := unsupported(ask)) is not None:
        plan.verdict, plan.pip_says = "unsupported", [refusal]
        return plan
    if record["verdict"] != "ok":
        plan.pip_says = [_trace(line, record) for line in plan.pip_says]
        return plan
    env = target_env(ask)
    items = {str(canonicalize_name(i["name"])): i for i in record["installs"]}
    kept = _closure([r["requirement"] for r in record["roots"]], items, env)
    plan.pruned = sorted(items[n]["name"] for n in set(items) - set(kept))
    reasons = _reasons(record, items, kept, env)
    for n in sorted(kept, key=lambda n: items[n]["name"].lower()):
        i = items[n]
        plan.pins.append(Pin(i["name"], i["version"], i["file"], reasons.get(n, ()), lowest=i.get("lowest_file", "")))
    for e in record.get("elsewhere", []):
        r = Requirement(e["requirement"])
        version = next((s.version for s in r.specifier if s.operator == "=="), str(r.specifier))
        plan.extra.append(
            Pin(r.name, version, "", (f"{e['why']}: {r}", f"index {e['index']} ({e['source']})"), "elsewhere")
        )
    for sd in record.get("sdists", []):
        r = Requirement(sd["requirement"])
        version = file_version(sd["file"]) or next((s.version for s in r.specifier if s.operator == "=="), "")
        if sd.get("built"):  # built here as py3-none-any: pip builds it on the node with no compiler
            why = (f"{sd['why']}: {r}", f"the index has only an sdist; it builds as pure Python ({sd['built']})")
            plan.extra.append(Pin(r.name, version, sd["file"], why, "sdist-pure"))
            continue
        plan.extra.append(
            Pin(r.name, version, sd["file"], (f"{sd['why']}: {r}", "the index has only an sdist"), "sdist")
        )
    vllm = g.get("vllm")
    if vllm is not None:
        flag = release_fact(ask, "script", "vllm_build") or release_fact(ask, "guide", "vllm_build")
        how = f"built from source with {flag.value} ({flag.source})" if flag else "built from source"
        plan.extra.append(
            Pin(
                "vllm",
                vllm.value,
                record.get("vllm_sdist", ""),
                (f"verl's guide: {vllm.value} ({vllm.source})", how),
                "build",
            )
        )
    va = record["vllm_ascend"]
    guide_says = f"verl's guide: {g['vllm_ascend'].value} ({g['vllm_ascend'].source})"
    built = source_build(ask, va["version"])
    if built is not None:
        plan.extra.append(Pin(va["name"], va["version"], "", (guide_says, *built.reasons()), "source"))
    else:
        plan.extra.append(
            Pin(va["name"], va["version"], va["file"], (guide_says,), "no-deps", lowest=va.get("lowest_file", ""))
        )
    plan.notes += guide_notes(plan)
    return plan


def accepts(ask: Ask, record: dict, house: Path) -> list[str]:
    """pip's dry run, for the target, of the plan's requirements file (``stack --format requirements``): [] when
    pip takes it as it is, with nothing added and nothing changed (but what only the resolving machine's markers
    add), else what pip said or what moved, one line each.

    A pin whose release the index has only as an sdist (``sdist-pure``: antlr4-python3-runtime 4.9.3, which
    hydra-core 1.3.x requires) cannot enter that dry run: with ``--platform`` pip takes wheels only and refuses
    ``--no-binary`` ("either --no-deps must be set, or --only-binary=:all: must be set and --no-binary must not be
    set"). So it is built first, as on the node, by pip from the index's sdist into ``house``
    (:func:`resolver.build_pure_wheel`, which keeps only a ``py3-none-any`` wheel: one file for every target), and
    the dry run may take it from there (``--find-links``); the index's own files stay pip's only other source. A
    build that fails or is not pure Python, Requires-Dist other than the plan recorded, or a pin the index lacks
    is a problem line, never skipped."""
    plan = build(ask, record)
    if plan.verdict != "ok":
        return [f"{ask.key}: no plan to check: {plan.verdict} {plan.pip_says}"]
    problems = []
    pure = [p for p in plan.extra if p.how == "sdist-pure"]
    recorded_requires = {
        canonicalize_name(Requirement(sd["requirement"]).name): sd.get("requires") for sd in record.get("sdists", [])
    }
    for p in pure:
        built = [
            w
            for w in house.glob("*.whl")
            if parse_wheel_filename(w.name)[:2] == (canonicalize_name(p.name), Version(p.version))
        ]
        whl = built[0] if built else resolver.build_pure_wheel(p.name, p.version, house, ask.index_url)
        if whl is None:
            problems.append(f"{ask.key}: {p.spec}: pip did not build the index's sdist into a pure-Python wheel")
            continue
        was = recorded_requires.get(canonicalize_name(p.name))
        if was is not None and sorted(resolver.wheel_requires(whl)) != sorted(was):
            problems.append(
                f"{ask.key}: {p.spec}: the built wheel requires {resolver.wheel_requires(whl)}, the plan recorded {was}"
            )
    if problems:
        return problems
    r = resolver.resolve([p.spec for p in plan.pins], ask.target, find_links=str(house))
    if r.verdict != "ok":
        return [f"{ask.key}: pip does not accept the requirements file: {r.verdict} {list(r.lines)}"]
    want = {canonicalize_name(p.name): p.version for p in [*plan.pins, *pure]}
    got = {canonicalize_name(n): v for n, _, v in (i.partition("==") for i in r.installs)}
    pruned = {canonicalize_name(n) for n in plan.pruned}
    return [f"{ask.key}: {n} {want.get(n)} -> {got.get(n)}" for n in sorted(set(want) | set(got) - pruned)
            if want.get(n) != got.get(n)]  # fmt: skip


# vllm-ascend's name for the chip family of each product (AscendDeviceType in vllm_ascend/utils.py: A2, A3, A5)
CHIP_FAMILY = {"A2": "A2", "A3": "A3", "950": "A5"}


@dataclass(frozen=True)
class SourceBuild:
    """vllm-ascend built on the node, because the wheel on the index is compiled for another chip family."""

    product: str
    version: str
    wheel_chip: str  # the wheel's ``__device_type__``
    wheel_where: str  # the wheel file and the line of its ``_build_info.py``
    check: StackFact | None  # vllm-ascend's device check at worker start, at the release tag
    soc: StackFact | None  # the SOC_VERSION vllm-ascend's guide gives for the product, at the release tag

    @property
    def soc_product(self) -> str:
        """The product vllm-ascend's guide gives the SOC_VERSION for (``Atlas 950DT``), from the line it rests on."""
        return self.soc.text.lstrip("- ").partition(":")[0] if self.soc else ""

    def reasons(self) -> tuple[str, ...]:
        out = [f"the wheel on the index is compiled for {self.wheel_chip}: __device_type__ = '{self.wheel_chip}' "
               f"({self.wheel_where})"]  # fmt: skip
        if self.check is not None:
            out.append(f"vllm-ascend stops at worker start when the chip differs: “{self.check.value}” "
                       f"({self.check.source})")  # fmt: skip
        how = "built from source on the node, where the build reads the chip from npu-smi"
        if self.soc is not None:
            how += f"; without npu-smi, SOC_VERSION={self.soc.value} for {self.soc_product} ({self.soc.source})"
        out.append(how)
        return tuple(out)


def source_build(ask: Ask, version: str) -> SourceBuild | None:
    """How vllm-ascend ``version`` must be installed on ``ask.product`` when the wheel on the index was compiled for
    another chip family (``__device_type__`` in the wheel's ``vllm_ascend/_build_info.py``); None when the wheel
    fits the product, or when the snapshot does not say what it was compiled for."""
    chip = CHIP_FAMILY.get(ask.product)
    entry = wheel(f"vllm-ascend=={version}")
    for where, const in (entry or {}).get("build_info", {}).items():
        if const.get("name") == "__device_type__" and chip is not None and const["value"] != chip:
            return SourceBuild(
                ask.product,
                version,
                str(const["value"]),
                f"{entry['file']} {where}",  # type: ignore[index]
                _fact(f"vllm_ascend.v{version}.device_type_check"),
                _fact(f"vllm_ascend.v{version}.soc_version.{ask.product}"),
            )
    return None


def _fact(fact_id: str) -> StackFact | None:
    found = stack_facts().get(fact_id)
    return found[0] if found else None


def readme_label(release: str, f: StackFact) -> str:
    """Whose README a fact about verl ``release`` comes from: the release's, or main's when no tag was read."""
    if f.read_at_tag(release):
        return f"verl {release}'s README"
    commit = (f.ref or "")[:7]
    return f"the README of verl main at {commit} (read for {release}: our copy of verl's repository predates {release})"


def support_notes(ask: Ask) -> list[str]:
    """What verl's README says of the backend on the product (kimi_ckpt_engine on the 950)."""
    if ask.backend != "kimi_ckpt_engine" or ask.product != "950":
        return []
    f = release_fact(ask, "readme", "kimi_950")
    if f is None:
        return [f"verl {ask.verl}'s README says nothing of kimi_ckpt_engine on the Ascend 950"]
    return [f"{readme_label(ask.verl, f)} on kimi_ckpt_engine on the Ascend 950: “{f.text}” ({f.source})"]


def unsupported(ask: Ask) -> str | None:
    """verl's README saying the backend is not supported on the product (kimi_ckpt_engine on the 950 in 0.9.0)."""
    f = release_fact(ask, "readme", "kimi_950") if ask.backend == "kimi_ckpt_engine" and ask.product == "950" else None
    if f is None or f.value != UNSUPPORTED:
        return None
    return f"{readme_label(ask.verl, f)}: “{f.text}” ({f.source})"


def _trace(line: str, record: dict) -> str:
    """pip's "The user requested X" line, with the reason of the root it is (a root that came from vllm-ascend,
    vLLM's requirements, a --pin); pip writes the specifiers its own way (``… and >=4.56.0``)."""
    m = re.match(r"The user requested (.+)$", line.strip())
    if not m:
        return line
    try:
        said = Requirement(m.group(1).replace(" and ", ","))
    except InvalidRequirement:
        return line
    for root in record.get("roots", []):
        r = Requirement(root["requirement"])
        if canonicalize_name(r.name) == canonicalize_name(said.name) and r.specifier == said.specifier:
            return f"{line}  [{root['why']}]"
    return line


def rejecting(ask: Ask, base: dict | None) -> list[str]:
    """For each --pin, the requirements of the plan without the pins (``base``, its resolution) that the pinned
    version does not meet: the other side of pip's conflict, in the wheels' own words."""
    if base is None or base.get("verdict") != "ok" or not ask.pins:
        return []
    plan = build(Ask(ask.verl, ask.product, ask.python, ask.arch, ask.glibc, ask.backend), base)
    by_name = {canonicalize_name(p.name): p for p in [*plan.pins, *plan.extra]}
    out = []
    for pin in ask.pins:
        r = Requirement(pin)
        version = next(s.version for s in r.specifier if s.operator == "==")
        found = by_name.get(canonicalize_name(r.name))
        for why in found.why if found else ():
            if rejects(why, version):
                out.append(f"rejects {r.name} {version}: {why}")
    return out


@dataclass(frozen=True)
class GuideDiff:
    """A version verl's guide names that the plan does not pin, and the requirement that decides."""

    name: str
    guide: str
    source: str
    pinned: str
    decided_by: str | None


def guide_differences(plan: Plan) -> list[GuideDiff]:
    out = []
    by_name = {canonicalize_name(p.name): p for p in [*plan.pins, *plan.extra]}
    for spec in pins_of_guide(plan.ask):
        name, _, version = spec.partition("==")
        pin = by_name.get(canonicalize_name(name))
        if pin is None or pin.version == version:
            continue
        f = plan.facts[{"torch-npu": "torch_npu"}.get(name, name)]
        against = [w for w in pin.why if rejects(w, version)]
        out.append(GuideDiff(name, version, f.source, pin.version, against[0] if against else None))
    return out


def guide_notes(plan: Plan) -> list[str]:
    """Where the guide names another version than the plan pins (and the requirement that decides)."""
    out = []
    for d in guide_differences(plan):
        reason = f"; {d.decided_by}" if d.decided_by else ""
        out.append(f"verl's guide names {d.name} {d.guide} ({d.source}); the plan pins {d.pinned}{reason}")
    return out


def rejects(why: str, version: str) -> bool:
    """Whether the requirement quoted in ``why`` (a pin's reason: ``… Requires-Dist: name >=x``, ``--pin: name==y``)
    excludes ``version``; False when the reason quotes no version range."""
    m = re.search(r"(?:Requires-Dist|--pin|\)): ([A-Za-z0-9_.\-\[\]]+)\s*([^;]*)$", why)
    if not m or not m.group(2).strip():
        return False
    try:
        return Version(version) not in SpecifierSet(m.group(2).strip())
    except Exception:
        return False
