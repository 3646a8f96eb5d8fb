"""Version combinations as pip's own resolver answers them.

``resolve(pins)`` runs ``pip install --dry-run --ignore-installed --report`` with ``--only-binary=:all:`` for a
target (Linux, glibc 2.35, CPython 3.11, x86_64 by default; ``--target`` because pip allows ``--platform`` only
there), so platform wheels the host could not install still resolve. pip's answer is one of:

- ``ok``: it found a set of versions (the report's ``install`` list, kept as ``name==version``);
- ``conflict``: ``ResolutionImpossible``; the lines under "The conflict is caused by:" are kept verbatim;
- ``missing``: a requirement has no matching distribution on the index (pip's line kept verbatim).

A resolution takes 2-65 s here (pip downloads whole wheels when the index gives no separate metadata), so the
``combo`` claims read pip's answers from the committed ``snapshots/resolver.json``, rebuilt and proven current by
``scripts/refresh_resolver.py`` (``--check``), which the scheduled stack-facts workflow runs.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename
from packaging.version import InvalidVersion, Version

from verl_cookbook.processes import run

RESOLVE_S = 600.0  # one resolution (2-65 s seen); the expiry is processes.Overdue, with what did not finish
VERSION_S = 60.0


def snapshot_dir() -> Path:  # as stack_facts.snapshot_dir (a sibling module: the layers forbid importing it)
    return Path(os.environ.get("VERL_COOKBOOK_SNAPSHOTS") or Path(__file__).resolve().parent / "snapshots")


GLIBC = (2, 35)
PYTHON = "3.11"
ARCH = "x86_64"
INDEX_URL = "https://pypi.org/simple/"


def key(pins: list[str]) -> str:
    """The snapshot's key for a combination: its requirements, normalised and sorted, joined by ``; ``. Extras are
    part of it (``verl[fsdp]==0.9.1`` pulls in other pins than ``verl==0.9.1``, so pip may answer otherwise)."""
    reqs = [Requirement(p) for p in pins]

    def one(r: Requirement) -> str:
        extras = f"[{','.join(sorted(canonicalize_name(e) for e in r.extras))}]" if r.extras else ""
        return f"{canonicalize_name(r.name)}{extras}{r.specifier}"

    return "; ".join(sorted(one(r) for r in reqs))


@dataclass(frozen=True)
class Resolution:
    verdict: str  # ok | conflict | missing
    lines: tuple[str, ...]  # pip's own words for a conflict or a missing distribution
    installs: tuple[str, ...] = ()
    items: tuple[dict, ...] = ()  # the report's install items, condensed (:func:`condensed`), when asked for


@dataclass(frozen=True)
class Target:
    """The platform pip resolves for: ``--python-version``, ``--platform`` (every manylinux level up to the glibc),
    and the index it reads (``--index-url``; no machine configuration is read, see :func:`isolated_env`)."""

    python: str = PYTHON
    arch: str = ARCH
    glibc: tuple[int, int] = GLIBC
    index_url: str = INDEX_URL

    @property
    def label(self) -> str:
        return f"CPython {self.python}, glibc {self.glibc[0]}.{self.glibc[1]}, {self.arch}"


def platforms(glibc: tuple[int, int] = GLIBC, arch: str = ARCH) -> list[str]:
    """Every manylinux tag a glibc ``glibc`` host accepts, newest first (pip 23 does not expand ``--platform``)."""
    tags = [f"manylinux_{glibc[0]}_{minor}_{arch}" for minor in range(glibc[1], 16, -1)]
    return [*tags, f"manylinux2014_{arch}"]


# pip evaluates the environment markers of requirements (``triton; platform_machine == "x86_64"``) on the machine it
# runs on, whatever --platform says. This starts pip with its own marker environment set to the target's, so pip's
# resolver answers for the target: only the environment is changed, the resolution is pip's (as install_run fakes the
# glibc pip sees).
_PIP_FOR_TARGET = """import json, runpy, sys
import pip._vendor.packaging.markers as markers
_target = json.loads(sys.argv[1])
_real = markers.default_environment
def _environment():
    env = _real()
    env.update(_target)
    return env
markers.default_environment = _environment
sys.argv = ["pip", *sys.argv[2:]]
runpy.run_module("pip", run_name="__main__", alter_sys=True)
"""


def marker_environment(to: Target) -> dict[str, str]:
    """The environment markers of a Linux CPython ``to.python`` on ``to.arch``."""
    return {
        "python_version": to.python,
        "python_full_version": f"{to.python}.0",
        "platform_machine": to.arch,
        "platform_system": "Linux",
        "sys_platform": "linux",
        "os_name": "posix",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
    }


def command(
    pins: list[str],
    target: str,
    report: str,
    to: Target | None = None,
    no_deps: bool = False,
    find_links: str | None = None,
) -> list[str]:
    """pip's dry run for the pins on the platform ``to`` (default: the module's target, the default index), its
    environment markers evaluated for that platform."""
    to = to or Target()
    py = to.python.replace(".", "")
    cmd = [sys.executable, "-c", _PIP_FOR_TARGET, json.dumps(marker_environment(to)), "install", "--dry-run"]
    cmd += ["--ignore-installed", "--target", target, "--report", report, "--only-binary=:all:"]
    cmd += ["--python-version", to.python, "--implementation", "cp", "--abi", f"cp{py}"]
    cmd += ["--disable-pip-version-check", "--index-url", to.index_url]
    cmd += ["--no-deps"] if no_deps else []
    cmd += ["--find-links", find_links] if find_links else []  # pure-Python wheels built from sdist-only releases
    for tag in platforms(to.glibc, to.arch):
        cmd += ["--platform", tag]
    return [*cmd, *pins]


_KEPT_ENV = ("PIP_CERT", "PIP_DEFAULT_TIMEOUT", "PIP_CLIENT_CERT", "PIP_TRUSTED_HOST")


def isolated_env() -> dict[str, str]:
    """This process's environment for pip, without any pip configuration but the certificates and the timeout:
    no config file (``PIP_CONFIG_FILE=os.devnull``), no ``PIP_FIND_LINKS``, constraint or extra index of the machine,
    so the answer is the index's alone."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_") or k in _KEPT_ENV}
    env["PIP_CONFIG_FILE"] = os.devnull
    return env


def condensed(item: dict) -> dict:
    """What a plan needs of one install item of pip's report: name, version, the file and its Requires-Dist."""
    meta = item["metadata"]
    url = (item.get("download_info") or {}).get("url", "")
    out = {"name": meta["name"], "version": meta["version"], "file": url.rsplit("/", 1)[-1]}
    if meta.get("requires_dist"):
        out["requires_dist"] = list(meta["requires_dist"])
    if meta.get("requires_python"):
        out["requires_python"] = meta["requires_python"]
    return out


def interpret(returncode: int, output: str, report: dict | None) -> Resolution:
    """pip's exit status, output and JSON report as a :class:`Resolution`."""
    if returncode == 0 and report is not None:
        installs = sorted(f"{i['metadata']['name']}=={i['metadata']['version']}" for i in report.get("install", []))
        return Resolution("ok", (), tuple(installs))
    lines = [ln.rstrip() for ln in output.splitlines()]
    if "The conflict is caused by:" in lines:
        start = lines.index("The conflict is caused by:") + 1
        cause = []
        for ln in lines[start:]:
            if not ln.strip():
                break
            cause.append(ln.strip())
        return Resolution("conflict", tuple(cause))
    missing = [ln.removeprefix("ERROR: ").strip() for ln in lines if "No matching distribution found for" in ln]
    if missing:
        return Resolution("missing", tuple(missing))
    tail = [ln for ln in lines if ln.startswith("ERROR:")] or lines[-1:] or ["(pip said nothing)"]
    raise RuntimeError(f"pip failed without a resolver answer: {tail[-1]}")


def resolve(
    pins: list[str],
    to: Target | None = None,
    no_deps: bool = False,
    items: bool = False,
    find_links: str | None = None,
) -> Resolution:
    """Ask pip (this Python's) whether the pins install together on the target platform; with ``items``, keep
    what the report says of each distribution (:func:`condensed`); ``find_links``: a folder of wheels built here
    (:func:`build_pure_wheel`) that pip may take besides the index's."""
    with tempfile.TemporaryDirectory(prefix="verl-cookbook-resolve-") as tmp:
        report = Path(tmp) / "report.json"
        cmd = command(pins, str(Path(tmp) / "target"), str(report), to, no_deps, find_links)
        done = run(cmd, timeout=RESOLVE_S, what=f"pip's resolution of {'; '.join(pins)}", env=isolated_env())
        data = json.loads(report.read_text(encoding="utf-8")) if report.is_file() else None
        r = interpret(done.returncode, done.stdout + "\n" + done.stderr, data)  # pip logs the cause on stdout
        if items and data is not None:
            kept = tuple(sorted((condensed(i) for i in data.get("install", [])), key=lambda c: c["name"].lower()))
            return Resolution(r.verdict, r.lines, r.installs, kept)
        return r


# -- the index, read directly (what pip's resolver cannot answer for a foreign platform) -----------------------


def index_files(name: str, index_url: str = INDEX_URL) -> list[dict]:
    """The index's files of a project (PEP 691 JSON: filename, url, upload-time, yanked), or [] when it has none."""
    import ssl
    import urllib.error
    import urllib.request

    url = f"{index_url.rstrip('/')}/{canonicalize_name(name)}/"
    req = urllib.request.Request(url, headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    cafile = os.environ.get("PIP_CERT")  # the CA bundle pip is told to use (a TLS proxy's), else the system's
    ctx = ssl.create_default_context(cafile=cafile) if cafile else ssl.create_default_context()
    try:
        with urllib.request.urlopen(req, timeout=120, context=ctx) as r:
            return json.loads(r.read().decode("utf-8")).get("files", [])
    except urllib.error.HTTPError as e:
        if e.code == 404:
            return []
        raise


def sdist_file(name: str, version: str, index_url: str = INDEX_URL) -> dict | None:
    """The source distribution of ``name==version`` on the index, if it has one."""
    for f in index_files(name, index_url):
        fn = f["filename"]
        for ext in (".tar.gz", ".zip"):
            if fn.endswith(ext) and "-" in fn:
                dist, _, ver = fn[: -len(ext)].rpartition("-")
                if canonicalize_name(dist) == canonicalize_name(name) and ver == version:
                    return f
    return None


def sdist_for(name: str, specifier: SpecifierSet, index_url: str = INDEX_URL) -> dict | None:
    """The sdist of the newest version of ``name`` on the index that ``specifier`` allows (``==4.9.*`` included)."""
    found = []
    for f in index_files(name, index_url):
        fn = f["filename"]
        for ext in (".tar.gz", ".zip"):
            if fn.endswith(ext) and "-" in fn:
                dist, _, ver = fn[: -len(ext)].rpartition("-")
                try:
                    v = Version(ver)
                except InvalidVersion:
                    continue
                if canonicalize_name(dist) == canonicalize_name(name) and specifier.contains(v, prereleases=False):
                    found.append((v, f))
    return max(found, key=lambda vf: vf[0])[1] if found else None


_DEPENDS = re.compile(r"^(\S+) (\S+) depends on ([A-Za-z0-9._-]+)(\S*)$")


def sdist_only_dependencies(lines: tuple[str, ...], index_url: str = INDEX_URL) -> list[tuple[Requirement, str]]:
    """From pip's conflict lines ("hydra-core 1.3.8 depends on antlr4-python3-runtime==4.9.*"), each required
    distribution the index has for that specifier only as an sdist, with who requires it: pip, taking wheels only,
    cannot use it, and falls back to older releases of the requirer or gives up."""
    wanted: dict[str, tuple[Requirement, str]] = {}
    for line in lines:
        m = _DEPENDS.match(line.strip())
        if not m:
            continue
        try:
            req = Requirement(m.group(3) + m.group(4))
        except InvalidRequirement:
            continue
        wanted.setdefault(canonicalize_name(req.name), (req, f"{m.group(1)} {m.group(2)}"))
    out = []
    for req, who in wanted.values():
        files = index_files(req.name, index_url)
        allowed = [f for f in files if _allowed(f["filename"], req)]
        if allowed and not any(f["filename"].endswith(".whl") for f in allowed):
            out.append((req, who))
    return out


def _allowed(filename: str, req: Requirement) -> bool:
    version = None
    if filename.endswith(".whl"):
        try:
            version = parse_wheel_filename(filename)[1]
        except InvalidWheelFilename:
            return False
    else:
        for ext in (".tar.gz", ".zip"):
            if filename.endswith(ext):
                try:
                    version = Version(filename[: -len(ext)].rpartition("-")[2])
                except InvalidVersion:
                    return False
    return version is not None and req.specifier.contains(version, prereleases=False)


def build_pure_wheel(name: str, version: str, dest: Path, index_url: str = INDEX_URL) -> Path | None:
    """Build ``name==version`` from its sdist into ``dest`` with pip (no dependencies); the wheel when it is pure
    Python (``py3-none-any``: one file for every target), None when the build fails or gives a platform wheel."""
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-binary", name, "-w", str(dest)]
    cmd += ["--disable-pip-version-check", "--index-url", index_url, f"{name}=={version}"]
    done = run(cmd, timeout=RESOLVE_S, what=f"pip's build of {name}=={version}", env=isolated_env())
    if done.returncode != 0:
        return None
    for whl in dest.glob("*.whl"):
        dist, ver, _, tags = parse_wheel_filename(whl.name)
        if canonicalize_name(dist) == canonicalize_name(name) and str(ver) == version:
            return whl if all(t.abi == "none" and t.platform == "any" for t in tags) else None
    return None


def wheel_requires(whl: Path) -> list[str]:
    """Requires-Dist of a wheel's METADATA."""
    import zipfile
    from email.parser import HeaderParser

    with zipfile.ZipFile(whl) as z:
        meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        return [r.strip() for r in HeaderParser().parsestr(z.read(meta).decode("utf-8")).get_all("Requires-Dist") or []]


def read_sdist(f: dict, members: tuple[str, ...] = ("PKG-INFO",)) -> dict[str, str]:
    """``{member: text}`` of the sdist ``f`` (an :func:`index_files` entry), for the members named (paths below
    the top folder, e.g. ``PKG-INFO``, ``requirements/common.txt``)."""
    import io
    import ssl
    import tarfile
    import urllib.request

    cafile = os.environ.get("PIP_CERT")
    ctx = ssl.create_default_context(cafile=cafile) if cafile else ssl.create_default_context()
    with urllib.request.urlopen(f["url"], timeout=300, context=ctx) as r:
        data = r.read()
    out: dict[str, str] = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for m in tar.getmembers():
            inner = m.name.split("/", 1)[1] if "/" in m.name else m.name
            if inner in members and m.isfile():
                fh = tar.extractfile(m)
                if fh is not None:
                    out[inner] = fh.read().decode("utf-8", errors="replace")
    return out


def pkg_info_requires(text: str) -> list[str] | None:
    """Requires-Dist of an sdist's PKG-INFO, or None when the sdist does not state them (metadata before 2.2, or
    Requires-Dist declared dynamic: only a build would tell)."""
    from email.parser import HeaderParser

    msg = HeaderParser().parsestr(text)
    version = tuple(int(x) for x in (msg.get("Metadata-Version") or "1.0").split(".")[:2])
    dynamic = {d.strip().lower() for d in msg.get_all("Dynamic") or []}
    if version < (2, 2) or "requires-dist" in dynamic:
        return None
    return [r.strip() for r in msg.get_all("Requires-Dist") or []]


# -- the snapshot ---------------------------------------------------------------------------------------------


@cache
def _snapshot(folder: str) -> dict:
    path = Path(folder) / "resolver.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"combinations": {}}


def snapshot() -> dict:
    return _snapshot(str(snapshot_dir()))


def answer(pins: list[str]) -> Resolution | None:
    """pip's recorded answer for a combination, or None when the snapshot has not resolved it."""
    entry = snapshot()["combinations"].get(key(pins))
    if entry is None:
        return None
    return Resolution(entry["verdict"], tuple(entry.get("pip_says", ())), tuple(entry.get("installs", ())))


def target_label() -> str:
    s = snapshot()
    return f"pip {s.get('pip', '?')}, {s.get('target', '?')}"


def pip_version() -> str:
    done = run([sys.executable, "-m", "pip", "--version"], timeout=VERSION_S, what="pip --version")
    m = re.match(r"pip (\S+)", done.stdout)
    return m.group(1) if m else "?"
