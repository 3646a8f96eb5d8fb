"""A baseline: the findings a repository already has, recorded once, so that a check reports only new ones.

``verl-cookbook check --write-baseline FILE`` records every finding of the run; ``--baseline FILE`` then reports
only the findings not in it (and exits 1 only for those), and says which recorded ones no longer occur: *fixed* when
the line they pointed at changed or went away, *gone* when the line is still there as it was and the checker no
longer reports it there (a newer verl-cookbook reads the block differently, say as output rather than a script).
Each is listed once, under one of the two, never as both, and never as a new finding.

A finding is recorded by its file, its rule and a fingerprint of the text it points at (the line, with its
whitespace collapsed), never by its line number: lines added or removed above it leave it baselined, and an edit of
the offending line itself makes it new. Findings with the same file, rule and fingerprint are counted, so a second
copy of a baselined mistake in the same file is new.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from verl_cookbook.findings import Finding

FORMAT = 1
Key = tuple[str, str, str]  # (path, rule, fingerprint)


class BaselineError(Exception):
    """The baseline file cannot be read (missing, not JSON, not a baseline)."""


def _line_text(path: str, line: int, cache: dict[str, list[str] | None]) -> str | None:
    if path not in cache:
        try:
            cache[path] = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            cache[path] = None
    lines = cache[path]
    if lines is None or not 1 <= line <= len(lines):
        return None
    return lines[line - 1]


def fingerprint(finding: Finding, cache: dict[str, list[str] | None] | None = None) -> str:
    """A stable fingerprint of what ``finding`` points at: its rule and the text of its line (whitespace collapsed).
    A finding on no readable line (a file that is gone) is fingerprinted by its message, digits left out."""
    cache = {} if cache is None else cache
    text = _line_text(finding.path, finding.line, cache)
    if text is None:
        text = "".join("#" if c.isdigit() else c for c in finding.message)
    return line_fingerprint(finding.rule, text)


def line_fingerprint(rule: str, text: str) -> str:
    """The fingerprint of a finding of ``rule`` on a line reading ``text``."""
    basis = f"{rule}\0{' '.join(text.split())}"
    return hashlib.sha256(basis.encode("utf-8")).hexdigest()[:16]


def _still_there(entry: Entry, cache: dict[str, list[str] | None]) -> bool:
    """Whether a line of the entry's file still reads as the line the entry was recorded at."""
    if entry.path not in cache:
        _line_text(entry.path, 1, cache)
    return any(line_fingerprint(entry.rule, text) == entry.fingerprint for text in cache.get(entry.path) or [])


def keys(findings: list[Finding]) -> list[Key]:
    cache: dict[str, list[str] | None] = {}
    return [(f.path, f.rule, fingerprint(f, cache)) for f in findings]


def write(path: Path, findings: list[Finding]) -> int:
    """Record ``findings`` in ``path``; the number of entries written (one per file, rule and fingerprint)."""
    counts = Counter(keys(findings))
    first: dict[Key, Finding] = {}
    for k, f in zip(keys(findings), findings, strict=True):
        first.setdefault(k, f)
    entries = [
        {
            "path": p,
            "rule": r,
            "fingerprint": fp,
            "count": counts[(p, r, fp)],
            # for whoever reads the file; never used to match
            "line": first[(p, r, fp)].line,
            "message": first[(p, r, fp)].message,
        }
        for (p, r, fp) in sorted(counts)
    ]
    doc = {"verl-cookbook-baseline": FORMAT, "findings": entries}
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return len(entries)


@dataclass
class Entry:
    path: str
    rule: str
    fingerprint: str
    count: int
    line: int
    message: str


def read(path: Path) -> list[Entry]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise BaselineError(f"{path}: cannot read the baseline: {e.strerror or e}") from None
    except ValueError as e:
        raise BaselineError(f"{path}: not a baseline (invalid JSON: {e})") from None
    if not isinstance(doc, dict) or doc.get("verl-cookbook-baseline") != FORMAT:
        raise BaselineError(f"{path}: not a verl-cookbook baseline (write one with --write-baseline {path})")
    try:
        return [
            Entry(e["path"], e["rule"], e["fingerprint"], int(e["count"]), int(e.get("line", 0)), e.get("message", ""))
            for e in doc["findings"]
        ]
    except (KeyError, TypeError, ValueError) as e:
        raise BaselineError(f"{path}: a baseline entry is malformed ({e})") from None


@dataclass
class Applied:
    new: list[Finding] = field(default_factory=list)
    baselined: int = 0
    fixed: list[Entry] = field(default_factory=list)  # recorded findings whose line changed or went away
    gone: list[Entry] = field(default_factory=list)  # recorded findings no longer reported on a line still there


def apply(entries: list[Entry], findings: list[Finding], checked: set[str] | None = None) -> Applied:
    """Split ``findings`` into new ones and baselined ones. ``checked``: the files this run looked at (a
    ``--changed`` run looks at some); a recorded finding in a file it did not look at is not called fixed."""
    budget = Counter({(e.path, e.rule, e.fingerprint): e.count for e in entries})
    out = Applied()
    for k, f in zip(keys(findings), findings, strict=True):
        if budget[k] > 0:
            budget[k] -= 1
            out.baselined += 1
        else:
            out.new.append(f)
    lines: dict[str, list[str] | None] = {}
    for e in entries:
        left = budget[(e.path, e.rule, e.fingerprint)]
        if left > 0 and (checked is None or e.path in checked):
            (out.gone if _still_there(e, lines) else out.fixed).append(e)
            budget[(e.path, e.rule, e.fingerprint)] = 0
    return out


def summary(applied: Applied, path: Path) -> list[str]:
    """What a run with a baseline says on standard error."""
    lines = []
    if applied.baselined:
        lines.append(f"baseline {path}: {applied.baselined} known finding(s) not shown")
    for e in applied.fixed:
        lines.append(f"baseline {path}: fixed: {e.path} {e.rule} (was line {e.line}): {e.message[:120]}")
    for e in applied.gone:
        lines.append(
            f"baseline {path}: gone: {e.path} {e.rule} (line {e.line} is unchanged; this verl-cookbook no longer "
            f"reports it there): {e.message[:120]}"
        )
    if applied.fixed or applied.gone:
        lines.append(f"baseline {path}: rewrite it with --write-baseline {path} to drop the fixed and gone ones")
    return lines
