"""Findings: what a check reports, the three output formats (text, json, github) in English or 中文, and the one
place where ``--select/--ignore`` and suppression comments are applied to a run's findings.

A rule's severity decides how a finding is shown (GitHub's ``::notice``, ``::warning`` or ``::error``, ``(info)`` or
``(warning)`` after the code in text), not whether it counts: as with ShellCheck and ruff, every error or warning that
is reported sets exit code 1, and a rule one does not want to fail on is left out with ``--ignore`` (or a suppression
comment). An ``info`` finding (ShellCheck's ``info`` level: a note, such as a block tagged with the wrong language) is
shown but does not set exit code 1 on its own."""

from __future__ import annotations

import functools
import json
import os
import re
import stat
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from verl_cookbook.folding import caused_by, fold, under_text
from verl_cookbook.interface import plural
from verl_cookbook.rules import INFO, WARNING, Finding, matches


def source_label(fact_source: str | None) -> str:
    """Whose fact it is, from where it was read: ``verl`` for ``verl/...`` paths, the repository's name for a
    GitHub address or an ``owner/repo path`` reference (``hccl`` for HCCL's docs), else ``source``; several
    sources joined by ``;`` give each their label."""
    labels: list[str] = []
    for part in (fact_source or "verl/").split(";"):
        part = part.strip()
        m = re.search(r"github\.com/[\w.-]+/([\w.-]+)", part) or re.match(r"[\w.-]+/([\w.-]+)\s", part)
        label = "verl" if part.startswith("verl/") else (m.group(1) if m else "source")
        if label not in labels:
            labels.append(label)
    return ", ".join(labels)


def default_lang(environ: Mapping[str, str] | None = None) -> str:
    """The language of the messages when ``--lang`` is not given: ``zh`` when the locale's messages are Chinese
    (the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set, as POSIX orders them, starts with ``zh``),
    else ``en``."""
    env = os.environ if environ is None else environ
    locale = next((env[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(k)), "")
    return "zh" if locale.lower().startswith("zh") else "en"


# Lines a formatter adds under a finding (doctor's fix and link): (label, text) pairs, one list per finding.
Extra = Sequence[tuple[str, str | None]]


def is_warning(f: Finding) -> bool:
    return f.rule.declared.severity == WARNING


def is_info(f: Finding) -> bool:
    return f.rule.declared.severity == INFO


def github_level(f: Finding) -> str:
    """The GitHub annotation a finding becomes: ``notice`` (info), ``warning`` or ``error``."""
    return "notice" if is_info(f) else "warning" if is_warning(f) else "error"


def fails(findings: Iterable[Finding]) -> bool:
    """Whether ``findings`` set exit code 1: any of them but an info note."""
    return any(not is_info(f) for f in findings)


def format_text(findings: Sequence[Finding], extra: Sequence[Extra] | None = None, lang: str = "en") -> str:
    """One finding a few lines: where, rule and message; what verl has; what is folded under it
    (:mod:`verl_cookbook.folding`: a finding another one explains is counted under that one, not printed); and the
    ``extra`` lines (doctor's fix and link), ``extra[i]`` for ``findings[i]``."""
    folding = fold(findings)
    lines = []
    for i in folding.shown:
        f = findings[i]
        level = " (warning)" if is_warning(f) else " (info)" if is_info(f) else ""
        lines.append(f"{f.path}:{f.line}:{f.col}: {f.rule}{level} {f.text(lang)}")
        if f.fact or f.fact_source:
            detail = f.fact or ""
            if f.fact_source:
                detail = f"{detail} ({f.fact_source})" if detail else f"({f.fact_source})"
            lines.append(f"    {source_label(f.fact_source)}: {detail}")
        under = under_text(folding.under(i), lang)
        if under:
            lines.append(f"    {under}")
        colon = "：" if lang == "zh" else ": "  # a 中文 label takes the full-width colon
        for label, text in extra[i] if extra else ():
            if text:
                lines.append(f"    {label}{colon}{text}")
    return "\n".join(lines)


def _gh_escape(value: str, prop: bool = False) -> str:
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        value = value.replace(":", "%3A").replace(",", "%2C")
    return value


def format_github(findings: Sequence[Finding], extra: Sequence[Extra] | None = None, lang: str = "en") -> str:
    """GitHub workflow commands: ``::notice`` for an info rule, ``::warning`` for a warning, ``::error`` for the
    others; a finding another one explains is not annotated, its cause says how many are under it."""
    folding = fold(findings)
    out = []
    for i in folding.shown:
        f = findings[i]
        msg = f.text(lang)
        if f.fact or f.fact_source:
            where = f" ({f.fact_source})" if f.fact_source else ""
            msg += f" — {source_label(f.fact_source)}: {f.fact or ''}{where}"
        under = under_text(folding.under(i), lang)
        if under:
            msg += f"\n{under}"
        for label, text in extra[i] if extra else ():
            if text:
                msg += f"\n{label.capitalize()}: {text}"
        out.append(
            f"::{github_level(f)} file={_gh_escape(f.path, True)},line={f.line},col={f.col},"
            f"title={_gh_escape(f.rule, True)}::{_gh_escape(msg)}"
        )
    return "\n".join(out)


def format_json(findings: Sequence[Finding], lang: str = "en") -> str:
    """Every finding, in order; one folded under another carries ``caused_by`` (its root cause's path, line, col and
    rule), the others ``null``."""
    return json.dumps(json_findings(findings, lang), ensure_ascii=False, indent=2)


def json_findings(findings: Sequence[Finding], lang: str = "en") -> list[dict]:
    """The findings as JSON-ready values (see :func:`format_json`)."""
    folding = fold(findings)
    return [{**f.as_dict(lang), "caused_by": caused_by(folding, i)} for i, f in enumerate(findings)]


def count_text(findings: Sequence[Finding]) -> str:
    """``134 findings (130 folded under 1 cause)``: the count a command's summary line gives."""
    folding = fold(findings)
    text = plural(len(findings), "finding")
    if folding.folded:
        text += f" ({folding.folded} folded under {plural(folding.roots, 'cause')})"
    return text


# -- selection and suppression ----------------------------------------------------------------------------------
SUPPRESSION = re.compile(r"(?:<!--|#)\s*verl-cookbook:\s*ignore\[([^\]]*)\]")  # in a comment only
SUPPRESSION_MARK = "verl-cookbook:"  # every suppression comment holds it
_MAX_SCAN_BYTES = 5 * 1024 * 1024


@dataclass(frozen=True)
class Suppression:
    """``verl-cookbook: ignore[code, …]`` at ``path:line``: silences those codes (or code prefixes) on its own line
    and on the next one (a comment line above what it silences: Markdown ``<!-- … -->``, shell/YAML ``# …``)."""

    path: str
    line: int
    col: int
    code: str

    def covers(self, f: Finding) -> bool:
        return f.line in (self.line, self.line + 1) and matches(f.rule, [self.code]) and _same_file(f.path, self.path)


def _resolved(path: str) -> str:
    """``path`` made absolute against the working folder as it is now (a memo keyed by the path alone would answer
    for the folder of an earlier call: the tests, the MkDocs plugin and a served site change it)."""
    return _resolved_in(path, os.getcwd())


@functools.lru_cache(maxsize=4096)
def _resolved_in(path: str, cwd: str) -> str:
    return real_path(os.path.join(cwd, path))


@functools.lru_cache(maxsize=1024)
def _real_dir(folder: str) -> str:
    return os.path.realpath(folder)


def real_path(path: str | os.PathLike[str]) -> str:
    """``os.path.realpath(path)`` (what ``Path.resolve`` gives) with each folder's answer kept for the process: a
    run names hundreds of files in a few folders, and realpath looks at every component of every path. Only the
    last component is looked at again (a symlink there is followed). A path with ``..`` goes to realpath whole:
    ``..`` after a symlink climbs from the link's target, which a lexical join would not."""
    if ".." in os.fspath(path):
        return os.path.realpath(path)
    folder, name = os.path.split(os.path.abspath(path))
    joined = os.path.join(_real_dir(folder), name)
    return os.path.realpath(joined) if os.path.islink(joined) else joined


def _shown(path: str, cwd: str) -> str:
    """``path`` as findings show it: relative to the working folder ``cwd`` (resolved) when it is under it."""
    resolved = _resolved_in(path, cwd)
    if resolved == cwd:
        return "."
    under = cwd.rstrip(os.sep) + os.sep
    return resolved[len(under) :] if resolved.startswith(under) else path


def _same_file(a: str, b: str) -> bool:
    """Whether two paths as findings show them (relative to the working folder, or absolute) name one file."""
    return a == b or _resolved(a) == _resolved(b)


def suppressions(path: str) -> list[Suppression]:
    """The suppression comments in the file ``path`` (none when it cannot be read as text)."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size > _MAX_SCAN_BYTES:
            return []
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError):
        return []
    out: list[Suppression] = []
    if SUPPRESSION_MARK not in text:  # most files have none: skip reading their fences
        return out
    lines = text.splitlines()
    marked = [i for i, line in enumerate(lines, 1) if SUPPRESSION_MARK in line]
    quoted = _quoted_lines(text) if path.lower().endswith((".md", ".markdown")) else set()
    for i in marked:
        if i in quoted:
            continue
        for m in SUPPRESSION.finditer(lines[i - 1]):
            for code in m.group(1).split(","):
                if code.strip():
                    out.append(Suppression(path, i, m.start() + 1, code.strip()))
    return out


_FENCE = re.compile(r"^\s*(`{3,}|~{3,})(.*)$")


def _quoted_lines(text: str) -> set[int]:
    """Lines of a Markdown page inside fences declared ``check="skip"``: text shown, not checked (a page that
    explains the suppression comment quotes it there), so a comment in them is no suppression."""
    quoted: set[int] = set()
    fence: str | None = None
    skip = False
    for i, line in enumerate(text.splitlines(), 1):
        m = _FENCE.match(line)
        if fence is None:
            if m:
                fence, skip = m.group(1), 'check="skip"' in m.group(2)
        elif m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not m.group(2).strip():
            fence = None
        elif skip:
            quoted.add(i)
    return quoted


def apply_rules_options(
    findings: Iterable[Finding],
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    files: Iterable[str | Path] = (),
    off: Sequence[str] = (),
) -> list[Finding]:
    """A run's findings after suppression comments and ``--select/--ignore``: the one place both are applied.

    Suppression comments are read from every file a finding names and from ``files`` (the files the run checked),
    so a comment that silences nothing is reported (``suppression/unused``), as is one naming no declared rule
    (``suppression/unknown-code``). Those two are findings like any other: selectable, ignorable, suppressible by
    neither (a comment cannot vouch for itself). ``select`` empty means every rule; ``ignore`` wins over it. ``off``:
    rules (codes or prefixes) this run leaves out unless ``select`` names them by a code or a prefix (not ``ALL``), as
    ``--lenient`` leaves out ShellCheck's quoting advice."""
    from verl_cookbook.rules import known_pattern
    from verl_cookbook.rules.pages import SUPPRESSION_UNKNOWN_CODE, SUPPRESSION_UNUSED

    found = list(findings)
    cwd = os.path.realpath(os.getcwd())
    paths = dict.fromkeys(_shown(p, cwd) for p in [*(f.path for f in found), *map(str, files)])
    marks = [s for p in paths for s in suppressions(p)]
    kept = [f for f in found if not any(s.covers(f) for s in marks)]
    for s in marks:
        if not known_pattern(s.code):
            kept.append(SUPPRESSION_UNKNOWN_CODE.at(s.path, s.line, s.col, code=s.code))
        elif not any(s.covers(f) for f in found):
            kept.append(SUPPRESSION_UNUSED.at(s.path, s.line, s.col, code=s.code))
    out = [f for f in kept if (not select or matches(f.rule, select)) and not matches(f.rule, ignore)]
    named = [p for p in select if p != "ALL"]
    out = [f for f in out if not matches(f.rule, off) or matches(f.rule, named)]
    return sorted(out, key=lambda f: f.sort_key())
