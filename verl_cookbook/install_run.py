"""Install snippets run in a sandbox, without hardware (``verl-cookbook check --run-install``).

The site's ``install-runs.yaml`` declares, per snippet, a run: the snippet executes with ``bash -e`` in a throwaway
virtualenv with its own HOME and TMPDIR, and pip sees only the wheels the manifest names, fetched once from the
package index into a wheelhouse (``pip download``; pip then installs with ``--no-index --find-links``). Commands
that need an NPU, a cluster or another download are declared in ``skip:`` and reported as skipped with their
reason; ``fetch_deps: true`` fetches the wheels' dependencies too; ``no_deps:`` declares, with its reason, that
the run installs without dependencies (checkpoint-engine's torch is a gigabyte; the run is about the ``mooncake``
files). ``expect:`` states what must hold afterwards:

- ``importable: MODULE``: the sandbox's Python imports it, as a package with its ``__init__.py`` (files left
  behind by a half-removed wheel still import as a namespace package);
- ``listed: DIST`` / ``unlisted: DIST``: ``pip list`` shows it, or not;
- ``intact: true``: every distribution pip lists still has every file its RECORD names (an uninstall of a wheel
  that shared the files leaves pip listing a package whose files are gone);
- ``file: PATH``: that path, relative to the sandbox's site-packages, is on disk (``mooncake/engine.so``: the
  module itself, not only a package that imports);
- ``stdout: TEXT``: the snippet printed it.

``start:`` runs the snippet once from each state a reader may be in (nothing installed, one wheel, both), each made
by its own commands before the snippet; a finding names the state it comes from.

``glibc: "2.34"`` runs the snippet on a faked C library: a ``.pth`` hook in the sandbox makes
``os.confstr("CS_GNU_LIBC_VERSION")`` answer that version, so pip's own tag logic (``packaging.tags`` →
``_manylinux``) decides which wheels this "host" may install. The answer is pip's, only the platform is fake.

The manifest is read by :mod:`verl_cookbook.install_manifest`; the default ``check`` runs none of this.
"""

from __future__ import annotations

import json
import os
import platform
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from packaging.utils import canonicalize_name

from verl_cookbook.findings import Finding
from verl_cookbook.install_manifest import MANIFEST, NEEDS, Run, Skip, load_manifest, manifest_finding
from verl_cookbook.processes import Overdue
from verl_cookbook.processes import run as run_program
from verl_cookbook.rules.stack import INSTALL_COMMAND_FAILED, INSTALL_EXPECTATION

# How long each program of a run may take before it is stopped and reported (a wheel of a gigabyte downloads in
# minutes; a snippet installs from the local wheelhouse).
DOWNLOAD_S = 1200.0  # one `pip download`
VENV_S = 120.0  # the sandbox's virtualenv
SNIPPET_S = 900.0  # a setup command, or the snippet itself
PROBE_S = 120.0  # `pip list`, an import probe


@dataclass
class Outcome:
    run: Run
    findings: list[Finding] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # "snippet:line: command — needs …: reason"
    stdout: str = ""


# -- the wheelhouse -------------------------------------------------------------------------------------------

_PLATFORM = re.compile(r"@(\S+)$")


def fetch_wheels(specs: list[str], wheelhouse: Path, deps: bool = False) -> list[str]:
    """``pip download`` each ``name==version[@platform]`` into the wheelhouse (once: pip skips files already there),
    with its dependencies when ``deps``; returns pip's complaints, one per spec it could not fetch."""
    errors = []
    py = f"{sys.version_info.major}{sys.version_info.minor}"
    for spec in specs:
        m = _PLATFORM.search(spec)
        req = spec[: m.start()] if m else spec
        cmd = [sys.executable, "-m", "pip", "download", "-q", "--only-binary=:all:", "-d", str(wheelhouse)]
        cmd += [] if deps else ["--no-deps"]
        if m:  # wheels for this Python and machine at that manylinux level or below, whatever this host's glibc is
            tag = m.group(1).replace("{arch}", platform.machine())
            level = re.fullmatch(r"manylinux_(\d+)_(\d+)_(\w+)", tag)
            from verl_cookbook import resolver  # only a run needs it (packaging.requirements is slow to import)

            tags = resolver.platforms((int(level[1]), int(level[2])), level[3]) if level else [tag]
            cmd += [a for t in tags for a in ("--platform", t)]
            cmd += ["--python-version", py, "--implementation", "cp", "--abi", f"cp{py}"]
        try:
            done = run_program([*cmd, req], timeout=DOWNLOAD_S, what=f"pip download {req}")
        except Overdue as e:
            errors.append(f"{spec}: {e}")
            continue
        if done.returncode:
            errors.append(f"{spec}: {done.stderr.strip().splitlines()[-1] if done.stderr.strip() else 'failed'}")
    return errors


# -- the sandbox ----------------------------------------------------------------------------------------------

_FAKE_GLIBC = """import os

_real_confstr = os.confstr


def _confstr(name):
    if name in ("CS_GNU_LIBC_VERSION", os.confstr_names.get("CS_GNU_LIBC_VERSION")):
        return "glibc {version}"
    return _real_confstr(name)


os.confstr = _confstr
"""


def _pip_only_dir(base: Path) -> Path:
    """A folder holding only this Python's pip (and its dist-info), for the sandbox's ``.pth``: a venv without
    ensurepip starts in half a second instead of twenty on a loaded machine, and still runs ``python -m pip``."""
    import pip

    src = Path(pip.__file__).resolve().parent
    out = base / "pip-only"
    if not out.exists():
        out.mkdir(parents=True)
        (out / "pip").symlink_to(src)
        for info in src.parent.glob("pip-*.dist-info"):
            (out / info.name).symlink_to(info)
    return out


@contextmanager
def sandbox(run: Run, wheelhouse: Path) -> Iterator[tuple[Path, dict[str, str]]]:
    with tempfile.TemporaryDirectory(prefix="verl-cookbook-install-") as tmp:
        base = Path(tmp)
        venv = base / "venv"
        made = run_program([sys.executable, "-m", "venv", "--without-pip", str(venv)], timeout=VENV_S, what="venv")
        if made.returncode:
            raise SandboxError(f"`python -m venv` failed: {_last_line(made)}")
        site = next(venv.glob("lib/python*/site-packages"))
        (site / "_verl_cookbook_pip.pth").write_text(str(_pip_only_dir(base)) + "\n", encoding="utf-8")
        if run.glibc:
            (site / "_verl_cookbook_fake_glibc.py").write_text(_FAKE_GLIBC.format(version=run.glibc), "utf-8")
            (site / "_verl_cookbook_fake_glibc.pth").write_text("import _verl_cookbook_fake_glibc\n", "utf-8")
        pip_sh = venv / "bin" / "pip"
        pip_sh.write_text('#!/bin/sh\nexec "$VIRTUAL_ENV/bin/python" -m pip "$@"\n', encoding="utf-8")
        pip_sh.chmod(0o755)
        home = base / "home"
        (home / "tmp").mkdir(parents=True)
        env = {
            "PATH": f"{venv / 'bin'}:/usr/bin:/bin",
            "VIRTUAL_ENV": str(venv),
            "HOME": str(home),
            "TMPDIR": str(home / "tmp"),
            "LANG": "C.UTF-8",
            "PYTHONNOUSERSITE": "1",
            "PIP_NO_INDEX": "1",
            "PIP_FIND_LINKS": str(wheelhouse),
            "PIP_DISABLE_PIP_VERSION_CHECK": "1",
            "PIP_NO_CACHE_DIR": "1",
            "PIP_CONFIG_FILE": os.devnull,
        }
        if run.no_deps:
            env["PIP_NO_DEPS"] = "1"
        yield venv, env


def _commands(code: str) -> list[tuple[int, int, str]]:
    """(first line, last line, text) of each command line, continuation lines joined (1-based)."""
    out: list[tuple[int, int, str]] = []
    start, parts = 0, list[str]()
    for i, raw in enumerate(code.splitlines(), 1):
        if not parts:
            start = i
        parts.append(raw)
        if not raw.rstrip().endswith("\\"):
            out.append((start, i, "\n".join(parts)))
            parts = []
    return out


def script_with_skips(code: str, skips: tuple[Skip, ...], snippet: str) -> tuple[str, list[str], list[Skip]]:
    """The snippet with each declared command replaced by a no-op; what was skipped; skips that matched nothing."""
    lines = code.splitlines()
    skipped, used = [], set()
    for first, last, text in _commands(code):
        if text.lstrip().startswith("#"):
            continue
        for s in skips:
            if s.match in text:
                used.add(s)
                lines[first - 1 : last] = [": skipped"] + [""] * (last - first)
                cmd = " ".join(t.strip().rstrip("\\") for t in text.splitlines()).split("  #")[0].strip()
                skipped.append(f"{snippet}:{first}: `{cmd}` skipped, {NEEDS[s.needs]}: {s.reason}")
                break
    return "\n".join(lines) + "\n", skipped, [s for s in skips if s not in used]


def _listed(venv: Path, env: dict[str, str]) -> dict[str, str]:
    cmd = [str(venv / "bin" / "python"), "-m", "pip", "list", "--format=json"]
    done = run_program(cmd, timeout=PROBE_S, what="`pip list` in the sandbox", env=env)
    try:
        return {canonicalize_name(d["name"]): d["version"] for d in json.loads(done.stdout or "[]")}
    except json.JSONDecodeError:
        return {}


def _missing_files(venv: Path) -> dict[str, list[str]]:
    """Per distribution installed in the sandbox, the RECORD paths no longer on disk."""
    site = next(venv.glob("lib/python*/site-packages"))
    out: dict[str, list[str]] = {}
    for info in site.glob("*.dist-info"):
        record = info / "RECORD"
        if not record.is_file():
            continue
        name = info.name.removesuffix(".dist-info").rsplit("-", 1)[0]
        gone = []
        for row in record.read_text(encoding="utf-8").splitlines():
            rel = row.split(",")[0]
            if rel and not rel.startswith("..") and "__pycache__" not in rel and not (site / rel).exists():
                gone.append(rel)
        if gone:
            out[canonicalize_name(name)] = sorted(gone)
    return out


def run_one(run: Run, root: Path, wheelhouse: Path) -> Outcome:
    out = Outcome(run)
    snippet = run.snippet
    code = (root / snippet).read_text(encoding="utf-8")
    script, out.skipped, unused = script_with_skips(code, run.skip, snippet)
    for s in unused:
        out.findings.append(manifest_finding(MANIFEST, run.line, "unused-skip", match=s.match, snippet=snippet))
    if run.no_deps:
        out.skipped.append(f"{snippet}: dependencies not installed (pip --no-deps): {run.no_deps}")
    try:
        _run_in_sandbox(run, wheelhouse, script, out)
    except Overdue as e:  # the run stops there: what it would check afterwards is not there to check
        out.findings.append(INSTALL_COMMAND_FAILED.at(snippet, 1, 1, case="overdue", error=str(e)))
    except SandboxError as e:
        out.findings.append(manifest_finding(MANIFEST, run.line, "sandbox", error=str(e)))
    return out


class SandboxError(Exception):
    """The throwaway virtualenv could not be made (not the snippet's fault)."""


def _last_line(done: subprocess.CompletedProcess[str]) -> str:
    return ((done.stderr or done.stdout).strip().splitlines()[-1:] or ["(no output)"])[0]


def _run_in_sandbox(run: Run, wheelhouse: Path, script: str, out: Outcome) -> None:
    """The run's setup commands, its snippet and its expectations, in a sandbox; findings go to ``out``."""
    snippet = run.snippet
    with sandbox(run, wheelhouse) as (venv, env):
        for cmd in run.setup:
            done = run_program(["bash", "-c", cmd], timeout=SNIPPET_S, what=f"setup `{cmd}`", env=env, cwd=env["HOME"])
            if done.returncode:
                setup = {"command": cmd, "error": _last_line(done), "start": run.start}
                out.findings.append(manifest_finding(MANIFEST, run.line, "setup", **setup))
                return
        path = Path(env["HOME"]) / "snippet.sh"
        path.write_text(script, encoding="utf-8")
        done = run_program(
            ["bash", "-e", str(path)], timeout=SNIPPET_S, what=f"the snippet {snippet}", env=env, cwd=env["HOME"]
        )
        out.stdout = done.stdout
        if done.returncode:
            err = [ln for ln in done.stderr.strip().splitlines() if ln.strip()]
            said = err[-1] if err else f"exit status {done.returncode}"
            out.findings.append(INSTALL_COMMAND_FAILED.at(snippet, 1, 1, error=said, start=run.start))
        listed = _listed(venv, env)
        gone = _missing_files(venv)
        site = next(venv.glob("lib/python*/site-packages"))
        python = str(venv / "bin" / "python")
        for kind, value in run.expect:
            failed: dict[str, Any] | None = None  # the data of the finding, when the expectation does not hold
            if kind == "importable":
                probe = (  # a folder left behind by a half-removed package still imports, as a namespace package
                    f"import {value} as m; assert getattr(m, '__file__', None), "
                    "'only a namespace package is left, its __init__.py is gone'"
                )
                imp = run_program([python, "-c", probe], timeout=PROBE_S, what=f"`import {value}`", env=env)
                if imp.returncode:
                    last = (imp.stderr.strip().splitlines() or ["?"])[-1]
                    failed = {"case": "import", "value": value, "error": last}
            elif kind == "listed" and canonicalize_name(value) not in listed:
                failed = {"case": "listed", "value": value, "listed": sorted(listed)}
            elif kind == "unlisted" and canonicalize_name(value) in listed:
                failed = {"case": "unlisted", "value": value}
            elif kind == "intact":
                for dist, files in sorted(gone.items()):
                    if dist in listed:
                        version = str(listed[dist])
                        failed = {"case": "intact", "dist": dist, "version": version, "count": len(files)}
                        failed["files"] = files[:2]
                        break
            elif kind == "file" and not (site / value).exists():
                folder = (site / value).parent
                held = sorted(p.name for p in folder.iterdir() if p.name != "__pycache__") if folder.is_dir() else []
                case = "file" if held else "file-gone"
                failed = {"case": case, "value": value, "folder": folder.name, "held": held[:4]}
            elif kind == "stdout" and value not in done.stdout:
                failed = {"case": "stdout", "value": value, "printed": done.stdout.strip()[:160]}
            if failed:
                fact = f"{MANIFEST}:{run.line}"
                ran = {"glibc": run.glibc, "start": run.start}
                out.findings.append(INSTALL_EXPECTATION.at(snippet, 1, 1, fact=fact, **ran, **failed))


def run_all(root: Path, wheelhouse: Path | None = None, only: set[str] | None = None) -> list[Outcome]:
    """Every declared run of the site (or those of the snippets in ``only``), sharing one wheelhouse."""
    runs, bad = load_manifest(root)
    outcomes = [Outcome(Run(MANIFEST, 1), findings=bad)] if bad else []
    runs = [r for r in runs if only is None or r.snippet in only]
    with tempfile.TemporaryDirectory(prefix="verl-cookbook-wheels-") as tmp:
        house = wheelhouse or Path(tmp)
        errors = fetch_wheels(sorted({w for r in runs if not r.fetch_deps for w in r.wheels}), house)
        errors += fetch_wheels(sorted({w for r in runs if r.fetch_deps for w in r.wheels}), house, deps=True)
        if errors:
            bad_fetch = manifest_finding(MANIFEST, 1, "fetch", errors=list(errors))
            return [*outcomes, Outcome(Run(MANIFEST, 1), findings=[bad_fetch])]
        for r in runs:
            outcomes.append(run_one(r, root, house))
    return outcomes
