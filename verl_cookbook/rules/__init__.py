"""Every rule the checker and ``doctor`` report, each declared once (like ruff's rules).

A `Rule` is the code a finding prints (``config/unknown-key``) together with its declaration: a short
summary in English and 中文, what it catches, why it matters, the default severity, the fix (a template filled
from the finding's structured data and, in ``doctor``, the backend in effect), the site page that explains it,
and an example of bad input that fires it beside a correct one that does not. The checks, ``doctor``, the
``--select/--ignore`` options, suppression comments and the generated rules page (docs/tools/rules.md) all read
these declarations; ``tests/test_rules.py`` proves that every code the package uses is declared, that every
declared rule is used, and that each example does what it says.

A rule also owns its message: an English and a 中文 template (:mod:`.template`) naming the data a finding carries.
A finding is made by the rule, from data, never from text: ``CONFIG_UNKNOWN_KEY.at(path, line, col, key=…)``. The
rules are module-level constants of the declaring modules (``verl_cookbook.rules.config.CONFIG_UNKNOWN_KEY``), so a
misspelt rule is an import error, and a finding missing a field its template needs is refused where it is made.

A rule is a ``str`` (its code), so ``finding.rule == "config/unknown-key"`` and JSON output keep working.
Families whose codes come from another tool (ShellCheck's ``SC2086``, jsonschema's validator names) are declared
once with ``family=True``; `lookup` gives each concrete code the family's declaration, and the tool's own
message travels as data.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from verl_cookbook.rules.template import Message, TemplateError

ERROR = "error"
WARNING = "warning"
INFO = "info"  # a note that needs no change to run (a block tagged with the wrong language): no exit 1


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
    fix: Message | None  # how to fix it, in English and 中文, filled from the data and doctor's context
    page: str | Mapping[str, str] | None
    bad: Example | None
    good: Example | None
    parent: Rule | None
    message: Message  # the finding's text, in English and 中文
    folds: tuple[str, ...]  # codes (or prefixes) of the rules whose findings this rule's findings can explain
    data_names: frozenset[str]  # the data a finding may carry: its templates' fields, the fix's, and ``extra``

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

    def at(
        self,
        path: str,
        line: int,
        col: int = 1,
        /,
        *,
        fact: str | None = None,
        fact_source: str | None = None,
        **data: Any,
    ) -> Finding:
        """A finding of this rule at ``path:line:col``, carrying ``data``: every field the template of its case
        (``data["case"]``, default ``""``) reads, and nothing the rule does not declare. The message is rendered
        from the template; ``fact`` says what verl (or the source named by ``fact_source``) actually has."""
        message = self.declared.message
        case = str(data.get("case") or "")
        cases = message.cases
        if case not in cases and not ("" in cases and case in self.declared.extra_cases):
            raise TypeError(f"rule {self}: no case {case!r} (declared: {', '.join(map(repr, cases))})")
        missing = message.required(case if case in cases else "") - data.keys()
        unknown = data.keys() - self.declared.data_names - {"case"}
        if missing or unknown:
            raise TypeError(
                f"rule {self}: "
                + "; ".join(
                    part
                    for part in (
                        f"missing data {', '.join(sorted(missing))}" if missing else "",
                        f"undeclared data {', '.join(sorted(unknown))}" if unknown else "",
                    )
                    if part
                )
            )
        for name in message.listed_fields() & data.keys():
            try:
                message.check_parts(data[name])
            except TypeError as e:
                raise TypeError(f"rule {self}: data {name}: {e}") from None
        required = message.required(case if case in cases else "")
        # a field given as None that the message does not need is left out: the data says what the check knew
        values = {k: _value(v, self, k) for k, v in data.items() if v is not None or k in required}
        return Finding(path, line, col, self, message.render(values), fact, fact_source, values)

    def render(self, data: Mapping[str, Any], lang: str = "en") -> str:
        """This rule's message for ``data`` in ``lang`` (``en`` or ``zh``)."""
        return self.declared.message.render(data, lang)

    def member(self, suffix: str) -> Rule:
        """The code of this family that ends in ``suffix`` (``SHELLCHECK_SC.member("2086")``: ``shellcheck/SC2086``)."""
        if not self.family:
            raise TypeError(f"rule {self} is not a family")
        return lookup(self.code + suffix)

    @property
    def extra_cases(self) -> frozenset[str]:
        """Cases the fix or the page tells apart while the message has one wording."""
        cases = set(self.fix.cases if self.fix else ()) | set(self.page if isinstance(self.page, Mapping) else ())
        return frozenset(cases)

    def fix_text(self, data: Mapping[str, Any], lang: str = "en") -> str | None:
        """The fix in ``lang``, filled from a finding's data and context such as ``backend`` (a field neither has
        shows as ``<name>``); ``data["case"]`` picks one of several fixes when the rule declares a mapping."""
        fix = self.declared.fix
        return fix.render(_Defaulting(data), lang) if fix else None

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


def _value(v: Any, rule: Rule, name: str) -> Any:
    """``v`` as a finding carries it: JSON's values only (a tuple becomes a list), so a finding read back from the
    page cache or a baseline renders the same text."""
    if v is None or isinstance(v, (str, bool, int, float)):
        return v
    if isinstance(v, (list, tuple)):
        return [_value(x, rule, name) for x in v]
    if isinstance(v, Mapping):
        return {str(k): _value(x, rule, name) for k, x in v.items()}
    raise TypeError(f"rule {rule}: data {name} is a {type(v).__name__}, not a JSON value")


class _Defaulting(dict):
    def __init__(self, data: Mapping[str, Any]) -> None:
        super().__init__(data)

    def __missing__(self, key: str) -> str:
        return "<" + key + ">"


@dataclass(frozen=True)
class Finding:
    """One disagreement between a page (or file) and verl's source, made by its rule (`Rule.at`).

    ``message`` is the rule's English template filled from ``data`` (`text` renders it in 中文); ``fact``
    says what verl actually has, ``fact_source`` where (``verl/...py:LINE``). ``data`` is what the check knew, as
    values (the key, the backend named, …): messages, fixes and advice are rendered from it, never from the text.
    """

    path: str
    line: int
    col: int
    rule: Rule
    message: str  # rendered by the rule from ``data`` (English); never written by a check
    fact: str | None = None
    fact_source: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not isinstance(self.rule, Rule):
            raise TypeError(f"a finding is made by its rule (RULE.at(path, line, col, **data)), not from {self.rule!r}")

    def text(self, lang: str = "en") -> str:
        """The message in ``lang`` (``en`` or ``zh``), rendered from the rule's template."""
        return self.message if lang == "en" else self.rule.render(self.data, lang)

    def with_data(self, **changes: Any) -> Finding:
        """This finding made again by its rule, at the same place, with ``changes`` to its data."""
        data = {**self.data, **changes}
        return self.rule.at(self.path, self.line, self.col, fact=self.fact, fact_source=self.fact_source, **data)

    def sort_key(self) -> tuple:
        return (self.path, self.line, self.col, self.rule, self.message)

    def as_dict(self, lang: str = "en") -> dict[str, Any]:
        """The finding as JSON-ready values, its message in ``lang``."""
        return {
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "rule": str(self.rule),
            "severity": self.rule.declared.severity,
            "message": self.text(lang),
            "fact": self.fact,
            "fact_source": self.fact_source,
            "data": dict(self.data),
        }


def replay(d: Mapping[str, Any]) -> Finding:
    """A finding again from its `Finding.as_dict` (English) form, e.g. out of the page cache."""
    rule = lookup(d["rule"])
    data = dict(d.get("data") or {})
    return rule.at(d["path"], d["line"], d["col"], fact=d.get("fact"), fact_source=d.get("fact_source"), **data)


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
    fix_zh: str | Mapping[str, str] | None = None,
    page: str | Mapping[str, str] | None = None,
    bad: Example | None = None,
    good: Example | None = None,
    family: bool = False,
    message: str | Mapping[str, str] | None = None,
    message_zh: str | Mapping[str, str] | None = None,
    parts: Mapping[str, str] | None = None,
    parts_zh: Mapping[str, str] | None = None,
    extra: Sequence[str] = (),
    folds: Sequence[str] = (),
) -> Rule:
    """Declare one rule (once: a second declaration of the same code is a bug).

    ``message`` and ``message_zh`` are the finding's text in English and 中文 (one template, or one per case);
    ``parts``/``parts_zh`` the wording of each kind of problem a ``{problems!p}`` field lists;
    ``extra`` names the data a finding carries beyond the templates' fields (what its fix, page or advice read).
    ``folds`` names the rules (codes or prefixes) whose findings a finding of this rule can explain: they are shown
    folded under it when they lie within the reach its data gives, ``under`` (key prefixes) and ``span`` (lines)
    (:mod:`verl_cookbook.folding`); a rule that folds may carry both among its data."""
    if code in _RULES or code in _FAMILIES:
        raise ValueError(f"rule {code} declared twice")
    if severity not in (ERROR, WARNING, INFO):
        raise ValueError(f"rule {code}: severity {severity!r}")
    if message is None or message_zh is None:
        raise TemplateError(f"rule {code}: a rule declares its message in English and in 中文")
    listed = (parts, parts_zh) if parts is not None and parts_zh is not None else None
    msg = Message.declare(code, message, message_zh, listed)
    if (fix is None) != (fix_zh is None):
        raise TemplateError(f"rule {code}: a fix needs both its English and its 中文 text")
    fixes = Message.declare(code, fix, fix_zh) if fix is not None and fix_zh is not None else None
    fix_fields = fixes.all_fields() - {"backend"} if fixes else frozenset()  # the backend is doctor's context
    names = msg.all_fields() | fix_fields | frozenset(extra)
    if folds:
        names |= {"under", "span"}
    if {"fact", "fact_source"} & names:
        raise TemplateError(f"rule {code}: `fact` and `fact_source` are a finding's own fields, not data")
    rule = Rule(
        code,
        family=family,
        summary=summary,
        summary_zh=summary_zh,
        catches=catches,
        why=why,
        severity=severity,
        fix=fixes,
        page=page,
        bad=bad,
        good=good,
        parent=None,
        message=msg,
        data_names=names,
        folds=tuple(folds),
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
from verl_cookbook.rules import ascend as _ascend  # noqa: E402,F401
from verl_cookbook.rules import claims as _claims  # noqa: E402,F401
from verl_cookbook.rules import config as _config  # noqa: E402,F401
from verl_cookbook.rules import coverage as _coverage  # noqa: E402,F401
from verl_cookbook.rules import engines as _engines  # noqa: E402,F401
from verl_cookbook.rules import lenient as _lenient  # noqa: E402,F401
from verl_cookbook.rules import pages as _pages  # noqa: E402,F401
from verl_cookbook.rules import scripts as _scripts  # noqa: E402,F401
from verl_cookbook.rules import stack as _stack  # noqa: E402,F401
from verl_cookbook.rules import startup as _startup  # noqa: E402,F401
from verl_cookbook.rules import upgrade as _upgrade  # noqa: E402,F401
