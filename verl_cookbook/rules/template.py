"""A rule's message: one template in English and one in 中文 per case, rendered from a finding's data.

A template is Python's ``str.format`` syntax with named fields only (``"unknown key `{key}`"``). A rule with several
wordings declares a mapping from a case to its template (``{"": …, "suggested": …}``); a finding picks one with
``data["case"]`` (the same key picks the rule's fix and page). Both languages of a case name the same fields: what
the finding must carry is checked when the rule is declared, not when the message is printed.

Beyond ``!r`` and ``!s``, two conversions render a list in the message's own language: ``{names!l}`` joins the items
(``a, b`` / ``a、b``) and ``{names!c}`` shows each as a code span (```a`, `b``` / ```a`、`b```). A part written
``[[…]]`` is optional: it is shown only when every field in it has a value (not None, empty or missing), so
``"unknown key `{key}`[[; did you mean `{suggestion}`?]]"`` needs no second case for a finding without a suggestion.
A rule that lists several problems in one finding declares the wording of each kind of problem as its *parts*, and
``{problems!p}`` renders a list of ``{"case": kind, …}`` items with them, joined (``; `` / ``；``).
Data holds values (strings, numbers, lists), never text written for one language.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

_SEPARATOR = {"en": ", ", "zh": "、"}
_PART_SEPARATOR = {"en": "; ", "zh": "；"}
_CONVERSIONS = {None, "r", "s", "l", "c", "p"}
_OPTIONAL = re.compile(r"\[\[(.*?)\]\]", re.S)


class TemplateError(ValueError):
    """A template that cannot be a message (a positional field, an unknown conversion, the two languages of a case
    asking for different data): raised when the rule is declared."""


def required_fields(template: str) -> frozenset[str]:
    """The fields a finding must carry: those outside the template's optional ``[[…]]`` parts."""
    return fields_of(_OPTIONAL.sub("", template))


def fields_of(template: str) -> frozenset[str]:
    """The names a template's fields read (``{key}``, ``{key!r}``, ``{choices!c}``), checked for what
    :func:`render` can fill: named fields only, no attribute or index lookups, known conversions."""
    if "[[" in _OPTIONAL.sub("", template) or "]]" in _OPTIONAL.sub("", template):
        raise TemplateError(f"{template!r}: an optional part is written [[…]], once open, once closed")
    names = set()
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as e:
        raise TemplateError(f"{template!r}: {e}") from None
    for _text, name, spec, conversion in parsed:
        if name is None:
            continue
        if not name.isidentifier():
            raise TemplateError(f"{template!r}: field {{{name}}} must be a name (no position, attribute or index)")
        if conversion not in _CONVERSIONS:
            raise TemplateError(f"{template!r}: field {{{name}!{conversion}}}: conversions are !r !s !l !c !p")
        if spec and "{" in spec:
            raise TemplateError(f"{template!r}: field {{{name}}} has a nested field in its format spec")
        names.add(name)
    return frozenset(names)


class _Formatter(string.Formatter):
    def __init__(self, lang: str, parts: Mapping[str, str] | None = None) -> None:
        self.lang = lang
        self.parts = parts or {}

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion == "p":
            shown = [_fill(self.parts[str(x["case"])], x, self.lang) for x in value]
            return _PART_SEPARATOR[self.lang].join(shown)
        if conversion in ("l", "c"):
            items = [value] if isinstance(value, str) or not isinstance(value, Iterable) else list(value)
            shown = [f"`{x}`" if conversion == "c" else str(x) for x in items]
            return _SEPARATOR[self.lang].join(shown)
        return super().convert_field(value, conversion)


@dataclass(frozen=True)
class Message:
    """A rule's message: per case (``""`` when there is one wording), its English and its 中文 template."""

    en: Mapping[str, str]
    zh: Mapping[str, str]
    parts: Message | None = None  # the wording of each kind of problem a ``!p`` field lists

    @classmethod
    def declare(
        cls,
        code: str,
        en: str | Mapping[str, str],
        zh: str | Mapping[str, str],
        parts: tuple[Mapping[str, str], Mapping[str, str]] | None = None,
    ) -> Message:
        """The message of rule ``code``, checked: the same cases in both languages, each case's two templates
        asking for the same fields; ``parts``: the English and 中文 wording of each kind of listed problem."""
        en_cases = {"": en} if isinstance(en, str) else dict(en)
        zh_cases = {"": zh} if isinstance(zh, str) else dict(zh)
        if set(en_cases) != set(zh_cases):
            raise TemplateError(f"rule {code}: cases {sorted(en_cases)} in English, {sorted(zh_cases)} in 中文")
        for case in en_cases:
            a, b = fields_of(en_cases[case]), fields_of(zh_cases[case])
            if a != b:
                raise TemplateError(f"rule {code}, case {case!r}: fields {sorted(a)} in English, {sorted(b)} in 中文")
        listed = cls.declare(code, parts[0], parts[1]) if parts else None
        uses_parts = any("!p}" in t for t in en_cases.values())
        if uses_parts != (listed is not None):
            raise TemplateError(f"rule {code}: a `!p` field and declared parts go together")
        return cls(en_cases, zh_cases, listed)

    def check_parts(self, items: Any) -> None:
        """Raise TypeError unless ``items`` is a list of problems this message's parts can render."""
        if self.parts is None or not isinstance(items, list):
            raise TypeError("a `!p` field takes a list of {'case': …} problems")
        for x in items:
            case = x.get("case") if isinstance(x, Mapping) else None
            if case not in self.parts.en:
                raise TypeError(f"no part {case!r} (declared: {', '.join(map(repr, self.parts.en))})")
            missing = self.parts.required(str(case)) - x.keys()
            if missing:
                raise TypeError(f"part {case!r}: missing data {', '.join(sorted(missing))}")

    def listed_fields(self) -> frozenset[str]:
        """The fields rendered with ``!p``."""
        return frozenset(
            name
            for t in self.en.values()
            for _text, name, _spec, conv in string.Formatter().parse(t)
            if name and conv == "p"
        )

    @property
    def cases(self) -> tuple[str, ...]:
        return tuple(self.en)

    def fields(self, case: str) -> frozenset[str]:
        """The fields the template of ``case`` reads (the same in both languages)."""
        return fields_of(self.en[case])

    def required(self, case: str) -> frozenset[str]:
        """The fields a finding of ``case`` must carry (those outside optional parts, in both languages)."""
        return required_fields(self.en[case]) | required_fields(self.zh[case])

    def all_fields(self) -> frozenset[str]:
        return frozenset().union(*(self.fields(c) for c in self.en))

    def render(self, data: Mapping[str, Any], lang: str = "en") -> str:
        """The message in ``lang`` (``en`` or ``zh``) for a finding carrying ``data``."""
        templates = self.zh if lang == "zh" else self.en
        case = str(data.get("case") or "")
        template = templates[case if case in templates else ""]
        parts = (self.parts.zh if lang == "zh" else self.parts.en) if self.parts else None
        return _fill(template, data, lang, parts)


def _fill(template: str, data: Mapping[str, Any], lang: str, parts: Mapping[str, str] | None = None) -> str:
    """``template`` filled from ``data`` in ``lang``: an optional ``[[…]]`` part kept only when its fields have
    values."""

    def optional(m: re.Match[str]) -> str:
        given = all(data.get(name) not in (None, "", [], ()) for name in fields_of(m.group(1)))
        return m.group(1) if given else ""

    return _Formatter(lang, parts).vformat(_OPTIONAL.sub(optional, template), (), data)
