"""Claim coverage: every factual statement of a page is held by what fails when it is wrong, or marked ※.

Statements come from :mod:`verl_cookbook.statements` (sentences of prose, rows of undeclared tables). A statement is
**factual** when it carries one of these signals (the rule CONTRIBUTING.md states, measured on the site):

* a code span (a key, a value, a path, a command, an error text);
* a number (a version, a default, a count, a size, a port, an issue number);
* a file name or path (``release-npu.yaml``, ``README``, ``global_step_N/actor/``);
* a word of behaviour or cause (``BEHAVIOUR_EN``, ``BEHAVIOUR_ZH``): defaults, requires, only, fails, raises,
  because, not … and 默认、需要、必须、只、仅、失败、报错、因为、由于、导致、没有、不支持 … — except in a short lead-in
  that ends in a colon (``因此：``) or in a lead-in that ends in a colon right before a list (``Two causes are
  common:``): the list's items state the causes, and each item is judged on its own;
* a ※ mark: its writer says it rests on a report or on reading.

A statement is **bound** by what is written in it or right after it (see :mod:`verl_cookbook.statements`):

* ``check``: a ``<!-- check: KIND … -->`` claim (not ``skip``, not a table's ``params``), or the checked code block it
  introduces (a sentence ending in a colon right before a fence with ``check=`` other than ``skip``) when every code
  span and number of the sentence appears in that block or its fence attributes — a sentence that states a value of
  its own needs a claim of its own;
* ``run``: a ``<!-- run: FILE::TEST -->`` marker (a test that runs the real code);
* ``cited``: a citation of verl's source the checker verifies (:mod:`verl_cookbook.checks.citations`, the one reader
  of that syntax; a path of verl's repository outside the wheel is linked, not verified, and binds nothing);
* ``mark``: ``<sup class="unchecked" title="…">※</sup>``, with a title that says what it rests on; a title naming a
  report, thread or issue needs the report linked under the same heading (``coverage/mark-without-link``). A ※
  statement is counted as ※ whatever else it carries: the page says it is not checked. Otherwise a run counts before
  a check, a check before a citation.

Anything else factual is **unbound**: ``coverage/unbound``, unless the site's committed debt list
(``coverage-debt.json``, :mod:`verl_cookbook.coverage_debt`) records it. A statement naming where a verl
release starts or ends ("since 0.8.0", "0.7.x and earlier", "自 0.9.0 起") needs a claim carrying the matching
``since=``/``until=``, which the release matrix checks on every covered release (``coverage/history-unbound``). A
hand-written sentence saying that every statement of the page was checked is ``coverage/blanket-checked``: the line
under each page's title is generated from these figures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from verl_cookbook import coverage_debt
from verl_cookbook.checks import Context
from verl_cookbook.checks.citations import find_citations
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import Page
from verl_cookbook.releases import covered_releases, default_release, version_key
from verl_cookbook.rules.coverage import (
    COVERAGE_BLANKET_CHECKED,
    COVERAGE_HISTORY_UNBOUND,
    COVERAGE_MARK_WITHOUT_LINK,
    COVERAGE_MARK_WITHOUT_TITLE,
    COVERAGE_UNBOUND,
)
from verl_cookbook.session import Session
from verl_cookbook.statements import Statement, read_statements
from verl_cookbook.verl_source import release_tree

# claim kinds that bind no sentence: a table's declaration, an explicit opt-out
NOT_BINDING = frozenset({"skip", "params"})
CATEGORIES = ("check", "run", "cited", "mark")

_CODE = re.compile(r"(`+)(.+?)\1")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?![\w])")
_FILE = re.compile(
    r"\b[\w.-]+\.(?:py|sh|yaml|yml|json|md|rst|cpp|cc|h|hpp|cmake|toml|txt|cfg|conf|so|whl)\b|\bREADME\b"
    r"|(?:^|\s)[\w.-]+/[\w.-]+/[\w./-]*"
)
BEHAVIOUR_EN = (
    "default", "defaults", "since", "require", "requires", "required", "must", "only", "always", "never", "fail",
    "fails", "failed", "raise", "raises", "error", "because", "cause", "causes", "therefore", "cannot", "not",
    "no longer", "missing", "ignore", "ignores", "ignored", "register", "registers", "import", "imports", "call",
    "calls", "write", "writes", "read", "reads", "load", "loads", "save", "saves", "support", "supports", "stops",
    "needs", "need", "flags", "fires", "holds", "returns", "deletes", "removes", "replaces", "overrides",
)  # fmt: skip
BEHAVIOUR_ZH = (
    "默认", "需要", "必须", "要求", "只", "仅", "总是", "从不", "失败", "报错", "抛出", "错误", "异常", "因为", "由于",
    "原因", "所以", "因此", "导致", "不会", "不能", "无法", "没有", "不支持", "未", "支持", "注册", "导入", "调用",
    "写入", "读取", "保存", "加载", "返回", "忽略", "覆盖", "删除", "建议", "不再", "起",
)  # fmt: skip
_EN_WORDS = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in BEHAVIOUR_EN) + r")\b", re.I)
_ZH_WORDS = re.compile("|".join(re.escape(w) for w in BEHAVIOUR_ZH))


LEAD_IN = 12  # characters (spaces left out) of a lead-in ending in a colon

# "相关链接：[verl #1](…)、[Mooncake #2](…)。": a labelled list of links says where to read more, not what is true
_REFERENCE_LABEL = re.compile(r"(?:参考|相关链接|相关参考|Related links|References?|See also)\s*[:：]\s*", re.I)
_LINK_WRITTEN = re.compile(r"\[[^\]]*\]\([^)\s]*\)")
_BETWEEN_LINKS = re.compile(r"(?:[\s、,，;；。.]|和|及|或|\band\b|\bor\b)*", re.I)


def is_reference_list(st: Statement) -> bool:
    """``st`` is a label (参考 / 相关链接 / Related links / References / See also) followed by links and nothing
    else: the links are sources to read, so the line needs no binding (a sentence beside them still does)."""
    label = _REFERENCE_LABEL.match(st.text)
    if label is None:
        return False
    rest, links = _LINK_WRITTEN.subn(" ", st.text[label.end() :])
    return links > 0 and _BETWEEN_LINKS.fullmatch(rest) is not None


def factual_signal(st: Statement) -> str | None:
    """Why ``st`` is factual (the first signal found: ``code``, ``number``, ``file``, ``behaviour``; ``marked`` for a
    statement its writer marked ※), None when it is not. A lead-in ending in a colon that is short (``因此：``) or
    right before a list (whose items are judged one by one) states nothing of its own unless it names a value; a
    labelled list of links (`is_reference_list`) states nothing."""
    plain = st.plain
    if is_reference_list(st):
        return None
    if _CODE.search(plain):
        return "code"
    if _NUMBER.search(plain):
        return "number"
    if _FILE.search(plain):
        return "file"
    if any(m.kind == "mark" for m in st.markers):
        return "marked"
    if plain.rstrip("*_ ").endswith((":", "：")) and (st.introduces_list or len(plain.replace(" ", "")) <= LEAD_IN):
        return None
    if _EN_WORDS.search(plain) or _ZH_WORDS.search(plain):
        return "behaviour"
    return None


# -- history: "since X", "X and earlier", "自 X 起" ------------------------------------------------------------------
_V = r"v?(0\.\d+(?:\.\d+|\.x)?)(?!\w|\.\d)"
_HISTORY = (
    ("since", re.compile(rf"\b(?:since|(?:starting|beginning) (?:with|in|from|at)|as of)\s+(?:verl\s+)?{_V}", re.I)),
    ("since", re.compile(rf"\bfrom\s+(?:verl\s+)?{_V}\s+(?:on|onwards?)\b", re.I)),
    ("since", re.compile(rf"(?:verl\s+)?{_V}\s+(?:and|or)\s+(?:later|newer|above)", re.I)),
    ("through", re.compile(rf"(?:verl\s+)?{_V}\s+(?:and|or)\s+(?:earlier|older|below)", re.I)),
    ("before", re.compile(rf"\b(?:before|prior to|until)\s+(?:verl\s+)?{_V}", re.I)),
    ("since", re.compile(rf"(?:自|从)\s*(?:verl\s*)?{_V}\s*(?:版本)?\s*(?:起|开始)")),
    ("since", re.compile(rf"(?:verl\s*)?{_V}\s*(?:版本)?\s*(?:起|开始|[及或](?:以后|之后|更新|更高|以上))")),
    ("through", re.compile(rf"(?:verl\s*)?{_V}\s*(?:版本)?\s*及(?:更早|以前|之前|更低)")),
    ("before", re.compile(rf"(?:verl\s*)?{_V}\s*(?:版本)?\s*(?:之前|以前)")),
    ("at", re.compile(rf"\bdefaults?\s+(?:in|of|for)\s+(?:verl\s+)?{_V}", re.I)),
    ("at", re.compile(rf"(?:verl\s*)?{_V}\s*(?:版本)?\s*(?:中|里)?\s*(?:的)?\s*默认")),
)
_ANY_VERSION = re.compile(r"(?<![\d.])v?0\.\d")
_NEWEST_MINOR = max(int(r.split(".")[1]) for r in covered_releases())
_RANGE_END = re.compile(r"\s*(?:to|through|until|-|–|到|至)\s*v?\d")
# a version right after one of these names is that product's, not verl's
_OTHER_PRODUCT = re.compile(
    r"(?:cann|vllm|vllm-ascend|sglang|mooncake|torch|torch_npu|torch-npu|transformers|python|cpython|glibc|hdk|pip|"
    r"ray|checkpoint-engine|megatron|megatron-bridge|hccl|triton|triton-ascend|numpy|driver|firmware|驱动|固件|"
    r"mooncake-transfer-engine|mooncake-transfer-engine-npu|ascend|pytorch)[\s\w-]{0,3}$",
    re.I,
)


@dataclass(frozen=True)
class History:
    """A statement's "since X" / "X and earlier" / "before X" about verl, and the bound a claim must carry."""

    words: str  # as written
    version: str  # the verl release named
    bound: str  # "since" | "until" | "at" (a claim that applies to that release)
    value: str | None  # the release the claim's bound must name; None: no covered release can serve

    def satisfied_by(self, attrs: dict[str, str]) -> bool:
        if self.value is None:
            return False
        if self.bound == "at":
            v = version_key(self.value)
            return ("since" not in attrs or version_key(attrs["since"]) <= v) and (
                "until" not in attrs or v < version_key(attrs["until"])
            )
        return attrs.get(self.bound) == self.value


def _release(written: str) -> str:
    """``0.9`` → ``0.9.0``; ``0.7.x`` stays (a series)."""
    return written if written.count(".") == 2 else f"{written}.0"


def history_of(st: Statement) -> History | None:
    """The first statement about where a verl release starts or ends that ``st`` makes, if any."""
    plain = st.plain.replace("`", "")
    if not _ANY_VERSION.search(plain):
        return None
    for kind, rx in _HISTORY:
        for m in rx.finditer(plain):
            verl = "verl" in m.group(0).lower()
            if not verl and (
                _OTHER_PRODUCT.search(plain[max(0, m.start() - 24) : m.start()]) or m.group(0).lstrip().startswith("v")
            ):
                continue
            if _RANGE_END.match(plain, m.end()) or int(m.group(1).split(".")[1]) > _NEWEST_MINOR + 1:
                continue  # "from 0.9.1 to 0.25.1": a range of some product's releases; "0.28.0": not a verl release
            written = _release(m.group(1))
            covered = covered_releases()
            if kind == "since":
                # "since" the oldest covered release: no earlier covered release can show the start, and the
                # matrix refuses a since= label it cannot verify, so no claim can hold the sentence
                return History(m.group(0), written, "since", written if written in covered[1:] else None)
            if kind == "before":
                return History(m.group(0), written, "until", written if written in covered else None)
            if kind == "at":
                if written == default_release():
                    continue  # the page's own release: its claims are checked on it anyway
                return History(m.group(0), written, "at", written if written in covered else None)
            series = written.removesuffix(".x")  # "0.7.x and earlier": until the first release after the series
            later = [r for r in covered if version_key(r) > version_key(series) and not r.startswith(series + ".")]
            return History(m.group(0), written, "until", later[0] if later else None)
    return None


# -- blanket claims: "every statement on this page was checked" -------------------------------------------------------
_CHECKED_ZH = r"(?:核对|检查(?!点)|验证)"
_BLANKET = (
    re.compile(
        r"(?:本页|本站)[^。；]*?(?:每一?[条个项处句]|所有|全部|各[条项]|一切)[^。；]*?" + _CHECKED_ZH + r"(?:过|了)?"
    ),
    re.compile(r"(?:本页|本站)[^。；]*?(?:均|都)已[^。；]*?" + _CHECKED_ZH),
    re.compile(
        r"\b(?:every|all|each)\b[^.;]{0,80}?\b(?:statements?|claims?|snippets?|causes?|constraints?|rules?|"
        r"commands?|options?|tables?|examples?|facts?)\b[^.;]{0,80}?\bon this (?:page|site)\b[^.;]{0,80}?"
        r"\b(?:checked|verified)\b",
        re.I,
    ),
)


_MODAL = re.compile(r"要能|应当|应该|必须|需要|\bmust\b|\bshould\b|\bhas to\b|\bneeds? to\b", re.I)


def is_blanket(st: Statement) -> bool:
    """Whether ``st`` says that everything (every statement, snippet, claim …) on the page or site was checked (not
    that it must be: a rule for writers is no claim)."""
    p = st.plain.replace("`", "")
    return any(rx.search(p) for rx in _BLANKET) and not _MODAL.search(p)


# -- judging a page -------------------------------------------------------------------------------------------------
@dataclass
class Judged:
    statement: Statement
    signal: str | None  # why it is factual; None: not factual
    bound: str | None  # "check" | "run" | "cited" | "mark" | None
    history: History | None = None  # a history statement its claims do not satisfy
    blanket: bool = False
    untitled_mark: bool = False  # a ※ without a title
    unlinked_report: str = ""  # the title of a ※ that rests on a report the sentence does not link

    @property
    def factual(self) -> bool:
        return self.signal is not None


@dataclass
class Figures:
    """What a page (or the site) has, coverage.py-style."""

    statements: int = 0
    factual: int = 0
    check: int = 0
    run: int = 0
    cited: int = 0
    mark: int = 0
    unbound: int = 0
    debt: int = 0  # of the unbound, those the debt list records
    pages: int = 0
    generated: int = 0  # statements of pages the tool writes (not judged)

    def add(self, other: Figures) -> None:
        for k in self.__dataclass_fields__:
            setattr(self, k, getattr(self, k) + getattr(other, k))

    @property
    def bound(self) -> int:
        return self.check + self.run + self.cited + self.mark

    @property
    def percent(self) -> float:
        """Bound share of the factual statements (100 when there are none)."""
        return 100.0 * (self.factual - self.unbound) / self.factual if self.factual else 100.0


@dataclass
class PageCoverage:
    path: str
    judged: list[Judged] = field(default_factory=list)
    generated: bool = False

    def figures(self, debt: int = 0) -> Figures:
        f = Figures(pages=1)
        if self.generated:
            f.generated = len(self.judged)
            f.mark = sum(1 for j in self.judged if j.bound == "mark")
            return f
        f.statements = len(self.judged)
        for j in self.judged:
            if not j.factual:
                continue
            f.factual += 1
            if j.bound is None:
                f.unbound += 1
            else:
                setattr(f, j.bound, getattr(f, j.bound) + 1)
        f.debt = min(debt, f.unbound)
        return f

    def unbound(self) -> list[Judged]:
        return [] if self.generated else [j for j in self.judged if j.factual and j.bound is None]


# a ※ title saying the statement rests on a report, a thread or an issue: the sentence links it
REPORTED = re.compile(r"report|thread|issue|discussion|报告|讨论|反馈", re.I)
_LINKED = re.compile(r"\]\(https?://|https?://|<https?://")
GENERATED = re.compile(r"<!--\s*generated:\s*(\S+?)\s*-->")


def _fence_holds(st: Statement) -> bool:
    block = st.introduces
    if block is None or block.attrs.get("check") in (None, "skip"):
        return False
    where = block.code + "\n" + block.info
    tokens = [m.group(2).strip() for m in _CODE.finditer(st.plain)]
    tokens += [m.group(0) for m in _NUMBER.finditer(_CODE.sub(" ", st.plain))]
    return all(t in where for t in tokens)


def citation_package(memo: Session | None = None) -> Path:
    """verl's package folder of the pinned release, as shipped (no network): where citations resolve. Pages speak
    about the pinned release whatever tree a check reads, so their coverage does too. Found once a run (``memo``)."""
    release = default_release()
    if memo is not None and release in memo.coverage_packages:
        return memo.coverage_packages[release]
    tree = release_tree(release)
    package = tree.package if tree is not None else Path("verl")
    if memo is not None:
        memo.coverage_packages[release] = package
    return package


def judge_page(page: Page, package: Path, memo: Session | None = None) -> PageCoverage:
    """Every statement of ``page``, judged: factual or not, and what binds it."""
    out = PageCoverage(page.path, generated=bool(GENERATED.search(page.text)))
    statements = read_statements(page)
    cites = [c for c in find_citations(page.text, package, memo) if c.path and c.in_wheel]
    k = 0
    linked = {st.section for st in statements if _LINKED.search(st.text)}  # sections that link a source
    for st in statements:
        while k < len(cites) and cites[k].start < st.start:
            k += 1
        cited = k < len(cites) and cites[k].start < st.end
        checks = [m for m in st.markers if m.kind == "check" and m.name not in NOT_BINDING]
        marks = [m for m in st.markers if m.kind == "mark"]
        titled = [m for m in marks if m.name]
        if titled:
            bound: str | None = "mark"
        elif any(m.kind == "run" for m in st.markers):
            bound = "run"
        elif checks or _fence_holds(st):
            bound = "check"
        elif cited:
            bound = "cited"
        else:
            bound = None
        history = history_of(st)
        if history is not None and (titled or any(history.satisfied_by(dict(m.attrs)) for m in checks)):
            history = None
        report = next((m.name for m in titled if REPORTED.search(m.name)), "")
        out.judged.append(
            Judged(
                st,
                factual_signal(st),
                bound,
                history,
                is_blanket(st),
                untitled_mark=bool(marks) and not titled,
                unlinked_report="" if not report or st.section in linked else report,
            )
        )
    return out


def first_words(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


@dataclass
class Assessment:
    """A page's coverage: its judged statements, the findings they draw, and how many unbound ones the site's debt
    list records (those draw none)."""

    coverage: PageCoverage
    findings: list[Finding]
    recorded: list[tuple[str, Judged]] = field(default_factory=list)  # (rule, statement) the debt list records

    @property
    def figures(self) -> Figures:
        unbound = {id(j) for j in self.coverage.unbound()}
        return self.coverage.figures(debt=len({id(j) for _, j in self.recorded if id(j) in unbound}))

    def is_recorded(self, j: Judged) -> bool:
        return any(r is j for _, r in self.recorded)


def assess(page: Page, root: Path, memo: Session | None = None) -> Assessment:
    """Judge every statement of ``page`` (a page of the site at ``root``) and turn what is wrong into findings:
    ``coverage/unbound``, ``coverage/history-unbound``, ``coverage/blanket-checked``,
    ``coverage/mark-without-title``, and ``coverage/debt-fixed`` for the page's debt entries that match nothing."""
    cov = judge_page(page, citation_package(memo), memo)
    out = Assessment(cov, [])
    if cov.generated:
        return out
    debt = coverage_debt.for_page(root, page.path, memo)
    for j in cov.judged:
        st = j.statement
        at = (page.path, st.line, st.col)
        said = {"words": first_words(st.text), "text": st.text}
        if j.untitled_mark:
            out.findings.append(COVERAGE_MARK_WITHOUT_TITLE.at(*at, **said))
        if j.unlinked_report and debt.take(COVERAGE_MARK_WITHOUT_LINK, st.text):
            out.recorded.append((COVERAGE_MARK_WITHOUT_LINK, j))
        elif j.unlinked_report:
            out.findings.append(COVERAGE_MARK_WITHOUT_LINK.at(*at, title=j.unlinked_report, **said))
        if j.blanket and debt.take(COVERAGE_BLANKET_CHECKED, st.text):
            out.recorded.append((COVERAGE_BLANKET_CHECKED, j))
        elif j.blanket:
            out.findings.append(COVERAGE_BLANKET_CHECKED.at(*at, **said))
        if not j.factual or j.bound == "mark":
            continue
        if j.history is not None:
            if debt.take(COVERAGE_HISTORY_UNBOUND, st.text):
                out.recorded.append((COVERAGE_HISTORY_UNBOUND, j))
            else:
                out.findings.append(_history_finding(j, at, said))
            continue
        if j.bound is None:
            if debt.take(COVERAGE_UNBOUND, st.text):
                out.recorded.append((COVERAGE_UNBOUND, j))
                continue
            out.findings.append(COVERAGE_UNBOUND.at(*at, signal=j.signal or "", **said))
    out.findings.extend(debt.stale())
    return out


def _history_finding(j: Judged, at: tuple[str, int, int], said: dict[str, str]) -> Finding:
    h = j.history
    assert h is not None
    if h.value is None:
        case = "oldest" if h.bound == "since" and h.version == covered_releases()[0] else "uncovered"
        return COVERAGE_HISTORY_UNBOUND.at(
            *at, case=case, version=h.version, said=h.words, covered=covered_releases(), **said
        )
    case = "at" if h.bound == "at" else ""
    bound = {} if case else {"bound": h.bound}
    return COVERAGE_HISTORY_UNBOUND.at(*at, case=case, said=h.words, value=h.value, **bound, **said)


def check_coverage(page: Page, ctx: Context) -> list[Finding]:
    """The coverage findings of one page of a check run (none for another project's docs read ``--lenient``, nor
    for reStructuredText)."""
    if ctx.options.get("lenient") or not page.path.endswith((".md", ".markdown")):
        return []
    from verl_cookbook.checks.run_markers import check_run_markers

    markers, _ = check_run_markers(page, ctx.root)
    if GENERATED.search(page.text):
        return markers  # a generated page's statements are not judged one by one
    return markers + assess(page, ctx.root, ctx.session).findings
