"""Mechanical fixes: the edit a finding's rule computes from the finding's data, for ``--diff`` and ``--fix``.

A fix exists only where the data decides it: the release's own key for a moved key (a fact), the module a moved entry
point became (a fact), Hydra's own ``+`` rules, the tag a block of output should carry, ``-m`` before a module. A
guess ("did you mean") is never applied. Each fixer reads the text of the finding's line and returns an
:class:`~verl_cookbook.edits.Edit` whose ``old`` text must still be where the finding says, or ``None`` when the line
does not read as the finding describes (then nothing is changed, and the finding is reported as not fixable).

Nothing here writes a file: :func:`plan` returns, per file, the text before and after; the command decides whether to
print the diff or write the file.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from verl_cookbook.edits import Applied, Edit, apply_edits, describe_rejected, unified_diff
from verl_cookbook.findings import fails, format_text
from verl_cookbook.hydra_overrides import OverrideError, parse_hydra
from verl_cookbook.interface import EXIT_FINDINGS, EXIT_OK
from verl_cookbook.rules import Finding, Rule
from verl_cookbook.rules.config import (
    COMMAND_MISSING_DASH_M,
    CONFIG_LEGACY_KEY,
    CONFIG_UNCONVERTED_TYPE,
    OVERRIDE_MALFORMED,
    OVERRIDE_NEEDS_PLUS,
    OVERRIDE_PLUS_ON_EXISTING,
    OVERRIDE_SWEEP_WITHOUT_MULTIRUN,
)
from verl_cookbook.rules.lenient import LENIENT_WRONG_LANGUAGE
from verl_cookbook.rules.scripts import JSON_SYNTAX, SHELL_AFTER_PIPE, SHELL_COMMENT_ENDS_COMMAND, SHELLCHECK_SC
from verl_cookbook.rules.upgrade import UPGRADE_ENTRY_POINT_MOVED, UPGRADE_KEY_MOVED, UPGRADE_KEY_REMOVED

Fixer = Callable[[Finding, str], "Edit | None"]  # the finding and the text of its line
FileFixer = Callable[[Finding, list[str]], "list[Edit] | None"]  # the finding and every line of its file


def _key_at(f: Finding, line: str, key: str, new: str) -> Edit | None:
    """``key`` (an override's key) replaced by ``new`` where it stands as a key: at the finding's column when it is
    there, else at its one occurrence on the line that is followed by ``=``."""
    start = f.col - 1
    if line[start:].startswith(key + "="):
        return Edit(f.line, f.col, key, new, str(f.rule))
    hits = [m.start() for m in re.finditer(rf"(?:^|(?<=[\s'\"(+~])){re.escape(key)}(?==)", line)]
    if len(hits) != 1:
        return None
    return Edit(f.line, hits[0] + 1, key, new, str(f.rule))


def _moved_key(f: Finding, line: str) -> Edit | None:
    key, new = f.data.get("key"), f.data.get("new")
    if not isinstance(key, str) or not isinstance(new, str) or not new:
        return None
    return _key_at(f, line, key, new)


def _needs_plus(f: Finding, line: str) -> Edit | None:
    key = f.data.get("key")
    if not isinstance(key, str) or f.data.get("legacy"):
        return None  # under a section an entry point migrates: with `+` Hydra takes it, and verl still never reads it
    found = _key_at(f, line, key, "+" + key)
    if found is None or line[found.col - 2 : found.col - 1] in ("+", "~"):
        return None  # already prefixed: not the override the finding read
    return found


def _plus_on_existing(f: Finding, line: str) -> Edit | None:
    key = f.data.get("key")
    if not isinstance(key, str):
        return None
    hits = [m.start() for m in re.finditer(rf"(?:^|(?<=[\s'\"(]))\+{re.escape(key)}(?==)", line)]
    if len(hits) != 1:
        return None
    return Edit(f.line, hits[0] + 1, "+" + key, key, str(f.rule))


def _dash_m(f: Finding, line: str) -> Edit | None:
    module = f.data.get("module")
    if not isinstance(module, str) or not line[f.col - 1 :].startswith(module):
        return None
    return Edit(f.line, f.col, module, "-m " + module, str(f.rule))


def _entry_point(f: Finding, line: str) -> Edit | None:
    old, new = f.data.get("old"), f.data.get("new")
    if not isinstance(old, str) or not isinstance(new, str):
        return None
    hits = [m.start() for m in re.finditer(rf"(?<![\w.]){re.escape(old)}(?![\w.])", line)]
    if len(hits) != 1:
        return None
    keep = f.data.get("keep") or []  # the old config's defaults the new one leaves required, set as overrides
    text, written = " ".join([new, *map(str, keep)]), old
    drop = f.data.get("drop")  # the old entry point's own `--config-name=…`: gone with it, when written on this line
    at = re.search(_as_written(drop), line[hits[0] :]) if isinstance(drop, str) else None
    if isinstance(drop, str) and at is None:
        return None  # the old config's name is elsewhere: an edit of this line alone would leave main_ppo without it
    if at:
        written = line[hits[0] : hits[0] + at.end()]
        text = (text + line[hits[0] + len(old) : hits[0] + at.start()]).rstrip()
    return Edit(f.line, hits[0] + 1, written, text, str(f.rule))


def _as_written(flag: str) -> str:
    """A pattern for ``flag`` as doctor read it (``--config-name=X``, ``--config-name X``) the way a script may write
    it: the value, or the whole word, in single or double quotes, which the shell removes."""
    name, sep, value = re.split(r"(=|\s+)", flag, maxsplit=1) if re.search(r"=|\s", flag) else (flag, "", "")
    q = r"([\"']?)"
    if sep == "=":
        body = rf"{q}{re.escape(name)}={q}{re.escape(value)}\2\1"
    elif sep:
        body = rf"{q}{re.escape(name)}\1\s+{q}{re.escape(value)}\2"
    else:
        body = rf"{q}{re.escape(name)}\1"
    return rf"(?<!\S){body}(?!\S)"


_FENCE_LANG = re.compile(r"^\s*(?:`{3,}|~{3,})\s*\{?\s*\.?|^\s*\.\.\s+(?:code|code-block|sourcecode)::\s*")


def _wrong_language(f: Finding, line: str) -> Edit | None:
    lang, tag = f.data.get("lang"), f.data.get("tag")
    if not isinstance(lang, str) or not isinstance(tag, str):
        return None
    m = _FENCE_LANG.match(line)
    if m is None or not re.match(rf"{re.escape(lang)}(?![\w+-])", line[m.end() :]):
        return None
    return Edit(f.line, m.end() + 1, lang, tag, str(f.rule))


_SPACED_ASSIGN = re.compile(r"^(\s*[+~]{0,2}[A-Za-z_][\w]*(?:\.[\w]+)+)( +)=( +)\S")


def _shellcheck(f: Finding, line: str) -> Edit | None:
    """ShellCheck's SC2283 on a Hydra override written ``key = value``: the override is ``key=value``."""
    if f.data.get("code") != "SC2283":
        return None
    m = _SPACED_ASSIGN.match(line)
    if m is None:
        return None
    spaced = m.group(2) + "=" + m.group(3)
    return Edit(f.line, m.end(1) + 1, spaced, "=", str(f.rule))


_PIPE_TEE = re.compile(r"\s+(?:\d?>&\d\s*)?\|\s*tee\b[^\\]*?(?=\s*\\?\s*$)")


def _after_pipe(f: Finding, lines: list[str]) -> list[Edit] | None:
    """Overrides written after ``| tee`` on a ``\\``-continued command: the ``| tee …`` part moves from its line to
    the end of the command's last line, so every override reaches verl and the log still goes to tee."""
    tee_line = f.data.get("line")
    if not isinstance(tee_line, int) or not 0 < tee_line < len(lines):
        return None
    text = lines[tee_line - 1]
    m = _PIPE_TEE.search(text)
    if m is None or not text.rstrip().endswith("\\"):
        return None
    last = tee_line
    while last < len(lines) and lines[last - 1].rstrip().endswith("\\"):
        last += 1
    end = lines[last - 1].rstrip()
    if last == tee_line or not end:
        return None
    pipe = m.group(0)
    rule = str(f.rule)
    return [Edit(tee_line, m.start() + 1, pipe, "", rule), Edit(last, len(end) + 1, "", pipe, rule)]


def _unquoted(f: Finding, line: str) -> Edit | None:
    """A value the shell passes with its quotes (``key='[0.9,0.95]'`` inside a double-quoted variable) written
    without them, as Hydra reads the field's type."""
    key, value = f.data.get("key"), f.data.get("value")
    if not isinstance(key, str) or not isinstance(value, str):
        return None
    for quote in ("'", '"'):
        # the value as the finding quotes it, or as Hydra read it (a quoted string: the quotes are on the line)
        quoted = value if len(value) > 1 and value[0] == value[-1] == quote else quote + value + quote
        hits = [m.start() for m in re.finditer(rf"(?<![\w.]){re.escape(f'{key}={quoted}')}", line)]
        if len(hits) == 1:
            return Edit(f.line, hits[0] + len(key) + 2, quoted, quoted[1:-1], str(f.rule))
    return None


def _removed_key(f: Finding, lines: list[str]) -> list[Edit] | None:
    """A key the release removed with nothing in its place is dropped: its whole line when it is a line of its own
    inside a ``\\``-continued command, else the override from the line."""
    key = f.data.get("key")
    if not isinstance(key, str) or not 0 < f.line <= len(lines):
        return None
    line = lines[f.line - 1]
    own = re.fullmatch(rf"\s*[+~]{{0,2}}{re.escape(key)}=[^\s'\"]*\s*\\", line)
    if own is not None:
        return [Edit(f.line, 1, line + "\n", "", str(f.rule))]
    hits = list(re.finditer(rf"\s+[+~]{{0,2}}{re.escape(key)}=[^\s'\"\\]*(?=\s|$)", line))
    if len(hits) != 1:
        return None
    return [Edit(f.line, hits[0].start() + 1, hits[0].group(0), "", str(f.rule))]


def _sweep_as_list(f: Finding, line: str) -> Edit | None:
    """``key=a,b`` on a field whose default is a list (the finding's ``list`` case): the list ``key=[a,b]``."""
    key, value = f.data.get("key"), f.data.get("value")
    if f.data.get("case") != "list" or not isinstance(key, str) or not isinstance(value, str):
        return None
    hits = [m.start() for m in re.finditer(rf"(?<![\w.]){re.escape(key)}={re.escape(value)}(?=[\s'\"]|$)", line)]
    if len(hits) != 1:
        return None
    return Edit(f.line, hits[0] + len(key) + 2, value, f"[{value}]", str(f.rule))


_GLOB = "{*}"


def _escaped_glob(f: Finding, line: str) -> Edit | None:
    """An override Hydra cannot parse because a dict key holds the glob ``{*}`` (``{model.layers.{*}:{}}``): the
    braces escaped (``\\{*\\}``), Hydra's escape for them. Applied only when Hydra's parser reads the escaped
    override, and only inside shell quotes, where bash keeps the backslashes."""
    override = f.data.get("override")
    if not isinstance(override, str) or _GLOB not in override:
        return None
    escaped = override.replace(_GLOB, "\\{*\\}")
    try:
        read = parse_hydra(escaped).value()
    except OverrideError:
        return None
    if "\\" in repr(read) or _GLOB not in repr(read):
        return None  # Hydra did not read the braces back as the glob
    key, _eq, value = override.partition("=")
    m = re.compile(rf"(?<![\w.]){re.escape(key)}=(['\"])([^'\"]*)\1").search(line)
    if m is None or m.group(2) != value:
        return None
    return Edit(f.line, m.start(2) + 1, m.group(2), m.group(2).replace(_GLOB, "\\{*\\}"), str(f.rule))


def _trailing_comma(f: Finding, line: str) -> Edit | None:
    """JSON's trailing comma (``"a": 1,}``) removed: the comma at the finding's column, or, where a block's indent
    shifts the column, the comma that ends the line."""
    if f.data.get("case") != "trailing-comma":
        return None
    if line[f.col - 1 : f.col] == ",":
        return Edit(f.line, f.col, ",", "", str(f.rule))
    body = line.rstrip()
    if body.endswith(",") and not body.endswith(",,"):
        return Edit(f.line, len(body), ",", "", str(f.rule))
    return None


def _is_comment(text: str) -> bool:
    return text.lstrip().startswith("#")


def _continued(lines: list[str], n: int) -> bool:
    """Line ``n`` (1-based) continues its command: it ends with ``\\``, or it is a comment line inside a command
    whose last line of code before it does."""
    if lines[n - 1].rstrip().endswith("\\"):
        return True
    if not _is_comment(lines[n - 1]):
        return False
    k = n - 1
    while k >= 1 and _is_comment(lines[k - 1]):
        k -= 1
    return k >= 1 and lines[k - 1].rstrip().endswith("\\")


def _comment_out_of_command(f: Finding, lines: list[str]) -> list[Edit] | None:
    """Comment lines written inside a ``\\``-continued command: every such comment of that command moves, in
    order, above the command's first line (at its indent), so each ``\\`` joins the next argument again. Every
    finding of one command computes the same edits, which apply once."""
    if not 0 < f.line <= len(lines):
        return None
    if not _is_comment(lines[f.line - 1]):
        return _comment_after_backslash(f, lines)
    start = f.line
    while start > 1 and _continued(lines, start - 1):
        start -= 1
    if start == f.line:
        return None
    end = start
    while end < len(lines) and _continued(lines, end):
        end += 1
    inside = [n for n in range(start + 1, end + 1) if _is_comment(lines[n - 1]) and _continued(lines, n - 1)]
    if f.line not in inside or _is_comment(lines[end - 1]):
        return None  # a comment that ends the command (no argument after it) is not the finding's case
    indent = lines[start - 1][: len(lines[start - 1]) - len(lines[start - 1].lstrip())]
    moved = "".join(f"{indent}{lines[n - 1].strip()}\n" for n in inside)
    rule = str(f.rule)
    return [Edit(start, 1, "", moved, rule), *(Edit(n, 1, lines[n - 1] + "\n", "", rule) for n in inside)]


_TRAILING_COMMENT = re.compile(r"\\([ \t]+)(#.*)$")


def _comment_after_backslash(f: Finding, lines: list[str]) -> list[Edit] | None:
    """A comment after ``\\ `` on an argument's line of a continued command (``a=1 \\ # note``): the comment moves
    above the command and the ``\\`` ends that line again, so the arguments after it reach the command."""
    start = f.data.get("start")
    if not isinstance(start, int) or not 0 < start < f.line <= len(lines):
        return None
    text, first = lines[f.line - 1], lines[start - 1]
    m = _TRAILING_COMMENT.search(text)
    if m is None:
        return None
    indent = first[: len(first) - len(first.lstrip())]
    rule = str(f.rule)
    return [
        Edit(f.line, m.start(1) + 1, m.group(1) + m.group(2), "", rule),
        Edit(start, 1, "", f"{indent}{m.group(2).strip()}\n", rule),
    ]


FILE_FIXERS: Mapping[Rule, FileFixer] = {
    SHELL_AFTER_PIPE: _after_pipe,
    UPGRADE_KEY_REMOVED: _removed_key,
    SHELL_COMMENT_ENDS_COMMAND: _comment_out_of_command,
}

FIXERS: Mapping[Rule, Fixer] = {
    UPGRADE_KEY_MOVED: _moved_key,
    CONFIG_LEGACY_KEY: _moved_key,
    OVERRIDE_NEEDS_PLUS: _needs_plus,
    OVERRIDE_PLUS_ON_EXISTING: _plus_on_existing,
    COMMAND_MISSING_DASH_M: _dash_m,
    UPGRADE_ENTRY_POINT_MOVED: _entry_point,
    LENIENT_WRONG_LANGUAGE: _wrong_language,
    SHELLCHECK_SC: _shellcheck,
    CONFIG_UNCONVERTED_TYPE: _unquoted,
    OVERRIDE_SWEEP_WITHOUT_MULTIRUN: _sweep_as_list,
    OVERRIDE_MALFORMED: _escaped_glob,
    JSON_SYNTAX: _trailing_comma,
}


def _fixer(rule: Rule) -> FileFixer | None:
    """What computes the edits for ``rule``'s findings (a line fixer reads the finding's line only)."""
    if rule in FILE_FIXERS:
        return FILE_FIXERS[rule]
    line_fixer = FIXERS.get(rule) or (FIXERS[SHELLCHECK_SC] if str(rule).startswith(SHELLCHECK_SC.code) else None)
    if line_fixer is None:
        return None

    def on_file(f: Finding, lines: list[str]) -> list[Edit] | None:
        edit = line_fixer(f, lines[f.line - 1]) if 0 < f.line <= len(lines) else None
        return [edit] if edit is not None else None

    return on_file


@dataclass
class FilePlan:
    """One file's fixes: its text before, and what applying them gives."""

    path: Path
    shown: str
    before: str
    result: Applied
    fixed: list[Finding] = field(default_factory=list)


@dataclass
class Plan:
    files: list[FilePlan]
    unfixable: list[Finding]  # findings with no mechanical fix, or whose fix did not apply

    @property
    def fixed(self) -> list[Finding]:
        return [f for p in self.files for f in p.fixed]


def plan(findings: Iterable[Finding], resolve: Callable[[str], Path | None]) -> Plan:
    """The edits ``findings`` call for, grouped by file (``resolve`` maps a finding's shown path to the file)."""
    by_file: dict[str, list[tuple[Finding, list[Edit]]]] = {}
    unfixable: list[Finding] = []
    texts: dict[str, tuple[Path, str]] = {}
    for f in findings:
        fixer = _fixer(f.rule)
        path = resolve(f.path) if fixer is not None else None
        if fixer is None or path is None:
            unfixable.append(f)
            continue
        if f.path not in texts:
            try:  # bytes decoded as they are: a CRLF file keeps its line ends
                texts[f.path] = (path, path.read_bytes().decode("utf-8"))
            except (OSError, UnicodeDecodeError):
                unfixable.append(f)
                continue
        edits = fixer(f, texts[f.path][1].splitlines())
        if not edits:
            unfixable.append(f)
        else:
            by_file.setdefault(f.path, []).append((f, edits))
    files = []
    for shown, pairs in sorted(by_file.items()):
        path, text = texts[shown]
        result = apply_edits(text, [e for _f, es in pairs for e in es])
        applied = set(result.applied)
        fp = FilePlan(path, shown, text, result, [f for f, es in pairs if all(e in applied for e in es)])
        unfixable += [f for f, es in pairs if not all(e in applied for e in es)]
        files.append(fp)
    return Plan(files, unfixable)


def resolver(*bases: Path) -> Callable[[str], Path | None]:
    """A finding's shown path as a file: as given (relative to the working directory), else under each of ``bases``."""

    def resolve(shown: str) -> Path | None:
        for candidate in (Path(shown), *(b / shown for b in bases)):
            if candidate.is_file():
                return candidate
        return None

    return resolve


def diff_text(p: Plan) -> str:
    """Every file's change as ``diff -u`` prints it."""
    return "".join(unified_diff(fp.shown, fp.before, fp.result.text) for fp in p.files)


def _write(p: Plan) -> None:
    """Write each changed file (what ``--fix`` asked for)."""
    for fp in p.files:
        if fp.result.applied:
            fp.path.write_bytes(fp.result.text.encode("utf-8"))


def rejected_lines(p: Plan) -> list[str]:
    """One line per fix that did not apply (its text moved, or it overlapped another)."""
    return [line for fp in p.files for line in describe_rejected(fp.shown, list(fp.result.rejected))]


def summary(p: Plan, total: int, wrote: bool) -> str:
    files = sum(1 for fp in p.files if fp.result.applied)
    done = "fixed" if wrote else "can fix"
    tail = "" if wrote else "; --fix applies them"
    return (
        f"{done} {len(p.fixed)} of {total} finding(s) in {files} file(s); {len(p.unfixable)} have no mechanical fix"
        f"{tail}"
    )


PASSES = 5  # --fix passes at most: a fix can uncover a finding another fix then takes (as ruff's --fix loops)


def run(
    findings: list[Finding],
    bases: list[Path],
    lang: str,
    write: bool,
    rejudge: Callable[[], list[Finding]] | None = None,
) -> int:
    """``--diff`` (``write`` false): the fixes as a diff on standard output, nothing written. ``--fix``: the fixes
    written, then the findings left. Exit 1 when a diff is shown or a finding that fails is left.

    ``rejudge``: judges the files again after a write. Given, ``--fix`` repeats while a pass fixes something (at most
    :data:`PASSES`): moving a comment out of a command can show arguments the command never had, and their fixes
    are applied in the next pass."""
    p = plan(findings, resolver(*bases))
    if not write:
        out = diff_text(p)
        if out:
            print(out, end="")
        for line in rejected_lines(p):
            print(line, file=sys.stderr)
        print(summary(p, len(findings), wrote=False), file=sys.stderr)
        return EXIT_FINDINGS if out or fails(p.unfixable) else EXIT_OK
    _write(p)
    first, passes, fixed, total = p, 1, len(p.fixed), len(findings)
    while rejudge is not None and p.fixed and passes < PASSES:
        p = plan(rejudge(), resolver(*bases))
        if not p.fixed:
            break
        _write(p)
        passes += 1
        fixed += len(p.fixed)
        total += len(p.fixed)  # each finding a later pass uncovered and fixed
    left = sorted(p.unfixable, key=lambda f: f.sort_key())
    out = format_text(left, lang=lang)
    if out:
        print(out)
    for line in rejected_lines(p):
        print(line, file=sys.stderr)
    if passes == 1:
        print(summary(first, len(findings), wrote=True), file=sys.stderr)
    else:
        print(
            f"fixed {fixed} of {total} finding(s) in {passes} passes; {len(left)} have no mechanical fix",
            file=sys.stderr,
        )
    return EXIT_FINDINGS if fails(left) else EXIT_OK
