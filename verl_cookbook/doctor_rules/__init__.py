"""Rules of ``verl-cookbook doctor`` that go beyond the config checks shared with the site.

Each rule has an id, a message that says how to fix the problem, and a link to the site page that
explains it. The checks the site's own snippets go through (unknown keys, backend names, ``engine_kwargs``
keyed by the backend in effect, constructor kwargs, ``device: npu``) come from
:class:`verl_cookbook.checks.config_rules.ConfigChecker`; :func:`advice` adds the fix and the link to
their findings. Doctor-only rules live in the modules beside this one:

- ``ascend_env``: what the Ascend backends need (HCCL whitelist on Ascend 950PR/950DT, intra-node RoCE,
  no ``rebuild_group`` on the HCCL engine);
- ``delta_guards``: ``delta_sharded`` constraints read from the ``raise`` statements in verl's source.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from verl_cookbook.checks.config_rules import Assignment
from verl_cookbook.facts import Facts
from verl_cookbook.findings import Finding

# The site's address when neither $VERL_COOKBOOK_SITE_URL nor mkdocs.yml's ``site_url`` says otherwise
# (an installed package has no mkdocs.yml beside it). tests/test_doctor.py keeps it equal to mkdocs.yml.
SITE_URL = "https://verl-cookbook.github.io/verl-cookbook/"
SITE_URL_ENV = "VERL_COOKBOOK_SITE_URL"

# Site pages the rules point to (relative to the site root; the English twin is under en/).
PAGE_NCCL_HCCL = "backends/nccl-hccl/"
PAGE_MOONCAKE_KIMI = "backends/mooncake-kimi/"
PAGE_WHITELIST = "ascend/hccl-whitelist/"
PAGE_DELTA = "recipes/delta-sync/"
PAGE_DOCTOR = "tools/doctor/"


def site_url() -> str:
    """Base URL of the site: $VERL_COOKBOOK_SITE_URL, else ``site_url`` of the mkdocs.yml beside the
    package (a source checkout), else :data:`SITE_URL`. Always ends with a slash."""
    url = os.environ.get(SITE_URL_ENV) or _mkdocs_site_url() or SITE_URL
    return url if url.endswith("/") else url + "/"


def _mkdocs_site_url() -> str | None:
    mk = Path(__file__).resolve().parent.parent.parent / "mkdocs.yml"
    try:
        text = mk.read_text(encoding="utf-8")
    except OSError:
        return None
    # mkdocs.yml may carry !!python tags that yaml.safe_load refuses; site_url is a plain top-level scalar.
    m = re.search(r"^site_url:\s*['\"]?([^'\"\s#]+)", text, re.M)
    return m.group(1) if m else None


def link(page: str) -> str:
    return site_url() + page


@dataclass
class Advice:
    """What doctor adds to a finding: how to fix it, and the page that explains it."""

    fix: str | None = None
    page: str | None = None


@dataclass
class DoctorFinding:
    finding: Finding
    fix: str | None = None
    link: str | None = None


@dataclass
class Target:
    """What a rule sees: the file, the settings it makes, the environment it exports, and what was
    given or guessed about the machine."""

    file: str
    kind: str  # "shell" | "yaml"
    facts: Facts
    assignments: list[Assignment]
    config: dict  # verl's defaults with the assignments applied
    ckpt_prefix: tuple[str, ...]
    device: str | None  # "npu" | "gpu" | None
    cann: str | None
    product: str | None  # "A2" | "A3" | "950" | None
    env: dict[str, tuple[str | None, int]] = field(default_factory=dict)  # NAME -> (value, line)
    anchor_line: int = 1  # the command line (shell) or 1 (yaml): where file-level findings point

    def setting(self, *rest: str) -> object:
        node: object = self.config
        for key in (*self.ckpt_prefix, *rest):
            if not isinstance(node, dict) or key not in node:
                return None
            node = node[key]
        return node

    @property
    def backend(self) -> object:
        return self.setting("backend")

    def line_of(self, path: tuple[str, ...]) -> tuple[int, int] | None:
        """(line, col) of the user's assignment to ``path`` (or to a prefix / below it), last one wins."""
        best = None
        for a in self.assignments:
            n = min(len(a.path), len(path))
            if a.path[:n] == path[:n]:
                best = (a.line, a.col)
        return best


def advice(f: Finding, target: Target | None) -> Advice:
    """The fix and the page for a finding of the shared config rules (``target`` None: a finding about the
    script as a whole, before any command is judged)."""
    msg = f.message
    if f.rule == "shell/comment-ends-command":
        return Advice("move the comment above the command (or delete it) so that the `\\` joins the next argument")
    if f.rule == "shell/after-pipe":
        return Advice("put every override before `2>&1 | tee …`; only the log file name goes after `tee`")
    if f.rule == "shell/orphan-overrides":
        return Advice("end the line before with `\\` so that these lines continue the command")
    if f.rule == "command/missing-dash-m":
        return Advice("add `-m` before the module name")
    if f.rule == "command/unknown-entry-point":
        return Advice("run an entry point this verl release has (named in the message)")
    if target is None:
        return Advice()
    backend = target.backend
    if f.rule == "engine/unknown-backend":
        if msg.startswith("engine_kwargs key"):
            return Advice(
                f"key the kwargs by the backend in effect: `engine_kwargs.{backend}.<name>=…` "
                "(on Ascend the HCCL engine's name is `nccl`)",
                PAGE_NCCL_HCCL,
            )
        if "`hccl`" in msg:
            return Advice(
                "set `actor_rollout_ref.rollout.checkpoint_engine.backend=nccl`: on Ascend the name `nccl` "
                "loads the HCCL engine, and its kwargs go under `engine_kwargs.nccl`",
                PAGE_NCCL_HCCL,
            )
        return Advice("use one of the registered backend names listed above (`verl:`)", PAGE_NCCL_HCCL)
    if f.rule == "engine/kwargs-ignored" and "once the backend is corrected" in msg:
        return Advice("rename the key as the message says when you correct the backend", PAGE_NCCL_HCCL)
    if f.rule == "engine/kwargs-ignored":
        return Advice(
            f"move these kwargs under `engine_kwargs.{backend}` (the backend in effect), or drop them",
            _backend_page(backend),
        )
    if f.rule == "engine/unknown-kwarg":
        return Advice(
            "remove the argument: the engine's constructor does not take it on this device", _backend_page(backend)
        )
    if f.rule == "engine/injected-kwarg":
        return Advice("remove it from engine_kwargs: verl passes it itself", _backend_page(backend))
    if f.rule == "engine/wrong-type":
        return Advice("give the type the constructor's default has", _backend_page(backend))
    if f.rule == "engine/npu-device":
        return Advice(
            f"add `actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.{backend}.device=npu`",
            PAGE_MOONCAKE_KIMI,
        )
    if f.rule == "engine/not-on-device":
        if backend == "delta_sharded" or "delta_sharded" in msg:
            return Advice(
                "on Ascend use `backend=nccl` (HCCL); delta_sharded is CUDA/NCCL-only in this verl release",
                PAGE_DELTA,
            )
        return Advice("pick a backend registered on this device", PAGE_NCCL_HCCL)
    if f.rule == "delta/rejected":
        return Advice("change the setting named in the message, or use another backend (e.g. nccl)", PAGE_DELTA)
    if f.rule == "config/unknown-key":
        if "did you mean" in msg:
            return Advice("fix the key as suggested, or drop it; Hydra rejects unknown keys")
        return Advice("fix the key or drop it (or add it with `+` if it is yours); Hydra rejects unknown keys")
    if f.rule.startswith("override/"):
        return Advice(None, None)
    return Advice()


def _backend_page(backend: object) -> str:
    if backend in ("mooncake", "kimi_ckpt_engine"):
        return PAGE_MOONCAKE_KIMI
    if backend == "delta_sharded":
        return PAGE_DELTA
    return PAGE_NCCL_HCCL
