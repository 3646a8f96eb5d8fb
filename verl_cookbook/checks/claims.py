"""Stated claims (``<!-- check: KIND attr="…" -->`` beside a sentence), judged against verl's source, read as text.

- ``raises file= error= match=``: ``file`` has ``raise <error>(…)`` whose message contains ``match``. A
  message is rendered from its source: plain and implicitly concatenated strings as they are, f-strings
  with their placeholders as written (``f"got {x!r}"`` reads ``got {x!r}``), ``"…".format(…)`` as its
  template, ``a + b`` joined, and a variable from the strings assigned to it in the same function.
  ``error="AssertionError"`` also accepts ``assert cond, "message"``.
- ``symbol name= [params=]``: the dotted path names a class, function or method inside verl (following
  ``from .x import Y`` re-exports); with ``params="a,b"`` its signature has those parameters.
- ``contains file= match=``: a code line of ``file`` contains ``match`` (whitespace collapsed, comments
  stripped; a statement spread over several lines also counts as one line).
- ``verl-version version=``: the release a page says it was checked against is the pinned one
  (``verl_cookbook/data/releases.yaml``). It is judged against the pin, not against the tree being
  checked: in the release matrix, or on a checkout in verl's CI, the page still speaks about the pinned
  release, and a finding on every page would drown the drift that matters. When the tree being checked
  *is* a release and the pin is that release, the two must agree. Bumping the pin makes this claim fail
  on every page, which is the point: each page is re-read for the new release.

A failing claim names the page line and, when verl has something close (a changed message, a moved
file, a renamed parameter), that verl line.
"""

from __future__ import annotations

import ast
import difflib
import functools
import os
import re
from pathlib import Path

from verl_cookbook.checks import Context, claim_check
from verl_cookbook.checks.config.model import closest
from verl_cookbook.checks.raise_sites import raise_sites
from verl_cookbook.checks.verl_file import VerlFile, code_lines, docstring_lines, read_verl_file
from verl_cookbook.checks.verl_symbols import definitions, resolve_symbol
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import Directive
from verl_cookbook.releases import default_release
from verl_cookbook.rules.claims import (
    CLAIM_BAD_FILE,
    CLAIM_CODE_CHANGED,
    CLAIM_CODE_MISSING,
    CLAIM_FILE_MISSING,
    CLAIM_MESSAGE_CHANGED,
    CLAIM_MISSING_ATTR,
    CLAIM_ONLY_IN_COMMENT,
    CLAIM_PARAMS_MISMATCH,
    CLAIM_RAISES_MISSING,
    CLAIM_RAISES_OTHER_ERROR,
    CLAIM_SYMBOL_MISSING,
    CLAIM_UNPARSABLE,
    CLAIM_VERL_VERSION,
)
from verl_cookbook.verl_source import VerlTree

RELEASES_FILE = "verl_cookbook/data/releases.yaml"


def _why(d: Directive) -> str:
    """Why a claim needs the whole release (what ships with the package holds only configs): its page and line."""
    return f"{d.page}:{d.line} declares `check: {d.kind}`, which reads verl's source"


def _missing_attrs(d: Directive, names: tuple[str, ...]) -> list[Finding]:
    missing = [n for n in names if not d.attrs.get(n, "").strip()]
    if not missing:
        return []
    return [CLAIM_MISSING_ATTR.at(d.page, d.line, 1, kind=d.kind, missing=missing)]


def _file_problem(d: Directive, ctx: Context, rel: str) -> tuple[VerlFile | None, list[Finding]]:
    tree = ctx.facts.source_tree(_why(d))
    if not rel.startswith("verl/") or ".." in Path(rel).parts:
        return None, [CLAIM_BAD_FILE.at(d.page, d.line, 1, file=rel)]
    mod = read_verl_file(tree, rel, ctx.session.verl_files)
    if mod is None:
        name = Path(rel).name
        moved = sorted(str(p.relative_to(tree.root)) for p in tree.package.rglob(name))
        return None, [
            CLAIM_FILE_MISSING.at(
                d.page,
                d.line,
                1,
                fact_source=moved[0] if moved else None,
                release=tree.label,
                file=rel,
                moved=moved[:3],
            )
        ]
    if mod.tree is None:
        return None, [CLAIM_UNPARSABLE.at(d.page, d.line, 1, fact_source=rel, file=rel, error=str(mod.error))]
    return mod, []


# -- what verl has close to a failing claim ---------------------------------------------------------------
def _norm(text: str) -> str:
    return " ".join(text.split())


# a changed line is shown when it is at least this like the claimed text (see :func:`_closest_of`)
CLOSE_ENOUGH = 0.6


def _closest(match: str, candidates: list[tuple[str, int]]) -> tuple[str, int, float] | None:
    """The candidate most like ``match`` scoring at least ``CLOSE_ENOUGH``, with its line and score (see
    :func:`_closest_of`). A site check judges a 中文 page and its English twin, which carry the same claims, against
    the same release: the answer is kept for the same question (392 calls, 114 distinct, in a matrix run of the
    site)."""
    return _closest_of(match, tuple(candidates))


def _trigram_bound(m: str, t: str) -> float:
    """An upper bound of ``_closest_of``'s score of ``t`` for ``m``: the share of ``m``'s characters that lie in a
    3-character run ``t`` also has. Every matching block of 3+ characters is made of such runs, and the score is at
    most the blocks' share of ``m``."""
    grams = {t[i : i + 3] for i in range(len(t) - 2)}
    covered = [False] * len(m)
    for i in range(len(m) - 2):
        if m[i : i + 3] in grams:
            covered[i] = covered[i + 1] = covered[i + 2] = True
    return sum(covered) / len(m)


@functools.lru_cache(maxsize=256)
def _closest_of(match: str, candidates: tuple[tuple[str, int], ...]) -> tuple[str, int, float] | None:
    """The first candidate most like ``match``, with its line and a score in [0, 1], if it scores at least
    ``CLOSE_ENOUGH``; else None.

    The score is the share of ``match`` found in the candidate (in runs of 3+ characters) times how
    tightly those runs sit together, so a long text that happens to share scattered letters scores low.
    A candidate whose :func:`_trigram_bound` cannot reach ``CLOSE_ENOUGH`` or beat the best so far is not
    scored: the answer is the same, and a failing claim in a large module no longer costs a sequence match
    against every line of it.
    """
    best = None
    m = _norm(match).lower()
    if not m:
        return None
    for text, line in candidates:
        t = _norm(text).lower()
        if not t:
            continue
        bound = _trigram_bound(m, t)
        if bound < CLOSE_ENOUGH or (best is not None and bound <= best[2]):
            continue
        blocks = [b for b in difflib.SequenceMatcher(None, m, t, autojunk=False).get_matching_blocks() if b.size >= 3]
        if not blocks:
            continue
        coverage = sum(b.size for b in blocks) / len(m)
        span = blocks[-1].b + blocks[-1].size - blocks[0].b
        score = coverage * min(1.0, len(m) / max(span, 1))
        if score >= CLOSE_ENOUGH and (best is None or score > best[2]):
            best = (text, line, score)
    return best


def _grep_tree(tree: VerlTree, needle: str, skip: str) -> str | None:
    """``file:line`` of the first .py file in verl (other than ``skip``) containing ``needle``."""
    for dirpath, dirnames, filenames in os.walk(tree.package):
        dirnames.sort()
        for fn in sorted(filenames):
            if not fn.endswith(".py"):
                continue
            p = Path(dirpath) / fn
            rel = str(p.relative_to(tree.root))
            if rel == skip:
                continue
            try:
                text = p.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            idx = text.find(needle)
            if idx >= 0:
                return f"{rel}:{text.count(chr(10), 0, idx) + 1}"
    return None


# -- raises ------------------------------------------------------------------------------------------------
@claim_check("raises")
def check_raises(d: Directive, ctx: Context) -> list[Finding]:
    missing = _missing_attrs(d, ("file", "error", "match"))
    if missing:
        return missing
    rel, error, match = d.attrs["file"], d.attrs["error"], d.attrs["match"]
    mod, problems = _file_problem(d, ctx, rel)
    if mod is None:
        return problems
    if mod.raises is None:
        mod.raises = list(raise_sites(mod))
    raises = mod.raises
    want = _norm(match)
    same_error = [(msg, line) for name, msg, line in raises if name == error]
    for msg, _line in same_error:
        if want in _norm(msg):
            return []
    other = [(name, msg, line) for name, msg, line in raises if name != error and want in _norm(msg)]
    if other:
        name, msg, line = other[0]
        return [
            CLAIM_RAISES_OTHER_ERROR.at(
                d.page,
                d.line,
                1,
                fact=f"raise {name}({msg!r})",
                fact_source=f"{rel}:{line}",
                file=rel,
                raised=name,
                error=error,
                match=match,
            )
        ]
    close = _closest(match, same_error)
    if close:
        msg, line, _ = close
        return [
            CLAIM_MESSAGE_CHANGED.at(
                d.page,
                d.line,
                1,
                fact=f"raise {error}({msg!r})",
                fact_source=f"{rel}:{line}",
                file=rel,
                error=error,
                match=match,
                now=msg,
            )
        ]
    elsewhere = _grep_tree(ctx.facts.source_tree(_why(d)), match, rel)
    if same_error:
        case, suggestion = "", None
    elif error == "AssertionError":
        case, suggestion = "no-assert", None
    else:
        case, suggestion = "no-raise", closest(error, sorted({name for name, _m, _l in raises}))
    return [
        CLAIM_RAISES_MISSING.at(
            d.page,
            d.line,
            1,
            fact=f"{error} messages: " + "; ".join(repr(m) for m, _l in same_error[:3]) if same_error else None,
            fact_source=elsewhere or rel,
            case=case,
            file=rel,
            error=error,
            match=match,
            elsewhere=elsewhere,
            suggestion=suggestion,
        )
    ]


# -- symbol ------------------------------------------------------------------------------------------------
@claim_check("symbol")
def check_symbol(d: Directive, ctx: Context) -> list[Finding]:
    missing = _missing_attrs(d, ("name",))
    if missing:
        return missing
    name = d.attrs["name"]
    tree = ctx.facts.source_tree(_why(d))
    rel, node, missing_parts, offers = resolve_symbol(tree, name, ctx.session.verl_files)
    if node is None:
        if not rel:
            return [CLAIM_SYMBOL_MISSING.at(d.page, d.line, 1, case="no-module", name=name, release=tree.label)]
        choices = [c for c in offers.split(",") if c]
        part = missing_parts[0]
        if rel.endswith("/__init__.py") and (len(missing_parts) > 1 or part.islower()):
            # `verl.pkg.module.Name` with no pkg/module.py: the module's file is what is missing
            pkg = rel.removesuffix("/__init__.py")
            modules = sorted(
                p.stem if p.suffix == ".py" else p.name
                for p in (tree.root / pkg).iterdir()
                if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").is_file()
            )
            return [
                CLAIM_FILE_MISSING.at(
                    d.page,
                    d.line,
                    1,
                    fact=f"modules of {pkg.replace('/', '.')}: {', '.join(modules[:12])}" if modules else None,
                    fact_source=rel,
                    case="module",
                    name=name,
                    release=tree.label,
                    module_file=f"{pkg}/{part}.py",
                    part=part,
                    file=rel,
                    suggestion=closest(part, modules + choices),
                )
            ]
        return [
            CLAIM_SYMBOL_MISSING.at(
                d.page,
                d.line,
                1,
                fact=f"defines: {', '.join(choices[:12])}" if choices else None,
                fact_source=rel,
                name=name,
                part=part,
                file=rel,
                suggestion=closest(part, choices),
            )
        ]
    want = [p.strip() for p in d.attrs.get("params", "").split(",") if p.strip()]
    if not want:
        return []
    fn: ast.AST | None = node
    if isinstance(node, ast.ClassDef):
        fn = definitions(node.body).get("__init__")
        if fn is None:
            source = f"{rel}:{node.lineno}"
            return [CLAIM_PARAMS_MISMATCH.at(d.page, d.line, 1, fact_source=source, case="no-init", name=name)]
    if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
        return [CLAIM_PARAMS_MISMATCH.at(d.page, d.line, 1, case="module", name=name)]
    a = fn.args
    have = [x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs]]
    if a.vararg:
        have.append("*" + a.vararg.arg)
    if a.kwarg:
        have.append("**" + a.kwarg.arg)
    lost = [p for p in want if p not in have]
    if not lost:
        return []
    sig = f"{fn.name}({ast.unparse(a)})"
    suggestion = closest(lost[0], [h for h in have if h not in want])
    return [
        CLAIM_PARAMS_MISMATCH.at(
            d.page, d.line, 1, fact=sig, fact_source=f"{rel}:{fn.lineno}", name=name, lost=lost, suggestion=suggestion
        )
    ]


# -- contains ----------------------------------------------------------------------------------------------
@claim_check("contains")
def check_contains(d: Directive, ctx: Context) -> list[Finding]:
    missing = _missing_attrs(d, ("file", "match"))
    if missing:
        return missing
    rel, match = d.attrs["file"], d.attrs["match"]
    mod, problems = _file_problem(d, ctx, rel)
    if mod is None:
        return problems
    want = _norm(match)
    # fast path: a physical line that has the text before any `#` and is not in a docstring
    if mod.plain is None:
        mod.plain = [_norm(raw.split("#", 1)[0]) for raw in mod.source.splitlines()]
    hits = [n for n, text in enumerate(mod.plain, 1) if want in text]
    if hits:
        if mod.docstrings is None:
            mod.docstrings = docstring_lines(mod.tree)
        if any(n not in mod.docstrings for n in hits):
            return []
    if mod.code is None:
        mod.code = code_lines(mod.source, mod.tree)
    lines = mod.code
    if any(want in _norm(text) for text, _n in lines):
        return []
    in_comment = next(
        (n for n, raw in enumerate(mod.source.splitlines(), 1) if want in _norm(raw)),
        None,
    )
    if in_comment:
        return [CLAIM_ONLY_IN_COMMENT.at(d.page, d.line, 1, fact_source=f"{rel}:{in_comment}", file=rel, match=match)]
    close = _closest(match, [(t.strip(), n) for t, n in lines])
    if close:
        text, n, _ = close
        return [
            CLAIM_CODE_CHANGED.at(
                d.page,
                d.line,
                1,
                fact=_norm(text),
                fact_source=f"{rel}:{n}",
                file=rel,
                match=match,
                closest=_norm(text),
            )
        ]
    return [CLAIM_CODE_MISSING.at(d.page, d.line, 1, fact_source=rel, file=rel, match=match)]


# -- verl-version ------------------------------------------------------------------------------------------
_VERSION_LINE = re.compile(r"^default:")


def _releases_line() -> str:
    try:
        text = Path(__file__).resolve().parent.parent.joinpath("data", "releases.yaml").read_text(encoding="utf-8")
    except OSError:
        return RELEASES_FILE
    for n, line in enumerate(text.splitlines(), 1):
        if _VERSION_LINE.match(line):
            return f"{RELEASES_FILE}:{n}"
    return RELEASES_FILE


@claim_check("verl-version")
def check_verl_version(d: Directive, ctx: Context) -> list[Finding]:
    missing = _missing_attrs(d, ("version",))
    if missing:
        return missing
    stated = d.attrs["version"].strip()
    pinned = default_release()
    if stated != pinned:
        return [
            CLAIM_VERL_VERSION.at(
                d.page,
                d.line,
                1,
                fact=f"pinned release: {pinned}",
                fact_source=_releases_line(),
                stated=stated,
                pinned=pinned,
            )
        ]
    tree = ctx.facts.tree
    if tree.label == pinned and tree.version and tree.version != pinned:
        return [
            CLAIM_VERL_VERSION.at(
                d.page,
                d.line,
                1,
                fact=f"verl/version/version: {tree.version}",
                fact_source="verl/version/version",
                case="tree",
                pinned=pinned,
                version=tree.version,
            )
        ]
    return []
