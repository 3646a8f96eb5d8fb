"""The Ascend stack for a verl release and product, resolved by pip: what ``verl-cookbook stack`` plans from.

What no index says comes from committed facts (``snapshots/stack_facts.yaml``, each with repository, commit, file
and line): the versions verl's Ascend install guide names at the release tag (vLLM, vllm-ascend, CANN, HDK, …), the
flag vLLM is built with, the index triton-ascend comes from, and what each checkpoint-engine backend imports.
Everything else is pip's: the plan is pip's resolver over the real metadata (``resolver.resolve``, a dry run with the
target platform and Python explicit), from these roots:

- ``verl==X``, without extras (the extras pin CUDA torch, see the version-matrix page);
- vllm-ascend's own Requires-Dist (read with ``--no-deps`` for the target): vllm-ascend itself is installed with
  ``--no-deps`` last, because one of its requirements lives on another index;
- vLLM's requirements for ``VLLM_TARGET_DEVICE=empty`` (``requirements/common.txt`` of its sdist; vLLM is built from
  source as verl's guide does, never the PyPI wheel, which pins CUDA torch);
- what the backend needs (``pyzmq`` for the HCCL engine, ``checkpoint-engine>=0.4.0`` and the Mooncake NPU wheel);
- the user's ``--pin``.

When pip stops at a requirement no file on the index matches, the plan follows what the facts say of it: a
requirement verl's script installs from another index (triton-ascend) leaves the resolution with that index
named; one the index has only as an sdist is built from it, its PKG-INFO's Requires-Dist joining the roots.
Anything else is pip's final answer (``missing``), as is a conflict (``conflict``, pip's lines quoted, each
"The user requested …" traced to the root it came from).

A resolution is a JSON record; the covered ones are committed in ``snapshots/stack_plans.json`` (rebuilt and
proven current by ``scripts/refresh_stack_plans.py``), so a covered plan needs no network.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.tags import compatible_tags, cpython_tags
from packaging.utils import canonicalize_name, parse_wheel_filename
from packaging.version import InvalidVersion, Version

from verl_cookbook import resolver
from verl_cookbook.stack_facts import StackFact, fact, snapshot_dir, stack_facts

PRODUCTS = ("A2", "A3", "950")
GUIDE_FAMILY = {"A2": "a3", "A3": "a3", "950": "a5"}  # verl's guide: one table for A2/A3, install_guidance_A5 for 950
BACKENDS = ("nccl", "mooncake", "kimi_ckpt_engine")
ARCHES = ("aarch64", "x86_64")
MOONCAKE_NPU = "mooncake-transfer-engine-npu"
INSTALLED_LAST = "vllm-ascend"  # installed with --no-deps after the rest; its Requires-Dist are roots
MAX_ROUNDS = 8
# the reasons a root is there (the pages translate them by these shapes: stack_pages.decider)
WHY_ASKED = "the release asked (no extras: they pin CUDA torch)"
WHY_VLLM = "vLLM {version} built with VLLM_TARGET_DEVICE=empty ({where})"
WHY_BACKEND = "backend {backend}: {why}"
WHY_CORE = "verl {version} Requires-Dist, extra verl-core (the v1 trainer imports it)"
# floors verl's own code sets where its Requires-Dist names no version: without them pip, taking wheels only for
# a foreign platform, backtracks silently to a release whose wheel lacks a requirement the index has only as an sdist
# (hydra-core 1.3.2 needs antlr4-python3-runtime 4.9.*, sdist-only; pip fell back to hydra-core 0.11.3, whose
# hydra.main has no config_name and cannot start verl). Each floor is checked against every covered release's source
# (tests/test_stack.py).
FLOORS = (
    (
        "hydra-core>=1.2",
        "verl {version}'s verl/trainer/main_ppo.py calls hydra.main(config_name=…, version_base=None); version_base "
        "is from Hydra 1.2 (https://hydra.cc/docs/upgrades/version_base/)",
        "verl/trainer/main_ppo.py",
        'config_name="ppo_trainer", version_base=None)',
    ),
)
# what the v1 trainer (trainer.use_v1, the default) imports from verl's verl-core extra, taken from that extra
V1_TRAINER = ("transferqueue",)
# the distributions whose upload times the pages show (snapshots/index_uploads.json)
DATED = ("verl", "mooncake-transfer-engine-npu", "checkpoint-engine", "vllm-ascend", "torch-npu", "triton-ascend")


@dataclass(frozen=True)
class Ask:
    """What the user asks for; the resolution depends on everything but the product's name within a guide family
    and the CANN version (both only change the notes)."""

    verl: str
    product: str
    python: str = "3.11"
    arch: str = "aarch64"
    glibc: str = "2.35"
    backend: str = "nccl"
    pins: tuple[str, ...] = ()
    cann: str | None = None
    index_url: str = resolver.INDEX_URL

    @property
    def family(self) -> str:
        return GUIDE_FAMILY[self.product]

    @property
    def key(self) -> str:
        """What the resolution depends on: the releases the guide names (products whose guides name the same share
        one), the target, the backend and the pins."""
        g = guide(self)
        stack = " ".join(f"{k}=={g[k].value}" if k in g else f"{k}=none" for k in ("vllm_ascend", "vllm"))
        pins = ",".join(sorted(str(Requirement(p)) for p in self.pins))
        return (
            f"verl=={self.verl} {stack} python={self.python} arch={self.arch} glibc={self.glibc} "
            f"backend={self.backend} pins={pins}"
        )

    @property
    def target(self) -> resolver.Target:
        major, minor = (int(x) for x in self.glibc.split("."))
        return resolver.Target(self.python, self.arch, (major, minor), self.index_url)


# -- the committed facts ------------------------------------------------------------------------------------------


def guide(ask: Ask) -> dict[str, StackFact]:
    """What verl's Ascend guide names for the release and product family (``verl.guide.<release>.<family>.<key>``)."""
    prefix = f"verl.guide.{ask.verl}.{ask.family}."
    return {fid[len(prefix) :]: es[0] for fid, es in stack_facts().items() if fid.startswith(prefix)}


def release_fact(ask: Ask, kind: str, name: str) -> StackFact | None:
    """``verl.<kind>.<release>.<name>`` (kind: script, readme, source, guide)."""
    return fact(f"verl.{kind}.{ask.verl}.{name}")


def elsewhere_index(ask: Ask, name: str) -> StackFact | None:
    """The index verl's script installs ``name`` from, when it is not the default one."""
    if canonicalize_name(name) == "triton-ascend":
        return release_fact(ask, "script", "triton_ascend_index")
    return None


def backend_roots(ask: Ask) -> list[tuple[str, str]]:
    """(requirement, why) for what the backend's engine imports beyond verl's own requirements."""
    zmq = release_fact(ask, "source", "hccl_imports_zmq")
    minimum = release_fact(ask, "readme", "checkpoint_engine_min")
    why_zmq = f"the HCCL engine imports zmq ({zmq.source})" if zmq else "the HCCL engine imports zmq"
    mooncake = "the Mooncake NPU wheel: the transfer engine both Mooncake backends import, built for Ascend"
    if ask.backend == "nccl":
        return [("pyzmq", why_zmq)]
    if ask.backend == "mooncake":
        return [(MOONCAKE_NPU, mooncake)]
    ce = f"checkpoint-engine>={minimum.value}" if minimum else "checkpoint-engine"
    why_ce = f"verl's README asks for {minimum.value} or higher ({minimum.source})" if minimum else "kimi engine"
    return [(ce, why_ce), (MOONCAKE_NPU, mooncake)]


# -- the resolution (live) ------------------------------------------------------------------------------------


def target_env(ask: Ask) -> dict[str, str]:
    return {
        "python_version": ask.python,
        "python_full_version": f"{ask.python}.0",
        "platform_machine": ask.arch,
        "sys_platform": "linux",
        "platform_system": "Linux",
        "os_name": "posix",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "extra": "",
    }


def applies(req: Requirement, env: dict[str, str]) -> bool:
    return req.marker is None or req.marker.evaluate(env)


def requirement_lines(text: str, where: str) -> list[tuple[str, str]]:
    """(requirement, ``where:line``) of a requirements file's lines, comments dropped (``-r`` is not followed:
    vLLM's common.txt has none)."""
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = re.sub(r"\s+#.*$", "", raw).strip()
        if not line or line.startswith(("#", "-")):
            continue
        out.append((line, f"{where}:{n}"))
    return out


@dataclass
class Roots:
    """The requirements pip resolves, each with the reason it is there, and what left the resolution."""

    items: list[tuple[str, str]] = field(default_factory=list)  # (requirement, why)
    elsewhere: list[dict] = field(default_factory=list)  # {requirement, index, why, source}
    sdists: list[dict] = field(default_factory=list)  # {requirement, file, why, requires}
    notes: list[str] = field(default_factory=list)

    def add(self, req: str, why: str, env: dict[str, str]) -> None:
        try:
            r = Requirement(req)
        except InvalidRequirement:
            self.notes.append(f"not a requirement, left out: {req} ({why})")
            return
        if not applies(r, env):
            return
        r.marker = None
        self.items.append((str(r), why))

    def drop(self, name: str) -> list[tuple[str, str]]:
        gone = [(r, w) for r, w in self.items if canonicalize_name(Requirement(r).name) == canonicalize_name(name)]
        self.items = [i for i in self.items if i not in gone]
        return gone


def _missing_requirement(lines: tuple[str, ...]) -> Requirement | None:
    for line in lines:
        m = re.search(r"No matching distribution found for (\S+)", line)
        if m:
            try:
                return Requirement(m.group(1))
            except InvalidRequirement:
                return None
    return None


def compute(ask: Ask, log: Callable[[str], None] = lambda s: None) -> dict:
    """Resolve the plan with pip, live (the network): the record ``snapshots/stack_plans.json`` keeps."""
    g = guide(ask)
    record: dict = {"key": ask.key, "target": ask.target.label, "index": ask.index_url}
    if "vllm_ascend" not in g:
        record.update(
            verdict="unsupported", pip_says=[f"verl {ask.verl}'s Ascend guide has no table for {ask.product}"]
        )
        return record
    env = target_env(ask)
    roots = Roots()
    roots.add(f"verl=={ask.verl}", WHY_ASKED, env)
    verl_meta = resolver.resolve([f"verl=={ask.verl}"], ask.target, no_deps=True, items=True)
    for line in verl_meta.items[0].get("requires_dist", []) if verl_meta.items else []:
        dep = Requirement(line)
        core = dep.marker is not None and dep.marker.evaluate({**env, "extra": "verl-core"})
        if canonicalize_name(dep.name) in V1_TRAINER and core:
            dep.marker = None
            roots.add(str(dep), WHY_CORE.format(version=ask.verl), env)
    va = g["vllm_ascend"].value
    meta = resolver.resolve([f"vllm-ascend=={va}"], ask.target, no_deps=True, items=True)
    if meta.verdict != "ok" or not meta.items:
        record.update(verdict=meta.verdict, pip_says=list(meta.lines))
        return record
    va_item = meta.items[0]
    record["vllm_ascend"] = va_item
    for req in va_item.get("requires_dist", []):
        roots.add(req, f"vllm-ascend {va} Requires-Dist", env)
    vllm = g.get("vllm")
    if vllm is not None:
        sd = resolver.sdist_file("vllm", vllm.value, ask.index_url)
        if sd is None:
            roots.notes.append(f"vLLM {vllm.value}: no sdist on the index, its requirements were not read")
        else:
            common = resolver.read_sdist(sd, ("requirements/common.txt",)).get("requirements/common.txt", "")
            for req, where in requirement_lines(common, f"{sd['filename']} requirements/common.txt"):
                roots.add(req, WHY_VLLM.format(version=vllm.value, where=where), env)
            record["vllm_sdist"] = sd["filename"]
    for req, why in backend_roots(ask):
        roots.add(req, WHY_BACKEND.format(backend=ask.backend, why=why), env)
    for req, why, _, _ in FLOORS:
        roots.add(req, why.format(version=ask.verl), env)
    for pin in ask.pins:
        roots.add(pin, "--pin", env)
    with tempfile.TemporaryDirectory(prefix="verl-cookbook-sdist-wheels-") as house:
        r = _resolve_rounds(ask, roots, env, Path(house), log)
    built = {canonicalize_name(Requirement(sd["requirement"]).name) for sd in roots.sdists if sd.get("built")}
    record.update(
        verdict=r.verdict,
        pip_says=list(r.lines),
        roots=[{"requirement": req, "why": why} for req, why in roots.items],
        elsewhere=roots.elsewhere,
        sdists=roots.sdists,
        notes=roots.notes,
        installs=[i for i in r.items if canonicalize_name(i["name"]) not in built],  # those come from their sdist
    )
    add_lowest_files(record, ask.target)
    return record


# -- the oldest glibc each pinned version installs on ---------------------------------------------------------------


def manylinux_level(filename: str) -> tuple[int, int] | None:
    """The oldest glibc a wheel file installs on (the lowest manylinux level among its tags), None for pure ones."""
    if not filename.endswith(".whl"):
        return None
    levels = []
    for tag in parse_wheel_filename(filename)[3]:
        m = re.match(r"manylinux_(\d+)_(\d+)_", tag.platform) or re.match(r"manylinux(2014)_", tag.platform)
        if m and m.group(1) == "2014":
            levels.append((2, 17))
        elif m:
            levels.append((int(m.group(1)), int(m.group(2))))
    return min(levels) if levels else None


def lowest_file(name: str, version: str, files: list[str], target: resolver.Target) -> str | None:
    """Of ``files`` (the index's file names of ``name``), the one of ``version`` that installs on the target's
    Python and architecture at the oldest glibc: a pure wheel when the version has one, else the wheel with the
    lowest manylinux level (a version ships one file per level, and pip on an older host takes the older file).
    None when no wheel of the version installs on the target."""
    major, minor = (int(x) for x in target.python.split(".")[:2])
    platforms = resolver.platforms(target.glibc, target.arch)
    accepted = {*cpython_tags((major, minor), platforms=platforms), *compatible_tags((major, minor), None, platforms)}
    best: tuple[tuple[int, int], str] | None = None
    for fn in files:
        if not fn.endswith(".whl"):
            continue
        try:
            dist, ver, _, tags = parse_wheel_filename(fn)
            same = canonicalize_name(dist) == canonicalize_name(name) and ver == Version(version)
        except (ValueError, InvalidVersion):
            continue
        if not same or not tags & accepted:
            continue
        level = manylinux_level(fn) or (0, 0)  # a pure wheel, or one for any Linux: no glibc floor
        if best is None or (level, fn) < best:
            best = (level, fn)
    return best[1] if best else None


def add_lowest_files(record: dict, target: resolver.Target, files: Callable[[str], list[str]] | None = None) -> None:
    """Give each platform wheel of the record (every install, and vllm-ascend) ``lowest_file``: the file of the
    same version that installs on the oldest glibc, from the index's file list (``resolver.index_files``), so the
    plan's glibc floor is what each pinned version needs, not what pip picked for the resolving target."""
    names: dict[str, list[str]] = {}

    def listed(name: str) -> list[str]:
        if name not in names:
            names[name] = (
                files(name)
                if files
                else [f["filename"] for f in resolver.index_files(name, target.index_url) if not f.get("yanked")]
            )
        return names[name]

    items = [*record.get("installs", []), *([record["vllm_ascend"]] if record.get("vllm_ascend") else [])]
    for item in items:
        if manylinux_level(item.get("file", "")) is None:
            continue
        found = lowest_file(item["name"], item["version"], listed(item["name"]), target)
        item["lowest_file"] = found or item["file"]


def _resolve_rounds(
    ask: Ask, roots: Roots, env: dict[str, str], house: Path, log: Callable[[str], None]
) -> resolver.Resolution:
    """pip over the roots until it answers for good: a requirement no file matches is taken from another index
    or built from its sdist (dropped from the roots); a conflict that only an sdist-only release causes (pip, taking
    wheels only, cannot use it) is resolved again with that release built here as a pure-Python wheel."""
    for _ in range(MAX_ROUNDS):
        log(f"pip resolves {len(roots.items)} roots for {ask.key}")
        r = resolver.resolve([req for req, _ in roots.items], ask.target, items=True, find_links=str(house))
        if r.verdict == "conflict":
            if not _build_sdist_only(ask, roots, house, r.lines):
                break
            continue
        if r.verdict != "missing":
            break
        lack = _missing_requirement(r.lines)
        if lack is None:
            break
        index = elsewhere_index(ask, lack.name)
        if index is not None:
            for gone, why in roots.drop(lack.name):
                roots.elsewhere.append({"requirement": gone, "index": index.value, "why": why, "source": index.source})
            continue
        sd = resolver.sdist_for(lack.name, lack.specifier, ask.index_url) if lack.specifier else None
        if sd is None:
            break
        requires = resolver.pkg_info_requires(resolver.read_sdist(sd).get("PKG-INFO", ""))
        dropped = roots.drop(lack.name)
        if not dropped:
            break
        roots.sdists.append(
            {"requirement": dropped[0][0], "file": sd["filename"], "why": dropped[0][1], "requires": requires}
        )
        for sub in requires or []:
            roots.add(sub, f"{sd['filename']} PKG-INFO Requires-Dist", env)
    return r


def _build_sdist_only(ask: Ask, roots: Roots, house: Path, lines: tuple[str, ...]) -> bool:
    """Build each sdist-only requirement pip's conflict names (newest release its specifier allows) into ``house``;
    True when one was built, so that resolving again can change the answer."""
    done = {canonicalize_name(Requirement(sd["requirement"]).name) for sd in roots.sdists}
    progress = False
    for req, who in resolver.sdist_only_dependencies(lines, ask.index_url):
        if canonicalize_name(req.name) in done:
            continue
        sd = resolver.sdist_for(req.name, req.specifier, ask.index_url)
        version = file_version(sd["filename"]) if sd else None
        whl = resolver.build_pure_wheel(req.name, version, house, ask.index_url) if sd and version else None
        if sd is None or whl is None:
            roots.notes.append(f"{req} (required by {who}): only an sdist on the index, not built as pure Python")
            continue
        roots.sdists.append(
            {
                "requirement": f"{req.name}=={version}",
                "file": sd["filename"],
                "why": f"{who} Requires-Dist",
                "requires": resolver.wheel_requires(whl),
                "built": whl.name,
            }
        )
        progress = True
    return progress


# -- the committed resolutions --------------------------------------------------------------------------------


@cache
def _plans(folder: str) -> dict:
    path = Path(folder) / "stack_plans.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"plans": {}}


def plans_snapshot() -> dict:
    return _plans(str(snapshot_dir()))


def recorded(ask: Ask) -> dict | None:
    """The committed resolution for the ask, its installs expanded from the shared table of distributions."""
    return recorded_in(plans_snapshot(), ask.key)


def recorded_in(snap: dict, key: str) -> dict | None:
    entry = snap["plans"].get(key)
    if entry is None:
        return None
    dists = snap.get("dists", {})
    return {**entry, "installs": [dists[f] for f in entry.get("installs", [])]}


def compact(records: list[dict]) -> dict:
    """``{"plans": {key: record}, "dists": {file: item}}``: each distribution's metadata once, plans list files."""
    dists: dict[str, dict] = {}
    plans = {}
    for rec in records:
        files = []
        for item in rec.get("installs", []):
            dists[item["file"]] = item
            files.append(item["file"])
        plans[rec["key"]] = {**rec, "installs": files}
    return {"plans": dict(sorted(plans.items())), "dists": dict(sorted(dists.items()))}


def covered() -> list[Ask]:
    """Every plan the pages show: each covered release × product × backend, on the default target."""
    from verl_cookbook.releases import covered_releases

    return [Ask(r, p, backend=b) for r in covered_releases() for p in PRODUCTS for b in BACKENDS]


def covered_pins() -> list[Ask]:
    """The guide's own versions where the plan pins others, each as a ``--pin`` (backend nccl): pip's answer to
    "what if I follow the guide"."""
    out = []
    for ask in covered():
        if ask.backend != "nccl" or ask.product == "A2":
            continue
        for pin in pins_of_guide(ask):
            out.append(Ask(ask.verl, ask.product, backend=ask.backend, pins=(pin,)))
    return out


def pins_of_guide(ask: Ask) -> list[str]:
    """The guide's versions of packages on the index (``name==version``): the pins a reader following the guide
    would add, each a ``--pin`` the snapshot also answers."""
    names = {"torch_npu": "torch-npu", "transformers": "transformers", "torchvision": "torchvision"}
    names["torchaudio"] = "torchaudio"
    out = []
    for key, dist in names.items():
        f = guide(ask).get(key)
        if f is not None and re.fullmatch(r"\d[\w.]*", f.value):
            out.append(f"{dist}=={f.value}")
    return out


def file_version(filename: str) -> str | None:
    """The version in a wheel or sdist file name."""
    if filename.endswith(".whl"):
        return str(parse_wheel_filename(filename)[1])
    for ext in (".tar.gz", ".zip"):
        if filename.endswith(ext):
            return filename[: -len(ext)].rpartition("-")[2] or None
    return None


@cache
def _uploads(folder: str) -> dict:
    path = Path(folder) / "index_uploads.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"dists": {}}


def uploads() -> dict:
    return _uploads(str(snapshot_dir()))
