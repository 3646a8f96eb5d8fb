"""Search as a reader uses it, in both languages: every query of the set finds its page in the top three,
and the set goes red on a copy of the site where one part of the fix is undone."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.browser.conftest import serve
from tests.browser.search_queries import CHINESE, CHINESE_QUESTIONS, ENGLISH
from tests.browser.test_site_in_browser import hit_pages, open_page
from tests.built_site import built_site

pytestmark = pytest.mark.browser

QUERY_SETS = {"en/": ENGLISH, "": CHINESE + CHINESE_QUESTIONS}


NO_COUNT = "el => !/\\d/.test(el.textContent)"  # the result count is gone: the box was emptied
COUNTED = "el => /\\d|[Nn]o matching|没有/.test(el.textContent)"  # a result count (or none found) for the query


def _type(page, text: str) -> None:
    box = page.locator("input.md-search__input")
    box.fill(text)
    box.press("End")  # Material searches on keyup; fill() inserts CJK text without key events, as an IME would


def _wait(page, condition: str) -> None:
    page.wait_for_function(condition, arg=page.locator(".md-search-result__meta").element_handle())


def _hits(page, root: str) -> list[str]:
    hrefs = page.eval_on_selector_all(".md-search-result__item > a", "els => els.map(e => e.href)")
    out: list[str] = []
    for h in hit_pages(hrefs):
        rel = h.removeprefix(root)
        if rel not in out:
            out.append(rel)
    return out


def ranked_pages(pages: list, root: str, queries: list[str]) -> list[list[str]]:
    """For each of ``pages`` (tabs with the search box open) and the query typed there, the distinct pages
    (site-relative, best first) Material lists; [] when none match.

    Each box is emptied first and its result count waited for, so a result list is never the previous one's. The
    tabs are driven step by step together: while one tab's search worker answers, the next tab is typed into.
    """
    for page in pages:
        _type(page, "")
    for page in pages:
        _wait(page, NO_COUNT)
    for page, query in zip(pages, queries, strict=True):
        _type(page, query)
    for page in pages:
        _wait(page, COUNTED)
    return [_hits(page, root) for page in pages]


def _missed(queries: list[tuple[str, str]], ranked: list[list[str]]) -> list[str]:
    return [
        f"{query!r}: {expected} not in the top 3 of {got[:5]}"
        for (query, expected), got in zip(queries, ranked, strict=True)
        if expected not in got[:3]
    ]


# Material's own search worker, as the page starts it: the script and the SETUP message (the index Material fetched,
# through the page script's language and lazy-load rewrite) are kept for a second worker that answers the test alone.
KEEP_SEARCH_WORKER = """(() => {
  const Native = window.Worker;
  const post = Native.prototype.postMessage;
  window.__searchWorker = {};
  window.Worker = function (url, options) {
    const worker = new Native(url, options);
    if (!window.__searchWorker.url) window.__searchWorker = { url: url, worker: worker };
    return worker;
  };
  window.Worker.prototype = Native.prototype;
  Native.prototype.postMessage = function (message) {
    if (message && message.type === 0 && this === window.__searchWorker.worker) window.__searchWorker.setup = message;
    return post.apply(this, arguments);
  };
})();"""

# Each query goes to a second worker made from Material's script and SETUP message, through the same
# Worker.prototype.postMessage the page script wraps (its flag and Chinese query rewrite apply), and the result
# groups come back in the order Material lists them; no box is typed into and no result list is drawn.
RANK_BY_WORKER = """async (queries) => {
  const kept = window.__searchWorker;
  const base = new URL(JSON.parse(document.getElementById("__config").textContent).base, location.href);
  const worker = new Worker(kept.url);
  const next = (type) => new Promise((resolve) => {
    const seen = (ev) => {
      if (ev.data.type !== type) return;
      worker.removeEventListener("message", seen);
      resolve(ev.data.data);
    };
    worker.addEventListener("message", seen);
  });
  const ready = next(1);  // SearchMessageType.READY
  worker.postMessage(kept.setup);
  await ready;
  const out = [];
  for (const query of queries) {
    const result = next(3);  // SearchMessageType.RESULT
    worker.postMessage({ type: 2, data: query });  // SearchMessageType.QUERY, the box's text as Material sends it
    out.push((await result).items.map((group) => new URL(group[0].location, base).href));
  }
  worker.terminate();
  return out;
}"""


def ranked_by_worker(browser, root: str, start: str, queries: list[str]) -> list[list[str]]:
    """For each of ``queries``, the distinct pages (site-relative, best first) Material's search worker ranks on
    ``start`` (a fresh context, the search box clicked so the page script releases the index)."""
    page, ctx, _traffic = open_page(browser, root + start, init_script=KEEP_SEARCH_WORKER)
    page.locator("input.md-search__input").click()
    page.wait_for_function("() => window.__searchWorker.setup !== undefined")
    ranked = page.evaluate(RANK_BY_WORKER, queries)
    ctx.close()
    out = []
    for hrefs in ranked:
        pages: list[str] = []
        for h in hit_pages(hrefs):
            if h.removeprefix(root) not in pages:
                pages.append(h.removeprefix(root))
        out.append(pages)
    return out


def misses(browser, root: str, start: str, queries: list[tuple[str, str]]) -> list[str]:
    """Every query of ``queries`` on ``start`` whose page is not among the first three Material's worker ranks
    (the box's result list shows them in that order: held by the typed sample below)."""
    return _missed(queries, ranked_by_worker(browser, root, start, [q for q, _ in queries]))


@pytest.fixture(scope="module")
def site_root() -> Iterator[str]:
    with serve(built_site().path) as url:
        yield url


@pytest.fixture(scope="module")
def worker_ranks(browser, site_root) -> Callable[[str], dict[str, list[str]]]:
    """For a start page, each query of its language's set and the pages Material's worker ranks for it, asked of one
    worker once for the module: the whole set's test and the typed sample's read the same ranking (the worker answers
    each query on its own, so a query's ranking is the same whichever queries are asked with it)."""
    ranked: dict[str, dict[str, list[str]]] = {}

    def of(start: str) -> dict[str, list[str]]:
        if start not in ranked:
            queries = list(dict.fromkeys(q for q, _ in QUERY_SETS[start]))
            ranked[start] = dict(zip(queries, ranked_by_worker(browser, site_root, start, queries), strict=True))
        return ranked[start]

    return of


@pytest.mark.parametrize("start", ["en/", ""], ids=["english", "chinese"])
def test_every_query_of_the_set_finds_its_page_in_the_top_three(worker_ranks, start):
    queries = QUERY_SETS[start]
    assert len(queries) >= 30
    missed = _missed(queries, [worker_ranks(start)[q] for q, _ in queries])
    assert not missed, f"/{start}: {len(missed)} of {len(queries)} queries miss:\n" + "\n".join(missed)


def typed_sample(queries: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Every sixteenth query of the set, and every one the page script rewrites as a flag or a key (a leading dash, a
    colon); the 中文 set's Chinese queries are rewritten by its segmentation, so every sixteenth is one of them. The
    whole set is ranked by the worker; typing is slow, so a sample holds that the box shows the worker's order."""
    return [(q, page) for n, (q, page) in enumerate(queries) if n % 16 == 0 or re.search(r"(^|\s)-|\w:(\s|$)", q)]


@pytest.mark.parametrize("start", ["en/", ""], ids=["english", "chinese"])
def test_typed_queries_list_the_pages_in_the_order_the_worker_ranks_them(browser, site_root, worker_ranks, start):
    """The set is judged on the worker's ranking; this holds that a reader typing into the box sees that ranking."""
    sample = typed_sample(QUERY_SETS[start])
    assert len(sample) >= 15
    assert any(q.startswith("--") for q, _ in sample), "a flag the page script rewrites"
    opened = [open_page(browser, site_root + start) for _ in range(2)]
    pages = [page for page, _ctx, _traffic in opened]
    for page in pages:
        page.locator("input.md-search__input").click()
    typed: list[list[str]] = []
    for at in range(0, len(sample), 2):
        batch = [q for q, _ in sample[at : at + 2]]
        typed += ranked_pages(pages[: len(batch)], site_root, batch)
    for _page, ctx, _traffic in opened:
        ctx.close()
    worker = [worker_ranks(start)[q] for q, _ in sample]
    differ = [
        f"{q!r}: typed {t[:5]}, worker {w[:5]}"
        for (q, _), t, w in zip(sample, typed, worker, strict=True)
        if t[:5] != w[:5]
    ]
    assert not differ, "\n".join(differ)


def test_the_query_set_covers_what_readers_type():
    """Single words, phrases, identifiers, file names, error strings, flags and mixed 中文/English."""
    for queries in QUERY_SETS.values():
        texts = [q for q, _ in queries]
        assert any(" " not in q and q.isalpha() for q in texts), "single words"
        assert any(len(q.split()) >= 2 for q in texts), "phrases"
        assert any("_" in q for q in texts), "identifiers"
        assert any(re.search(r"\w\.\w", q) for q in texts), "file or module names"
        assert any(len(q.split()) >= 4 for q in texts), "pasted error strings"
        assert any(q.startswith("--") for q in texts), "command-line flags"
    assert any(re.search(r"[\u4e00-\u9fff]", q) and re.search(r"[A-Za-z]", q) for q, _ in CHINESE), "mixed"


def test_the_question_set_has_thirty_questions_as_readers_ask_them():
    texts = [q for q, _ in CHINESE_QUESTIONS]
    assert len(set(texts)) >= 30 and not set(texts) & {q for q, _ in CHINESE}, "30 new queries"
    assert sum(bool(re.search(r"能否|怎么|吗|哪些|哪个|为什么|能不能", q)) for q in texts) >= 8, "whole questions"
    assert any(re.search(r"[\u4e00-\u9fff][A-Za-z]|[A-Za-z][\u4e00-\u9fff]", q) for q in texts), "Latin inside Chinese"


# ---- the set goes red when a part of the fix is undone on a copy -----------------------------------------------

OLD_SEPARATOR = (
    '[\\s\\u200b\\u3000\\-_,:!=\\[\\]()"`/、。，．？！；：（）《》“”]+|\\.(?!\\d)|&[lg]t;|(?!\\b)(?=[A-Z][a-z])'
)


def _rewrite_indexes(site: Path, change: Callable[[dict], None]) -> None:
    for path in (site / "search" / "search_index.json", site / "en" / "search" / "search_index.json"):
        index = json.loads(path.read_text(encoding="utf-8"))
        change(index)
        path.write_text(json.dumps(index, ensure_ascii=False), encoding="utf-8")


def stem_the_index_only(site: Path) -> None:
    """What Material does by default here: the index is stemmed, the query's ``term*`` wildcards are not."""
    _rewrite_indexes(site, lambda index: index["config"].update(pipeline=["stemmer"]))


def split_identifiers_apart(site: Path) -> None:
    """The old separator: ``_``, every dot and camelCase humps split, so ``hccn.conf`` is two terms and ``conf*`` is
    everywhere, ``update_weights_bucket_megabytes`` is four common words, and ``destroyComm`` searches ``comm*``,
    which every Command/Comment/Commit heading matches."""
    _rewrite_indexes(site, lambda index: index["config"].update(separator=OLD_SEPARATOR))


def drop_identifier_parts(site: Path) -> None:
    """No hidden field of identifier suffixes: ``bucket_megabytes`` stops finding ``update_weights_bucket_…``."""

    def change(index: dict) -> None:
        index["config"]["fields"].pop("parts")
        for doc in index["docs"]:
            doc.pop("parts", None)

    _rewrite_indexes(site, change)


def _rewrite_page_script(site: Path, old: str, new: str) -> None:
    """Every page's inline search script with ``old`` replaced; fails when no page has ``old`` (the breakage would
    undo nothing and prove nothing)."""
    found = 0
    for page in site.rglob("index.html"):
        html = page.read_text(encoding="utf-8")
        found += html.count(old)
        page.write_text(html.replace(old, new), encoding="utf-8")
    assert found, f"no page script has {old!r}: the breakage is stale"


def no_query_segmentation(site: Path) -> None:
    """Without the page script's segmentation, a Chinese question goes to Material's segmenter as one run."""
    _rewrite_page_script(site, "learn(message.data);", "void 0;")


def keep_flag_dashes(site: Path) -> None:
    """Without the query rewrite in the page script, ``--lenient`` reads as 'exclude lenient' and ``dcmi -8005`` as
    'dcmi but not 8005'."""
    _rewrite_page_script(site, "Worker.prototype.postMessage = function", "void function")


def keep_stop_words(site: Path) -> None:
    """Without dropping function words from the query, a pasted error ranks sections on "can", "not", "be"."""
    _rewrite_page_script(site, "dropStopWords(segment(", "(segment(")


def no_name_shapes(site: Path) -> None:
    """Without the shape of a pasted name in the query, ``model_world_size_2_rank_0.pt`` matches no word of the index
    (the pages write ``model_world_size_{W}_rank_{r}.pt``)."""
    _rewrite_page_script(site, "var query = addShapes(", "var query = (")


@pytest.mark.parametrize(
    ("breakage", "start", "must_miss"),
    [
        (stem_the_index_only, "en/", ["configuration", "cupy", "on_save"]),
        # not engine_kwargs: its page has a heading "HCCL engine kwargs", so it is found split or whole
        # not update_weights_bucket_megabytes: split, its words name the choosing page's section on a weight update
        (split_identifiers_apart, "en/", ["hccn.conf", "destroyComm"]),
        (drop_identifier_parts, "en/", ["bucket_megabytes"]),
        (keep_flag_dashes, "", ["--lenient", "dcmi -8005"]),
        (keep_stop_words, "en/", ["/etc/hccn.conf can not be found"]),
        (no_name_shapes, "en/", ["model_world_size_2_rank_0.pt", "global_step_37"]),
        (no_name_shapes, "", ["model_world_size_2_rank_0.pt"]),
        (no_query_segmentation, "", ["能否支持断点续训", "支持断点续训", "怎么断点续训", "端口和ip占用冲突"]),
    ],
    ids=lambda v: v.__name__ if callable(v) else None,
)
def test_the_query_set_goes_red_on_a_copy_with_part_of_the_fix_undone(browser, tmp_path, breakage, start, must_miss):
    affected = [(q, page) for q, page in QUERY_SETS[start] if q in must_miss]
    assert len(affected) == len(must_miss), "the queries a breakage must fail are queries of the set"
    site = tmp_path / "site"
    shutil.copytree(built_site().path, site)
    breakage(site)
    with serve(site) as root:
        missed = misses(browser, root, start, affected)
    for query in must_miss:
        assert any(m.startswith(repr(query) + ":") for m in missed), f"{breakage.__name__}: {query!r} still found"
