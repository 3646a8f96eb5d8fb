"""mkdocs hook: one search index per language, written as UTF-8, fetched only when search is first used.

mkdocs-static-i18n (1.3) merges every language into the one ``search/search_index.json`` that Material
loads on every page, so a search on /en/ also lists 中文 pages and the reverse; neither the i18n plugin nor
Material has an option for a per-language index (Material expects one language per build). So, after the
last build:

* the merged index is split by page location: ``search/search_index.json`` keeps the default language's
  pages, ``<locale>/search/search_index.json`` each other language's (locations stay site-relative, as
  Material resolves them against the site root);
* each is written as compact UTF-8 instead of ``\\uXXXX`` escapes (6 bytes a Chinese character or jieba's
  U+200B, against 3), about a third smaller;
* each entry gets a ``parts`` field, indexed but never shown, holding every suffix of the compound
  identifiers in its text (``checkpoint_engine.engine_kwargs`` → ``engine_kwargs``, ``kwargs``;
  ``destroyComm`` → ``comm``): the separator in mkdocs.yml keeps identifiers whole, camelCase included,
  so a pasted ``engine_kwargs``, ``hccn.conf`` or ``destroyComm`` matches as one term, and the suffixes
  let a part of one (``kwargs``, ``megabytes``, ``CheckpointEngine``) match too. Material
  indexes every field listed in the index's ``config.fields``, and splits the query with the same
  separator, so index and query are processed alike;
* every page gets, before Material's bundle, a small inline script (search_per_language.js) that sends
  Material's index request to the page's own language index and holds it until the search box is first
  used, so a first visit does not download an index it may never use.

Material's ``base`` stays the site root, so mike's ``../versions.json`` and version folders resolve as before.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.pages import Page

INDEX = "search/search_index.json"
SHIM = Path(__file__).with_name("search_per_language.js")
_BUNDLE = re.compile(r'<script src="[^"]*assets/javascripts/bundle\.[0-9a-f]+\.min\.js"></script>')


def index_path(locale: str, default: str) -> str:
    """Where ``locale``'s index is written, relative to the site root."""
    return INDEX if locale == default else f"{locale}/{INDEX}"


def language_of(location: str, locales: list[str], default: str) -> str:
    """The language of a search entry, from its site-relative location (``en/x/#y`` → ``en``)."""
    for locale in locales:
        if locale != default and (location.split("#", 1)[0] + "/").startswith(f"{locale}/"):
            return locale
    return default


def split(index: dict[str, Any], locales: list[str], default: str) -> dict[str, dict[str, Any]]:
    """One index per locale: the same config (its ``lang`` kept to the locale and English, which code names
    are in every language) and only that locale's entries."""
    out: dict[str, dict[str, Any]] = {}
    config = index.get("config", {})
    for locale in locales:
        langs = [lang for lang in config.get("lang", []) if lang in (locale, "en")] or config.get("lang", [])
        docs = [d for d in index.get("docs", []) if language_of(d.get("location", ""), locales, default) == locale]
        out[locale] = {**index, "config": {**config, "lang": langs}, "docs": docs}
    return out


PARTS_FIELD = "parts"
# an identifier: ASCII words joined by ``_`` or ``.`` (a dot only between word characters, as the separator)
_COMPOUND = re.compile(r"(?<![\w.])[A-Za-z0-9]+(?:(?:_+|\.)[A-Za-z0-9]+)*(?![\w]|\.\w)", re.ASCII)
# where one of its parts starts: after ``_`` or ``.``, and at a camelCase hump (where Material's default
# separator would split: before a capital followed by a small letter, destroy|Comm, HCCL|Checkpoint|Engine)
_JOINT = re.compile(r"_+|\.|(?<=[A-Za-z0-9])(?=[A-Z][a-z])", re.ASCII)
_TAG = re.compile(r"<[^>]+>")


def _plain(text: str) -> str:
    """``text`` with HTML tags and escaped angle brackets turned into spaces."""
    return _TAG.sub(" ", text).replace("&lt;", " ").replace("&gt;", " ")


def identifier_suffixes(text: str) -> list[str]:
    """Every suffix, at a ``_``, ``.`` or camelCase joint, of the compound identifiers in ``text`` (HTML tags
    ignored), lower-cased, each once: ``engine_kwargs.nccl`` → ``kwargs.nccl``, ``nccl``; ``destroyComm`` →
    ``comm``."""
    out: dict[str, None] = {}
    for m in _COMPOUND.finditer(_plain(text)):
        word = m.group(0)
        if word.replace(".", "").isdigit():  # a version (0.9.1) is a term as it is
            continue
        for joint in _JOINT.finditer(word):
            out.setdefault(word[joint.end() :].lower(), None)
    return list(out)


# A file or folder name with numbers in it: the pages write it with a placeholder (``global_step_N``,
# ``model_world_size_{W}_rank_{r}.pt``), a reader pastes the one on disk (``global_step_100``,
# ``model_world_size_2_rank_0.pt``) and found nothing (users40a). Both sides get a shape in which every placeholder
# part becomes ``n``: a ``{name}``, and a number or a lone capital next to an ``_`` (a number between dots is a
# version, 0.9.1, Qwen2.5, and keeps its digits). The index holds the pages' shapes and their suffixes (``rank_n.pt``)
# in the hidden field; the page script adds the shape of each such word of a query (search_per_language.js,
# ``addShapes``), so both meet at ``model_world_size_n_rank_n.pt``.
_SHAPED = re.compile(
    r"(?<![\w.{}])(?:[A-Za-z0-9]+|\{\w+\})(?:(?:_+|\.)(?:[A-Za-z0-9]+|\{\w+\}))+(?![\w{}]|\.\w)", re.ASCII
)
_BY_UNDERSCORE = re.compile(r"\d+|[A-Z]", re.ASCII)
_SHAPE_JOINT = re.compile(r"(_+|\.)")


def shape_of(name: str) -> list[str]:
    """``name`` split at its joints (``["rank", "_", "0", ".", "pt"]``) with each placeholder part made ``n``;
    [] when it has none."""
    pieces = _SHAPE_JOINT.split(name)
    changed = False
    for i in range(0, len(pieces), 2):
        word = pieces[i]
        beside = pieces[max(i - 1, 0) : i] + pieces[i + 1 : i + 2]
        if (word.startswith("{") and word.endswith("}")) or (
            _BY_UNDERSCORE.fullmatch(word) and any(j.startswith("_") for j in beside)
        ):
            pieces[i] = "n"
            changed = True
        else:
            pieces[i] = word.lower()
    return pieces if changed else []


def identifier_shapes(text: str) -> list[str]:
    """The shape (``shape_of``) of each compound name in ``text`` that has a placeholder part, and each suffix of the
    shape at an ``_`` or ``.`` that starts with a word (``n.pt`` alone would match every file name), lower-cased,
    each once: ``checkpoints/global_step_100/actor`` → ``global_step_n``, ``step_n``."""
    out: dict[str, None] = {}
    for m in _SHAPED.finditer(_plain(text)):
        pieces = shape_of(m.group(0))
        for start in range(0, len(pieces) - 2, 2):
            if pieces[start] != "n":
                out.setdefault("".join(pieces[start:]), None)
    return list(out)


def add_parts(index: dict[str, Any]) -> dict[str, Any]:
    """``index`` with a hidden ``parts`` field: identifier suffixes and shapes of each entry's text (see the module
    doc and ``identifier_shapes``)."""
    config = index.get("config", {})
    fields = {**config.get("fields", {}), PARTS_FIELD: {"boost": 1.0}}
    docs = []
    for doc in index.get("docs", []):
        text = doc.get("title", "") + " " + doc.get("text", "")
        parts = list(dict.fromkeys(identifier_suffixes(text) + identifier_shapes(text)))
        docs.append({**doc, PARTS_FIELD: " ".join(parts)} if parts else doc)
    return {**index, "config": {**config, "fields": fields}, "docs": docs}


# lunr 2.3.9 (bundled in Material's search worker) keys TokenSet nodes, when it merges equal ones, by each edge's
# letter followed by the child's numeric id with nothing between: edges {1→234} and {1→2, 3→4} both give
# "01234", so two different nodes merge and a prefix query expands to a word that is in no document; lunr then
# throws reading its posting ("Cannot read properties of undefined (reading '_index')") and Material shows
# "No matching documents". Which words collide depends on every word of the index, so any page edit can
# break an unrelated query (it broke "whitelist" once camelCase words stopped being split). The key gets a
# delimiter between letter and id.
# The maintainers' pages and the reference pages rank below the recipes. Their long lists (every rule's message, every
# setting and engine argument of verl) hold the words of almost any error message, so for a pasted error
# or a plain question they took top-5 places from the entry that answers it (users39a/users40a testers: "spin ref
# load_checkpoint", "Keys only on rank 0 param_state"). Material multiplies a document's score by its ``boost``;
# a page still comes first when it is the only one that matches. The doctor, checker and stack pages are readers'
# pages (checking a launch script, which versions go together) and keep their weight. Longest prefix of the page's
# source path (language suffix dropped) wins.
SEARCH_BOOST = {
    "tools/rules": 0.3,
    "tools/drift": 0.5,
    "tools/verl-ci": 0.5,
    "reference/": 0.5,
    "compat/": 0.5,
    "contributing": 0.5,
}


def search_boost(src_uri: str) -> float | None:
    """The search boost of the page at ``src_uri`` (``tools/rules.en.md``), or None for the default (1)."""
    stem = re.sub(r"(\.[a-z]{2})?\.md$", "", src_uri)
    best = max((p for p in SEARCH_BOOST if stem.startswith(p)), key=len, default=None)
    return None if best is None else SEARCH_BOOST[best]


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Any) -> str:
    boost = search_boost(page.file.src_uri)
    if boost is not None:  # read by Material's search plugin in on_page_context, after this
        page.meta["search"] = {**(page.meta.get("search") or {}), "boost": boost}
    return markdown


WORKER_GLOB = "assets/javascripts/workers/search.*.min.js"
LUNR_NODE_KEY = "e=e+s+o.id}return e"
LUNR_NODE_KEY_FIXED = 'e=e+s+":"+o.id+";"}return e'


def fix_lunr_node_key(worker: str, where: str) -> str:
    """``worker`` with lunr's TokenSet node key made unambiguous (see LUNR_NODE_KEY); PluginError when the
    minified code is not there (a Material upgrade: check whether its lunr still has the bug)."""
    if LUNR_NODE_KEY_FIXED in worker:
        return worker
    if worker.count(LUNR_NODE_KEY) != 1:
        raise PluginError(f"search_per_language hook: lunr's TokenSet.toString not found once in {where}")
    return worker.replace(LUNR_NODE_KEY, LUNR_NODE_KEY_FIXED)


def write_utf8(path: Path, data: dict[str, Any]) -> None:
    """``data`` as compact UTF-8 JSON (no ASCII escapes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def script_tag(locale: str, default: str) -> str:
    """The inline ``<script>`` that makes a ``locale`` page fetch its own index, on first use."""
    own = json.dumps(index_path(locale, default))
    return "<script>" + SHIM.read_text(encoding="utf-8").replace("__OWN_INDEX__", own).strip() + "</script>"


def inject(html: str, locale: str, default: str, where: str) -> str:
    """``html`` with the search script placed right before Material's bundle."""
    m = _BUNDLE.search(html)
    if m is None:
        raise PluginError(f"search_per_language hook: no Material bundle <script> found on {where}")
    return html[: m.start()] + script_tag(locale, default) + "\n  " + html[m.start() :]


def _languages(config: MkDocsConfig) -> tuple[list[str], str, str] | None:
    """(locales, default locale, locale being built) from mkdocs-static-i18n; None without it."""
    i18n = config.plugins.get("i18n")
    if i18n is None:
        return None
    return list(i18n.all_languages), i18n.default_language, i18n.current_language or i18n.default_language


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    langs = _languages(config)
    if langs is None:
        return output
    _, default, current = langs
    return inject(output, getattr(page.file, "locale", None) or current, default, page.url or "/")


def on_post_template(output_content: str, template_name: str, config: MkDocsConfig) -> str:
    langs = _languages(config)
    if langs is None or not template_name.endswith(".html") or not _BUNDLE.search(output_content):
        return output_content  # sitemap.xml and the like
    _, default, current = langs
    return inject(output_content, current, default, template_name)


@event_priority(-200)  # after the search plugin and mkdocs-static-i18n (-100) have written the merged index
def on_post_build(config: MkDocsConfig) -> None:
    site = Path(config.site_dir)
    for worker in site.glob(WORKER_GLOB):
        worker.write_text(fix_lunr_node_key(worker.read_text(encoding="utf-8"), str(worker)), encoding="utf-8")
    merged = site / INDEX
    langs = _languages(config)
    if not merged.is_file():
        return
    data = add_parts(json.loads(merged.read_text(encoding="utf-8")))
    if langs is None:
        write_utf8(merged, data)
        return
    locales, default, _ = langs
    for locale, part in split(data, locales, default).items():
        write_utf8(site / index_path(locale, default), part)
