"""The startup stage: verl's own startup checks, run on the config Hydra composes from a command, in another process.

The checker never imports verl. This stage hands each trainer command (entry module + Hydra overrides) to
``worker.py`` running under the Python of an environment that has verl: the user's own (``doctor --startup``
finds it by asking ``python -c "import verl"`` in a subprocess), or the isolated one ``scripts/startup_env.sh``
builds for a covered release (CI, the site's tests). The worker composes the config with Hydra on that verl's
config folder and calls the entry point's ``main`` with it, stopping where Ray or training would start (see its
docstring). What verl raises on the way becomes a :class:`Failure`, tied to the override(s) that set the keys verl
was checking (:func:`attribute`), and then a finding quoting verl's message and its ``file:line``.

What the environment needs (measured on verl 0.9.1, an empty venv, importing until nothing is missing): verl
without its dependencies, hydra-core/omegaconf, torch (CPU build), ray, tensordict, transformers, codetiming,
datasets, pillow, TransferQueue, cachetools, fastapi, uvicorn, torchdata, peft (the SFT trainers) and openai (the
generation server). ``verl/__init__.py`` imports ``verl.protocol`` (torch, tensordict, ray); the v1 trainers
import TransferQueue and the rollout router (fastapi).

Not findings, notes: errors that say the environment lacks something (ImportError), that need the model or the
hardware (OSError and friends: a model path read from disk), and any failure when a key verl was checking takes
its value from something not known statically (a shell variable): then verl's verdict depends on that value.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from verl_cookbook.findings import Finding
from verl_cookbook.rules.startup import STARTUP_MISSING_VALUE, STARTUP_REJECTED

WORKER = Path(__file__).with_name("worker.py")
PYTHON_ENV = "VERL_COOKBOOK_STARTUP_PYTHON"
RULE_REJECTED = STARTUP_REJECTED
RULE_MISSING = STARTUP_MISSING_VALUE
# errors that are verl's verdict on the config; anything else (ImportError, OSError, RuntimeError from a device
# probe, ...) is about the environment, the model or the hardware, and is a note
VERDICT_ERRORS = frozenset(
    {
        "AssertionError",
        "ValueError",
        "TypeError",
        "KeyError",
        "NotImplementedError",
        "MissingMandatoryValue",
        "ValidationError",
        "ConfigKeyError",
        "ConfigAttributeError",
        "ConfigTypeError",
        "ConfigValueError",
        "ReadonlyConfigError",
    }
)


@dataclass
class Override:
    text: str  # as Hydra reads it
    line: int
    col: int = 1
    symbolic: bool = False  # its value is a shell expansion not known statically: not passed to verl

    @property
    def key(self) -> str:
        return self.text.lstrip("+~").split("=", 1)[0].split("@", 1)[0]


@dataclass
class Job:
    """One command for the stage: where it is written and what verl's entry point gets."""

    id: str
    file: str
    line: int  # the command's line (where a value that is missing is reported)
    module: str
    overrides: list[Override]
    config_name: str | None = None
    env: dict[str, str] = field(default_factory=dict)

    def request(self) -> dict:
        return {
            "id": self.id,
            "module": self.module,
            "config_name": self.config_name,
            "overrides": [o.text for o in self.overrides if not o.symbolic],
            "env": self.env,
        }


@dataclass
class Failure:
    """What verl raised for one job, as structured data (also the JSON the stage reports)."""

    type: str
    message: str
    verl_file: str | None
    verl_line: int | None
    verl_text: str
    keys: list[str]  # the config keys verl was checking, full dotted paths where known
    overrides: list[Override]  # the user's overrides that set those keys (empty: verl's default is in effect)
    verdict: bool  # True: verl's judgement of the config; False: the environment/model/hardware (a note)

    @property
    def source(self) -> str | None:
        return f"{self.verl_file}:{self.verl_line}" if self.verl_file else None


@dataclass
class Result:
    job: Job
    status: str  # pass | fail | compose-error | no-entry-point | returned | harness-error | not-run
    failure: Failure | None = None
    detail: str = ""
    trainer: str | None = None
    phase: str | None = None  # a failure: "main" (the entry point's main, validate_config) or "trainer" (after)


@dataclass
class Environment:
    python: str
    verl: str
    root: str


class StageUnavailable(Exception):
    """The stage cannot run: no Python with verl, or the worker failed. The message says why."""


def default_env_python(version: str) -> Path:
    """Where scripts/startup_env.sh puts the isolated environment: beside this Python's own environment, not in
    the checker's cache (a cache is bounded and may be cleaned; this is an installed environment of ~2 GB)."""
    return Path(sys.prefix) / "startup-env" / version / "bin" / "python"


def built_env_python(version: str) -> Path | None:
    """The Python of the isolated environment scripts/startup_env.sh built for ``version``; None until it is
    complete (the script writes ``.complete`` last)."""
    py = default_env_python(version)
    return py if py.exists() and (py.parent.parent / ".complete").exists() else None


def find_python(explicit: str | None = None, version: str | None = None) -> str:
    """A Python that imports verl, without importing it here: ``explicit`` (``--startup-python PYTHON``) alone when
    given (a Python the user names is the one asked for); otherwise ``$VERL_COOKBOOK_STARTUP_PYTHON``, then
    ``python3``/``python`` on PATH and this interpreter (the user's environment), then the isolated env for
    ``version`` built by scripts/startup_env.sh. Raises
    :class:`StageUnavailable` saying what was tried."""
    tried: list[str] = []
    candidates: list[str] = []
    if explicit:
        candidates.append(explicit)
    elif os.environ.get(PYTHON_ENV):
        candidates.append(os.environ[PYTHON_ENV])
    if not explicit:  # the user's own environment first: the verl their job will run
        for name in ("python3", "python"):
            w = shutil.which(name)
            if w:
                candidates.append(w)
        candidates.append(sys.executable)
    env_py = built_env_python(version) if version else None
    if env_py is not None and not explicit:  # a Python the user named is the one asked for: no fallback
        candidates.append(str(env_py))
    with tempfile.TemporaryDirectory(prefix="verl-cookbook-probe-") as empty:
        return _first_with_verl(list(dict.fromkeys(candidates)), empty, tried)


def _first_with_verl(candidates: list[str], cwd: str, tried: list[str]) -> str:
    """The first of ``candidates`` whose ``import verl`` would find an installed verl. The probe runs in an empty
    folder: ``python -c`` puts the working directory first on sys.path, so inside a verl clone every Python would
    seem to have verl (the clone's ``verl/`` folder) and then fail to import its dependencies."""
    for c in candidates:
        try:
            r = subprocess.run(
                [c, "-c", "import importlib.util as u, sys; sys.exit(0 if u.find_spec('verl') else 1)"],
                capture_output=True,
                timeout=60,
                cwd=cwd,
            )
        except (OSError, subprocess.TimeoutExpired) as e:
            tried.append(f"{c} ({type(e).__name__})")
            continue
        if r.returncode == 0:
            return c
        tried.append(f"{c} (no verl)")
    raise StageUnavailable(
        "no Python with verl installed: tried " + ", ".join(tried or ["nothing"]) + "; install verl there, pass "
        "--startup-python PYTHON, or build the isolated environment with scripts/startup_env.sh"
    )


def run(jobs: list[Job], python: str, timeout: float = 600.0) -> tuple[Environment, list[Result]]:
    """Run every job in one worker process under ``python``; results in the order of ``jobs``."""
    request = json.dumps({"jobs": [j.request() for j in jobs]})
    env = dict(os.environ)
    env.setdefault("TOKENIZERS_PARALLELISM", "false")
    env.setdefault("RAY_DEDUP_LOGS", "0")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    try:
        proc = subprocess.run(
            [python, str(WORKER)], input=request, capture_output=True, text=True, timeout=timeout, env=env
        )
    except subprocess.TimeoutExpired as e:
        raise StageUnavailable(f"the startup worker took longer than {timeout:.0f} s") from e
    except OSError as e:
        raise StageUnavailable(f"cannot run {python}: {e}") from e
    lines = [json.loads(x) for x in proc.stdout.splitlines() if x.startswith("{")]
    if not lines or "fatal" in lines[0] or "protocol" not in lines[0]:
        why = lines[0].get("fatal") if lines else (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise StageUnavailable(f"verl could not be imported by {python}: {why}")
    head = lines[0]
    environment = Environment(python, str(head.get("verl")), str(head.get("root")))
    by_id = {d.get("id"): d for d in lines[1:]}
    results = []
    for job in jobs:
        d = by_id.get(job.id)
        if d is None:
            tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
            results.append(Result(job, "harness-error", detail=f"the worker stopped before this command: {tail}"))
            continue
        results.append(_result(job, d))
    return environment, results


def _result(job: Job, d: dict) -> Result:
    status = d.get("status", "harness-error")
    err = d.get("error") or {}
    if status != "fail":
        return Result(
            job, status, detail=f"{err.get('type', '')}: {err.get('message', '')}".strip(": "), trainer=d.get("trainer")
        )
    keys, over = attribute(err, job.overrides)
    verdict = err.get("type") in VERDICT_ERRORS
    symbolic = {o.key for o in job.overrides if o.symbolic}
    if verdict and symbolic and _depends_on(symbolic, keys, err):
        verdict = False  # verl's verdict depends on a value the script computes at run time
    f = Failure(
        type=str(err.get("type")),
        message=str(err.get("message", "")),
        verl_file=err.get("verl_file"),
        verl_line=err.get("verl_line"),
        verl_text=str(err.get("verl_text", "")),
        keys=keys,
        overrides=over,
        verdict=verdict,
    )
    return Result(job, status, f, phase=d.get("phase"))


_QUOTED = re.compile(r"['`\"]([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)['`\"]")
_DOTTED = re.compile(r"\b([a-z_][\w]*(?:\.[a-z_][\w]*)+)\b")


def attribute(err: dict, overrides: list[Override]) -> tuple[list[str], list[Override]]:
    """The config keys a failure is about, and the user's overrides that set them.

    Keys come from what the worker saw: the ``DictConfig`` keys read by the statement that raised (or the last
    reads in its function), and for a dataclass check the fields its statement (and the ``if`` around a
    ``raise``) reads, under the section the dataclass was converted from. Keys verl names in its message (quoted
    or dotted: ``'actor.ppo_micro_batch_size'``) count too, matched as a tail of an override's key."""
    keys: list[str] = list(err.get("keys_read") or [])
    section = err.get("section")
    for name in err.get("fields_read") or []:
        keys.append(f"{section}.{name}" if section else name)
    msg = str(err.get("message", ""))
    named = set(_QUOTED.findall(msg)) | set(_DOTTED.findall(msg))
    hits: list[Override] = []
    for o in overrides:
        k = o.key
        if any(k == c or (section is None and "." in c and k.endswith("." + c)) for c in keys) or any(
            "." in t and (k == t or k.endswith("." + t)) for t in named
        ):
            hits.append(o)
            continue
        if section and any(k == f"{section}.{c.split('.')[-1]}" and c.startswith(section) for c in keys):
            hits.append(o)
    return list(dict.fromkeys(keys)), hits


def _depends_on(symbolic: set[str], keys: list[str], err: dict) -> bool:
    """Whether a key set from the shell may have decided the failure: verl read it in the function that raised
    (a check often computes with values read a few statements earlier), or it is under the dataclass whose
    check failed."""
    section = err.get("section")
    read = set(keys) | set(err.get("keys_read") or []) | set(err.get("frame_keys") or [])
    for s in symbolic:
        if any(s == k or s.startswith(k + ".") or k.startswith(s + ".") for k in read):
            return True
        if section and s.startswith(section + "."):
            return True
    return False


def findings(env: Environment, results: list[Result]) -> tuple[list[Finding], list[str]]:
    """Findings for what verl rejected, and notes for what the stage could not judge."""
    out: list[Finding] = []
    notes: list[str] = []
    for r in results:
        job = r.job
        where = f"line {job.line}"
        if r.status == "pass":
            continue
        if r.status == "fail" and r.failure and r.failure.verdict:
            f = r.failure
            said = {"verl": env.verl, "error": f.type, "verl_message": _one_line(f.message)}
            if f.overrides:
                first = f.overrides[0]
                others = [o.line for o in f.overrides[1:] if o.line != first.line]
                out.append(
                    RULE_REJECTED.at(
                        job.file,
                        first.line,
                        first.col,
                        fact=f.verl_text or None,
                        fact_source=f.source,
                        others=others,
                        **said,
                    )
                )
            else:
                keys = list(f.keys[:4])
                case = "" if keys else "no-keys"
                out.append(
                    RULE_MISSING.at(
                        job.file,
                        job.line,
                        1,
                        fact=f.verl_text or None,
                        fact_source=f.source,
                        case=case,
                        keys=keys,
                        **said,
                    )
                )
            continue
        if r.status == "fail" and r.failure:
            f = r.failure
            why = (
                "its verdict depends on a value set from the shell at run time"
                if f.type in VERDICT_ERRORS
                else "it needs what this environment lacks (the model, the hardware or a package)"
            )
            notes.append(
                f"{where}: verl {env.verl}'s startup checks stopped with {f.type}: {_one_line(f.message)}"
                f" ({f.source or 'outside verl'}); not reported as a finding: {why}"
            )
        elif r.status == "compose-error":
            notes.append(f"{where}: startup stage not run: Hydra rejected the overrides (see the config findings)")
        elif r.status == "no-entry-point":
            notes.append(
                f"{where}: startup stage not run: verl {env.verl} has no entry point `{job.module}` ({r.detail})"
            )
        elif r.status == "returned":
            notes.append(f"{where}: `{job.module}`'s main returned before training would start")
        else:
            notes.append(f"{where}: startup stage did not finish for this command: {r.detail}")
    return out, notes


def _one_line(text: str, limit: int = 400) -> str:
    t = " ".join(text.split())
    return t if len(t) <= limit else t[: limit - 1] + "…"


def to_json(env: Environment, results: list[Result]) -> list[dict[str, Any]]:
    """The stage's results as data, for tools: one entry per command."""
    out = []
    for r in results:
        d: dict[str, Any] = {"file": r.job.file, "line": r.job.line, "module": r.job.module, "status": r.status}
        if r.failure:
            f = r.failure
            d["failure"] = {
                "type": f.type,
                "message": f.message,
                "verl_source": f.source,
                "keys": f.keys,
                "override_lines": [o.line for o in f.overrides],
                "verdict": f.verdict,
            }
        d["verl"] = env.verl
        out.append(d)
    return out
