"""Every rule the checker and ``doctor`` report, each declared once (like ruff's rules).

A :class:`Rule` is the code a finding prints (``config/unknown-key``) together with its declaration: a short
summary in English and 中文, what it catches, why it matters, the default severity, the fix (a template filled
from the finding's structured data and, in ``doctor``, the backend in effect), the site page that explains it,
and an example of bad input that fires it beside a correct one that does not. The checks, ``doctor``, the
``--select/--ignore`` options, suppression comments and the generated rules page (docs/tools/rules.md) all read
these declarations; ``tests/test_rules.py`` proves that every code the package uses is declared, that every
declared rule is used, and that each example does what it says.

A rule is a ``str`` (its code), so ``finding.rule == "config/unknown-key"`` and JSON output keep working.
Families whose codes come from another tool (ShellCheck's ``SC2086``, jsonschema's validator names) are declared
once with ``family=True``; :func:`lookup` gives each concrete code the family's declaration.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class Example:
    """An input that shows a rule: ``kind`` says how it is checked.

    ``sh``/``yaml``: a launch script or config given to ``doctor`` (with ``args``, e.g. ``--device npu``);
    ``md``: a Markdown page given to ``check`` (``files`` adds files beside it, e.g. its English twin).
    """

    kind: str
    text: str
    args: tuple[str, ...] = ()
    files: Mapping[str, str] = field(default_factory=dict)


class Rule(str):
    """A rule's code, carrying its declaration (see the module's docstring)."""

    family: bool
    summary: str
    summary_zh: str
    catches: str
    why: str
    severity: str
    fix: str | Mapping[str, str] | None
    page: str | Mapping[str, str] | None
    bad: Example | None
    good: Example | None
    parent: Rule | None

    def __new__(cls, code: str, **declaration: Any) -> Rule:
        obj = super().__new__(cls, code)
        obj.__dict__.update(declaration)
        return obj

    def __reduce__(self) -> tuple:  # pickled and copied as its code: the registry holds the declaration
        return (lookup, (str(self),))

    @property
    def code(self) -> str:
        return str(self)

    @property
    def declared(self) -> Rule:
        """The declaration this code belongs to (the family's, for a code such as ``shellcheck/SC2086``)."""
        return self.parent or self

    def fix_text(self, data: Mapping[str, Any]) -> str | None:
        """The fix, filled from a finding's data (and context such as ``backend``); ``data["case"]`` picks one of
        several fixes when the rule declares a mapping."""
        fix = self.declared.fix
        if isinstance(fix, Mapping):
            fix = fix.get(str(data.get("case") or ""), fix.get(""))
        return fix.format_map(_Defaulting(data)) if fix else None

    def page_for(self, data: Mapping[str, Any]) -> str | None:
        """The site page that explains the rule; a mapping picks it by ``data["case"]``, else by ``data["backend"]``
        (the backend in effect)."""
        page = self.declared.page
        if isinstance(page, Mapping):
            for key in (data.get("case"), data.get("backend")):
                if key not in (None, "") and str(key) in page:
                    return page[str(key)]
            return page.get("")
        return page


class _Defaulting(dict):
    def __init__(self, data: Mapping[str, Any]) -> None:
        super().__init__(data)

    def __missing__(self, key: str) -> str:
        return "<" + key + ">"


class UndeclaredRule(KeyError):
    """A code no rule declares: a bug in the checker, caught by the tests."""


_RULES: dict[str, Rule] = {}
_FAMILIES: dict[str, Rule] = {}


def declare(
    code: str,
    summary: str,
    summary_zh: str,
    catches: str,
    why: str,
    *,
    severity: str = ERROR,
    fix: str | Mapping[str, str] | None = None,
    page: str | Mapping[str, str] | None = None,
    bad: Example | None = None,
    good: Example | None = None,
    family: bool = False,
) -> Rule:
    """Declare one rule (once: a second declaration of the same code is a bug)."""
    if code in _RULES or code in _FAMILIES:
        raise ValueError(f"rule {code} declared twice")
    if severity not in (ERROR, WARNING):
        raise ValueError(f"rule {code}: severity {severity!r}")
    rule = Rule(
        code,
        family=family,
        summary=summary,
        summary_zh=summary_zh,
        catches=catches,
        why=why,
        severity=severity,
        fix=fix,
        page=page,
        bad=bad,
        good=good,
        parent=None,
    )
    (_FAMILIES if family else _RULES)[code] = rule
    return rule


def lookup(code: str) -> Rule:
    """The declared rule for ``code``; a code of a declared family gets the family's declaration."""
    if isinstance(code, Rule):
        return code
    rule = _RULES.get(code)
    if rule is not None:
        return rule
    for prefix, fam in _FAMILIES.items():
        if code.startswith(prefix) and len(code) > len(prefix):
            member = Rule(code, **{**fam.__dict__, "family": False, "parent": fam})
            _RULES[code] = member  # the same object for the same code from now on
            return member
    raise UndeclaredRule(code)


def declarations() -> list[Rule]:
    """Every declared rule and family, ordered by code."""
    return sorted([r for r in _RULES.values() if r.parent is None] + list(_FAMILIES.values()))


def matches(code: str, patterns: Sequence[str]) -> bool:
    """Whether ``code`` is selected by one of ``patterns``: ``ALL``, a whole code or a prefix of codes (``config``,
    ``config/``, ``engine/unknown-``, ``shellcheck/SC2``), as ruff's ``--select`` takes a prefix."""
    return any(p == "ALL" or code.startswith(p) for p in patterns if p)


def known_pattern(pattern: str) -> bool:
    """Whether a ``--select/--ignore`` pattern names at least one declared rule (a typo is a usage error)."""
    return pattern == "ALL" or any(r.code.startswith(pattern) or pattern.startswith(r.code) for r in declarations())


# Site pages the rules point to (relative to the site root; the English twin is under en/).
PAGE_NCCL_HCCL = "backends/nccl-hccl/"
PAGE_MOONCAKE_KIMI = "backends/mooncake-kimi/"
PAGE_WHITELIST = "ascend/hccl-whitelist/"
PAGE_DELTA = "recipes/delta-sync/"
PAGE_DOCTOR = "tools/doctor/"
# The page that explains an engine rule depends on the backend in effect.
PAGE_BY_BACKEND = {
    "mooncake": PAGE_MOONCAKE_KIMI,
    "kimi_ckpt_engine": PAGE_MOONCAKE_KIMI,
    "delta_sharded": PAGE_DELTA,
    "": PAGE_NCCL_HCCL,
}


# The declarations, one module per family of rules.
from verl_cookbook.rules import config as _config  # noqa: E402,F401
from verl_cookbook.rules import pages as _pages  # noqa: E402,F401
from verl_cookbook.rules import scripts as _scripts  # noqa: E402,F401
from verl_cookbook.rules import stack as _stack  # noqa: E402,F401
from verl_cookbook.rules import startup as _startup  # noqa: E402,F401
from verl_cookbook.rules import upgrade as _upgrade  # noqa: E402,F401
