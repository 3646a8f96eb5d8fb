"""Source citations in prose: the file must exist in verl, the lines must be inside it, and a claim
written right before a citation must hold inside the cited lines.

The forms pages use, all in code spans (a path outside a code span, as in a tool's output, is read too):

* ``verl/checkpoint_engine/base.py:67-69``, or a file without lines (``verl/checkpoint_engine/__init__.py``);
* a path inside the package (``workers/config/rollout.py:141``) or a bare file name with lines
  (``kimi_checkpoint_engine.py:313``), resolved in verl's tree (a bare name that several files share
  resolves next to the file cited before it);
* more lines of a file cited before: ``222-223`` continues the citation it follows in a list
  (``(`a.py:63-70`, `222-223`)``); ``:180-216`` continues the file the paragraph's earlier ``:N`` spans
  continued, else the last one cited in the paragraph;
* a release named before it, ``(0.9.0 `hccl_checkpoint_engine.py:80-81`)``: judged against that release; a bare
  path followed by ``at tag vX.Y.Z``, as ``doctor`` prints the source of a file an older release had, likewise;
* a path in verl's repository outside the wheel (``tests/checkpoint_engine/….py:48``): linked, but the
  wheel cannot judge it.

``find_citations`` is the one reader of these forms: this check and the site's rendering
(``verl_cookbook.site_markdown``, which turns each citation into a link to its lines at the release's tag)
both use it. Citations are judged only when the tree being checked is the pinned release; the
``verl-version`` claim on every page already forces a re-read when the pin moves. Paths inside
``<!-- check: … -->`` claims are left to those claims. A path inside a URL is left alone.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from verl_cookbook.checks import Context
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import DIRECTIVE, Page, parse_attrs
from verl_cookbook.releases import covered_releases, default_release
from verl_cookbook.rules.claims import (
    CITE_CLAIM_OUTSIDE_LINES,
    CITE_LINE_OUT_OF_RANGE,
    CITE_MISSING_FILE,
    CITE_UNKNOWN_RELEASE,
)
from verl_cookbook.session import Session as Memo
from verl_cookbook.verl_source import MANIFEST, VerlTree, line_counts, release_tree

# a bare path outside code spans (tool output, a path in a sentence)
CITATION = re.compile(r"(?<![\w/.-])(verl/[\w./-]+\.(?:py|yaml|yml))(?::(\d+)(?:-(\d+))?)?")
SOURCE_URL = "https://github.com/verl-project/verl/blob/{tag}/{path}"
_DOUBLE_SPAN = re.compile(r"``.+?``")
_SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
_FILE = re.compile(r"^(?P<path>[\w.-]+(?:/[\w.-]+)*\.(?:py|yaml|yml))(?::(?P<first>\d+)(?:-(?P<last>\d+))?)?$")
_MORE_LINES = re.compile(r"^(?P<colon>:)?(?P<first>\d+)(?:-(?P<last>\d+))?$")
_RELEASE_BEFORE = re.compile(r"(\d+\.\d+\.\d+)\s+$")
_AT_TAG = re.compile(r"[ \t]+at tag v(\d+\.\d+\.\d+)\b")
_BETWEEN = re.compile(r"^\s*(?:[,，、;；]|and|和|及)?\s*$")
# repository folders of verl outside the wheel's package
_REPO_ONLY = ("tests/", "examples/", "recipe/", "docs/", "scripts/")


@dataclass(frozen=True)
class Citation:
    start: int  # offset of the opening backtick (of the path, for one outside a code span)
    end: int  # offset just past the closing backtick
    written: str  # the span's text
    path: str | None  # repository-relative (verl/…, tests/…); None when it names no file of verl
    first: int | None
    last: int | None
    release: str | None  # named right before it; None: the page's release
    in_wheel: bool = True  # False: a file of verl's repository that the wheel does not ship
    problem: str = ""  # why ``path`` is None: "no-file" (a bare name no file has) or "ambiguous" (several have it)
    candidates: tuple[str, ...] = ()  # the files an ambiguous name names
    spanned: bool = True  # written in a code span

    @property
    def lines(self) -> str:
        if self.first is None:
            return ""
        return f"{self.first}-{self.last}" if self.last else str(self.first)


def tag(release: str) -> str:
    """verl's git tag of a release (verl tags releases ``vX.Y.Z``)."""
    return f"v{release}"


def source_url(c: Citation, release: str) -> str:
    """The citation's file and lines on GitHub at the release's tag."""
    url = SOURCE_URL.format(tag=tag(c.release or release), path=c.path)
    if c.first is not None:
        url += f"#L{c.first}" + (f"-L{c.last}" if c.last else "")
    return url


def _files(package: Path, memo: Memo | None) -> frozenset[str]:
    """Repository-relative paths of every .py/.yaml file in verl's package: the list of the release's files when
    ``package`` is what ships of one (see ``verl_source.shipped_release``), else the files themselves. Listed once
    per run when ``memo`` (the run's :class:`~verl_cookbook.session.Session`) is given."""
    if memo is not None:
        if package not in memo.package_files:
            memo.package_files[package] = _files(package, None)
        return memo.package_files[package]
    manifest = package.parent / MANIFEST
    try:
        listed = json.loads(manifest.read_text(encoding="utf-8")).get("listing")
    except (OSError, ValueError):
        listed = None
    if listed is not None:
        return frozenset(r for r in listed if r.endswith((".py", ".yaml", ".yml")))
    return frozenset(
        p.relative_to(package.parent).as_posix()
        for p in package.rglob("*")
        if p.suffix in (".py", ".yaml", ".yml") and p.is_file()
    )


def _by_name(package: Path, memo: Memo | None) -> dict[str, list[str]]:
    """File name → repository-relative paths of every .py/.yaml file in verl's package (once per run with ``memo``)."""
    if memo is not None and package in memo.files_by_name:
        return memo.files_by_name[package]
    out: dict[str, list[str]] = {}
    for rel in sorted(_files(package, memo)):
        out.setdefault(rel.rsplit("/", 1)[-1], []).append(rel)
    if memo is not None:
        memo.files_by_name[package] = out
    return out


def _mask(text: str) -> str:
    """``text`` with ``<!-- check: … -->`` claims blanked (offsets kept): their file names are theirs; and
    with double-backtick code spans blanked: they show citation syntax, they cite nothing."""
    blank = lambda m: re.sub(r"[^\n]", " ", m.group(0))  # noqa: E731
    return _DOUBLE_SPAN.sub(blank, DIRECTIVE.sub(blank, text))


def _resolve(
    written: str, package: Path, near: str | None, memo: Memo | None
) -> tuple[str | None, bool, str, tuple[str, ...]]:
    """(repository path, in the wheel, problem, candidates) of a file as written (see :class:`Citation`)."""
    if written.startswith("verl/"):
        return written, True, "", ()
    if written.startswith(_REPO_ONLY):
        return written, False, "", ()
    if "/" in written:
        inside = f"verl/{written}"
        return (inside, True, "", ()) if inside in _files(package, memo) else (None, True, "", ())
    found = _by_name(package, memo).get(written, [])
    if len(found) > 1 and near:
        close = [f for f in found if f.rsplit("/", 1)[0] == near.rsplit("/", 1)[0]]
        found = close or found
    if len(found) == 1:
        return found[0], True, "", ()
    if found:
        return None, True, "ambiguous", tuple(found)
    return None, True, "no-file", ()


def find_citations(text: str, package: Path, memo: Memo | None = None) -> list[Citation]:
    """Every citation of verl's source in a page's Markdown ``text`` (fenced code included), in order.

    ``package`` is verl's package folder (``<tree>/verl``), used to resolve short paths and bare names; ``memo`` (the
    run's :class:`~verl_cookbook.session.Session`) keeps the package's file list and each page's citations between
    calls (the check of citations and claim coverage both read them).
    """
    if memo is not None:
        key = (package, text)
        if key not in memo.page_citations:
            memo.page_citations[key] = _find_citations(text, package, memo)
        return memo.page_citations[key]
    return _find_citations(text, package, memo)


def _find_citations(text: str, package: Path, memo: Memo | None) -> list[Citation]:
    masked = _mask(text)
    out: list[Citation] = []
    prev: Citation | None = None
    subject: str | None = None  # the file the paragraph's ``:N`` spans continue
    spans = list(_SPAN.finditer(masked))
    taken = [(m.start(), m.end()) for m in spans]
    for m in spans:
        body = m.group(1).strip()
        f = _FILE.match(body)
        is_path = f is not None and (body.startswith("verl/") or bool(f.group("first")))
        if prev is None and not is_path:  # most code spans: no citation, and none before it to continue
            subject = None
            continue
        before = masked[prev.end : m.start()] if prev else ""
        same_paragraph = prev is not None and not re.search(r"\n[ \t]*\n", before)
        same_list = same_paragraph and bool(_BETWEEN.match(before))
        lead = _RELEASE_BEFORE.search(masked[max(0, m.start() - 12) : m.start()])
        release = lead.group(1) if lead else None
        more = _MORE_LINES.match(body)
        if not same_paragraph or re.search(r"\n[ \t]*\|", before):
            subject = None  # a new paragraph or a new table row starts afresh
        if f and is_path:
            claim = _claim_before(text, m.start())
            near = (claim or {}).get("file") or (prev.path if prev else None)
            path, in_wheel, problem, candidates = _resolve(f.group("path"), package, near, memo)
            if path is None and not problem:
                prev = None
                continue  # a path with lines in some other project
            first, last = f.group("first"), f.group("last")
            c = Citation(
                m.start(),
                m.end(),
                body,
                path,
                int(first) if first else None,
                int(last) if last else None,
                release,
                in_wheel,
                problem,
                candidates,
            )
        elif more and prev is not None and prev.path and (same_list or (more.group("colon") and same_paragraph)):
            last = more.group("last")
            path = prev.path if same_list and not more.group("colon") else (subject or prev.path)
            subject = path
            c = Citation(
                m.start(),
                m.end(),
                body,
                path,
                int(more.group("first")),
                int(last) if last else None,
                release or (prev.release if same_list else None),
                prev.in_wheel,
            )
        else:
            if not same_paragraph:
                prev = None
            continue
        out.append(c)
        prev = c
    for m in CITATION.finditer(masked):
        if any(s <= m.start() < e for s, e in taken):
            continue
        first, last = m.group(2), m.group(3)
        at_tag = _AT_TAG.match(masked, m.end())
        out.append(
            Citation(
                m.start(),
                m.end(),
                m.group(0),
                m.group(1),
                int(first) if first else None,
                int(last) if last else None,
                at_tag.group(1) if at_tag else None,
                spanned=False,
            )
        )
    return sorted(out, key=lambda c: c.start)


def _lines(path: Path, memo: Memo) -> list[str] | None:
    """The lines of one of verl's files, None when it cannot be read; read once per run (``memo``: the run's
    :class:`~verl_cookbook.session.Session`)."""
    if path not in memo.cited_lines:
        try:
            memo.cited_lines[path] = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            memo.cited_lines[path] = None
    return memo.cited_lines[path]


def _claim_before(text: str, start: int) -> dict[str, str] | None:
    """The attributes of a ``<!-- check: … -->`` claim written right before offset ``start`` (brackets and
    spaces between)."""
    for m in DIRECTIVE.finditer(text, max(0, start - 2000), start):
        if re.fullmatch(r"[\s(（]*", text[m.end() : start]):
            kind, _, rest = m.group(1).strip().partition(" ")
            return {"kind": kind, **parse_attrs(rest)}
    return None


def _squash(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def check_citations(page: Page, ctx: Context) -> list[Finding]:
    """Findings for citations of files verl does not have, lines past a file's end, and claims that do not
    hold in the lines cited after them."""
    tree = ctx.facts.tree
    if tree.version != default_release():
        return []
    out: list[Finding] = []
    text = page.text
    cites = find_citations(text, tree.package, ctx.session)
    line, at = 1, 0  # the citations are in order: each one's line is counted on from the previous one's
    for i, c in enumerate(cites):
        line += text.count("\n", at, c.start)
        at = c.start
        col = c.start - (text.rfind("\n", 0, c.start) + 1) + 1

        if c.path is None:
            files = list(c.candidates[:3])
            out.append(CITE_MISSING_FILE.at(page.path, line, col, case=c.problem, written=c.written, files=files))
            continue
        if not c.in_wheel:
            continue  # in verl's repository, not in the release wheel this check reads
        release = c.release or tree.version
        if release != tree.version and release not in covered_releases():
            out.append(CITE_UNKNOWN_RELEASE.at(page.path, line, col, release=release))
            continue
        other = None if release == tree.version else _release(release, ctx.session)
        if other is None and release != tree.version:
            out.append(CITE_UNKNOWN_RELEASE.at(page.path, line, col, case="not-here", release=release))
            continue
        label = tree.label if other is None else release
        count = _line_count(other or tree, c.path, ctx.session)
        if count is None:
            out.append(CITE_MISSING_FILE.at(page.path, line, col, path=c.path, release=label))
            continue
        if c.first is None:
            continue
        end = c.last or c.first
        if c.first < 1 or end > count or end < c.first:
            source = f"{c.path}:{count}"
            out.append(
                CITE_LINE_OUT_OF_RANGE.at(
                    page.path, line, col, fact_source=source, path=c.path, lines=c.lines, count=count, release=label
                )
            )
            continue
        claim = _claim_before(text, c.start)
        if claim and claim.get("file") == c.path and claim.get("match") and release == tree.version:
            why = f"{page.path}:{line} cites `{c.written}` after a claim that must hold in those lines"
            lines = _lines(ctx.facts.source_tree(why).root / c.path, ctx.session) or []
            ranges = [(c.first, end)] + [(d.first, d.last or d.first) for d in _continued(cites, i, text)]
            cited = _squash("\n".join("\n".join(lines[a - 1 : b]) for a, b in ranges if a))
            if _squash(claim["match"]) not in cited:
                out.append(
                    CITE_CLAIM_OUTSIDE_LINES.at(
                        page.path,
                        line,
                        col,
                        fact_source=f"{c.path}:{c.lines}",
                        match=claim["match"],
                        path=c.path,
                        lines=c.lines,
                    )
                )
    return out


def _continued(cites: list[Citation], i: int, text: str) -> list[Citation]:
    """The ``:N`` spans that continue citation ``i`` in one list (`a.py:1-2`, `:9`): a claim may hold in any."""
    out = []
    end = cites[i].end
    for d in cites[i + 1 :]:
        if d.path != cites[i].path or not d.written.lstrip().startswith(":") or not _BETWEEN.match(text[end : d.start]):
            break
        out.append(d)
        end = d.end
    return out


def _release(release: str, memo: Memo) -> VerlTree | None:
    """Another covered release a page cites lines of, as far as it is here without the network (unpacked in the
    cache, else what ships of it: every file's line count), found once per run. A citation never downloads a
    release."""
    if release not in memo.other_releases:
        memo.other_releases[release] = release_tree(release)
    return memo.other_releases[release]


def _line_count(tree: VerlTree, rel: str, memo: Memo) -> int | None:
    counts = line_counts(tree)
    if counts is not None:
        return counts.get(rel)
    lines = _lines(tree.root / rel, memo)
    return None if lines is None else len(lines)
