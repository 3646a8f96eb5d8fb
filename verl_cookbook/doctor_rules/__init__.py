"""Rules of ``verl-cookbook doctor`` that go beyond the config checks shared with the site.

Each rule has an id, a message that says how to fix the problem, and a link to the site page that
explains it. The checks the site's own snippets go through (unknown keys, backend names, ``engine_kwargs``
keyed by the backend in effect, constructor kwargs, ``device: npu``) come from
:class:`verl_cookbook.checks.config.checker.ConfigChecker`; :func:`with_fix` adds the fix and the link to
their findings. Doctor-only rules live in the modules beside this one:

- ``ascend_env``: what the Ascend backends need (HCCL whitelist on Ascend 950PR/950DT, intra-node RoCE,
  no ``rebuild_group`` on the HCCL engine);
- ``delta_guards``: ``delta_sharded`` constraints read from the ``raise`` statements in verl's source.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from verl_cookbook.checks.config.model import Assignment
from verl_cookbook.facts import Facts
from verl_cookbook.findings import Finding
from verl_cookbook.rules import (  # noqa: F401 - the pages the rules point to, as doctor's rules name them
    PAGE_DELTA,
    PAGE_DOCTOR,
    PAGE_MOONCAKE_KIMI,
    PAGE_NCCL_HCCL,
    PAGE_WHITELIST,
)
from verl_cookbook.rules.config import COMMAND_MISSING_DASH_M, COMMAND_UNKNOWN_ENTRY_POINT
from verl_cookbook.rules.scripts import SHELL_AFTER_PIPE, SHELL_COMMENT_ENDS_COMMAND, SHELL_ORPHAN_OVERRIDES
from verl_cookbook.rules.upgrade import UPGRADE_ENTRY_POINT_MOVED

# The site's address when neither $VERL_COOKBOOK_SITE_URL nor mkdocs.yml's ``site_url`` says otherwise
# (an installed package has no mkdocs.yml beside it). tests/test_doctor.py keeps it equal to mkdocs.yml.
SITE_URL = "https://verl-cookbook.github.io/verl-cookbook/"
SITE_URL_ENV = "VERL_COOKBOOK_SITE_URL"


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


# the published site is versioned with mike (scripts/deploy_docs.sh): each release under its own folder, `latest`
# an alias of the newest, the English pages under en/ inside it; a page's address without them is a 404
PUBLISHED_ALIAS = "latest/"


def link(page: str) -> str:
    """The page's address on the published site (its `latest` version, 中文), or under $VERL_COOKBOOK_SITE_URL as
    given (a local `mkdocs serve`, which has no version folders)."""
    if os.environ.get(SITE_URL_ENV):
        return site_url() + page
    return site_url() + PUBLISHED_ALIAS + page


def in_language(url: str | None, lang: str) -> str | None:
    """``url`` (from :func:`link`) for a reader of ``lang``: the English twin lives under en/."""
    if url is None or lang != "en":
        return url
    base = site_url() + ("" if os.environ.get(SITE_URL_ENV) else PUBLISHED_ALIAS)
    return base + "en/" + url[len(base) :] if url.startswith(base) else url


@dataclass
class DoctorFinding:
    """A finding with doctor's advice: the fix (rendered in either language from the rule's declaration and
    ``context``, the finding's data with the backend in effect) and the link to the page that explains it."""

    finding: Finding
    link: str | None = None
    context: Mapping[str, Any] | None = None

    def fix_text(self, lang: str = "en") -> str | None:
        return self.finding.rule.fix_text(self.context, lang) if self.context is not None else None

    @property
    def fix(self) -> str | None:
        return self.fix_text("en")


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


# Rules whose fix holds for the script as a whole, before any command is judged (``with_fix`` with no target).
_SCRIPT_LEVEL = (
    SHELL_COMMENT_ENDS_COMMAND,
    SHELL_AFTER_PIPE,
    SHELL_ORPHAN_OVERRIDES,
    COMMAND_MISSING_DASH_M,
    COMMAND_UNKNOWN_ENTRY_POINT,
    UPGRADE_ENTRY_POINT_MOVED,
)


def with_fix(f: Finding, target: Target | None) -> DoctorFinding:
    """``f`` with the fix and the page its rule declares, rendered with the finding's data and the backend in effect
    (``target`` None: a finding about the script as a whole, before any command is judged: only the fix of a rule
    that holds for the whole script, no page)."""
    if target is None:
        return DoctorFinding(f, None, f.data if f.rule in _SCRIPT_LEVEL else None)
    context = {**f.data, "backend": target.backend}
    page = f.rule.page_for(context)
    return DoctorFinding(f, link(page) if page else None, context)
