"""The site builds with ``mkdocs build --strict`` and is what the brief asks for: bilingual, offline, searchable."""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml
from mkdocs.exceptions import PluginError

from tests.built_site import REPO, built_site
from verl_cookbook.cjk_line_breaks import joins
from verl_cookbook.releases import covered_releases

sys.path.insert(0, str(REPO / "scripts" / "hooks"))
import i18n_log  # noqa: E402
import i18n_relative_links  # noqa: E402
import jieba_quiet  # noqa: E402
import search_per_language  # noqa: E402
import search_preview  # noqa: E402
import sitemap_requests  # noqa: E402
import version_selector  # noqa: E402

API_CLASSES = [
    "verl.checkpoint_engine.base.CheckpointEngine",
    "verl.checkpoint_engine.base.CheckpointEngineRegistry",
    "verl.checkpoint_engine.nccl_checkpoint_engine.NCCLCheckpointEngine",
    "verl.checkpoint_engine.hccl_checkpoint_engine.HCCLCheckpointEngine",
    "verl.checkpoint_engine.nixl_checkpoint_engine.NIXLCheckpointEngine",
    "verl.checkpoint_engine.kimi_checkpoint_engine.KIMICheckpointEngine",
    "verl.checkpoint_engine.mooncake_checkpoint_engine.MooncakeCheckpointEngine",
    "verl.checkpoint_engine.delta_checkpoint_engine.DeltaShardedCheckpointEngine",
]


class _Loader(yaml.SafeLoader):
    pass


_Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)


def mkdocs_config() -> dict:
    return yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)


def nav_files(nav: list) -> list[str]:
    out = []
    for item in nav:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        if isinstance(value, list):
            out += nav_files(value)
        elif isinstance(value, str) and not value.startswith(("http://", "https://")):
            out.append(value)
    return out


def site_pages(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("index.html"))


# ---- configuration --------------------------------------------------------------------------------------------


def test_every_docs_page_is_in_the_nav():
    listed = set(nav_files(mkdocs_config()["nav"]))
    pages = {p.relative_to(REPO / "docs").as_posix() for p in (REPO / "docs").rglob("*.md")}
    missing = sorted(p for p in pages if not p.endswith(".en.md") and p not in listed)
    assert not missing, f"pages not in mkdocs.yml's nav: {missing}"


def test_griffe_is_told_never_to_import_verl():
    options = mkdocs_config()["plugins"]
    mkdocstrings = next(p["mkdocstrings"] for p in options if isinstance(p, dict) and "mkdocstrings" in p)
    python = mkdocstrings["handlers"]["python"]["options"]
    assert python["allow_inspection"] is False and python["force_inspection"] is False


def test_theme_loads_no_google_fonts():
    assert mkdocs_config()["theme"]["font"] is False


# ---- the hooks, as functions ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("link", "site_url", "expected"),
    [
        ("/verl-cookbook/", "https://x.github.io/verl-cookbook/", "."),
        ("/verl-cookbook/en/", "https://x.github.io/verl-cookbook/", "en/"),
        ("/en/", None, "en/"),
        ("en/contributing/", "https://x.github.io/verl-cookbook/", "en/contributing/"),
        ("https://example.org/", None, "https://example.org/"),
    ],
)
def test_language_links_become_site_relative(link, site_url, expected):
    assert i18n_relative_links.site_relative(link, site_url) == expected


@pytest.mark.parametrize(
    ("location", "expected"),
    [
        ("", "zh"),
        ("#where-to-start", "zh"),
        ("contributing/", "zh"),
        ("en/", "en"),
        ("en/#layout", "en"),
        ("en/contributing/#layout", "en"),
        ("english/", "zh"),
        ("ascend/en/", "zh"),
    ],
)
def test_search_entry_language_comes_from_its_location(location, expected):
    assert search_per_language.language_of(location, ["zh", "en"], "zh") == expected


def test_split_keeps_each_languages_entries_and_narrows_lunr_languages():
    merged = {
        "config": {"lang": ["en", "zh"], "separator": "x"},
        "docs": [{"location": "a/"}, {"location": "en/a/"}, {"location": "#top"}, {"location": "en/"}],
    }
    parts = search_per_language.split(merged, ["zh", "en"], "zh")
    assert [d["location"] for d in parts["zh"]["docs"]] == ["a/", "#top"]
    assert [d["location"] for d in parts["en"]["docs"]] == ["en/a/", "en/"]
    assert parts["zh"]["config"] == {"lang": ["en", "zh"], "separator": "x"}
    assert parts["en"]["config"] == {"lang": ["en"], "separator": "x"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<code>checkpoint_engine.engine_kwargs</code>", ["engine.engine_kwargs", "engine_kwargs", "kwargs"]),
        ("edit /etc/hccn.conf first.", ["conf"]),
        ("verl 0.9.1, a sentence. Another one", []),  # versions and sentence ends are not identifiers
        ("plain words, no identifier", []),
        (
            "HCCLCheckpointEngine and self.pyhccl.destroyComm",
            ["checkpointengine", "engine", "pyhccl.destroycomm", "destroycomm", "comm"],
        ),
    ],
)
def test_search_parts_are_the_suffixes_of_compound_identifiers(text, expected):
    assert search_per_language.identifier_suffixes(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "<code>model_world_size_{W}_rank_{r}.pt</code>",
            ["model_world_size_n_rank_n.pt", "world_size_n_rank_n.pt", "size_n_rank_n.pt", "rank_n.pt"],
        ),
        ("checkpoints/global_step_N/actor and global_step_100", ["global_step_n", "step_n"]),
        ("mp_rank_00_000", ["mp_rank_n_n", "rank_n_n"]),
        # names without a placeholder part, and numbers between dots (versions, model sizes), have no shape
        ("engine_kwargs, HCCL_IF_IP, verl 0.9.1, v0.9.1, Qwen2.5-7B", []),
    ],
)
def test_search_shapes_turn_numbers_and_placeholders_in_names_into_n(text, expected):
    assert search_per_language.identifier_shapes(text) == expected


def test_search_parts_hold_the_shapes_beside_the_suffixes():
    out = search_per_language.add_parts({"docs": [{"text": "global_step_N"}]})
    assert out["docs"][0]["parts"].split() == ["step_n", "n", "global_step_n"]


def test_search_parts_field_is_indexed_and_kept_off_entries_without_identifiers():
    index = {"config": {"fields": {"text": {"boost": 1.0}}}, "docs": [{"text": "a_b"}, {"text": "plain"}]}
    out = search_per_language.add_parts(index)
    assert out["config"]["fields"]["parts"] == {"boost": 1.0}
    assert out["docs"] == [{"text": "a_b", "parts": "b"}, {"text": "plain"}]


def test_search_script_goes_before_the_bundle_and_names_the_pages_index():
    bundle = '<script src="../assets/javascripts/bundle.0a1b.min.js"></script>'
    out = search_per_language.inject(f"<p>x</p>{bundle}", "en", "zh", "en/x/")
    assert out.index('})("en/search/search_index.json");</script>') < out.index(bundle)
    zh = search_per_language.inject(bundle, "zh", "zh", "x/")
    assert '})("search/search_index.json");</script>' in zh


def test_search_hook_says_which_page_has_no_material_bundle():
    with pytest.raises(PluginError, match="no Material bundle.*en/x/"):
        search_per_language.inject("<p>no scripts</p>", "en", "zh", "en/x/")


# ---- the built site -------------------------------------------------------------------------------------------


def test_site_builds_strict_with_both_languages():
    site = built_site().path
    pages = site_pages(site)
    en = [p for p in pages if p.startswith("en/")]
    zh = [p for p in pages if not p.startswith("en/")]
    assert "index.html" in zh and "en/index.html" in en
    assert sorted(p.removeprefix("en/") for p in en) == zh, "every 中文 page has an English twin and vice versa"
    assert '<html lang="zh"' in (site / "index.html").read_text(encoding="utf-8")
    assert '<html lang="en"' in (site / "en" / "index.html").read_text(encoding="utf-8")


def test_language_switcher_on_every_page_lands_on_its_twin():
    site = built_site().path
    wrong = []
    for rel in site_pages(site):
        html = (site / rel).read_text(encoding="utf-8")
        links = dict(re.findall(r'<a href="([^"]*)" hreflang="(zh|en)" class="md-select__link"', html))
        by_lang = {lang: href for href, lang in links.items()}
        twin = rel.removeprefix("en/")
        for lang, expected in (("zh", twin), ("en", "en/" + twin)):
            href = by_lang.get(lang)
            target = (site / rel).parent / (href or "MISSING")
            if (
                href is None
                or not (target / "index.html" if target.is_dir() else target).resolve() == (site / expected).resolve()
            ):
                wrong.append(f"{rel}: {lang} → {href!r}, expected {expected}")
    assert not wrong, "\n".join(wrong)


def test_diagrams_are_inline_svg_and_no_page_loads_a_diagram_script():
    site = built_site().path
    with_diagram = [p for p in site.rglob("*.html") if '<figure class="diagram' in p.read_text(encoding="utf-8")]
    assert len(with_diagram) >= 6, "the diagram pages of both languages draw their diagrams"
    for p in site.rglob("*.html"):
        html = p.read_text(encoding="utf-8")
        assert "mermaid.esm" not in html and "mermaid.min.js" not in html, p
        assert 'class="diagram-missing"' not in html, p
    assert not list(site.rglob("*.mjs")), "no diagram renderer is served"
    assert not (site / "diagrams").exists(), "the drawings are inlined, not copied beside the pages"


def search_index(prefix: str) -> dict:
    return json.loads((built_site().path / prefix / "search" / "search_index.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("prefix", "terms"), [("", ("白名单", "检查点引擎")), ("en/", ("whitelist", "checkpoint"))])
def test_search_index_has_each_languages_terms_as_words(prefix, terms):
    index = search_index(prefix)
    separator = re.compile(index["config"]["separator"])
    words = {
        w for doc in index["docs"] for w in separator.split(re.sub(r"<[^>]+>", " ", doc["text"] + " " + doc["title"]))
    }
    for term in terms:
        assert term in words, f"{term} is not an index term of /{prefix}"


def test_search_index_is_split_by_language():
    site = built_site().path
    zh, en = search_index(""), search_index("en/")
    zh_pages = {d["location"].split("#")[0] for d in zh["docs"]}
    en_pages = {d["location"].split("#")[0] for d in en["docs"]}
    assert not [p for p in zh_pages if p.startswith("en/")], "English entries in the 中文 index"
    assert all(p.startswith("en/") for p in en_pages), "entries outside en/ in the English index"
    built = {p.relative_to(site).parent.as_posix() + "/" for p in site.rglob("index.html")}
    built = {"" if p == "./" else p for p in built}
    assert zh_pages | en_pages == built, "every page of both languages is in its language's index"
    assert en["config"]["lang"] == ["en"] and "zh" in zh["config"]["lang"]


@pytest.mark.parametrize("prefix", ["", "en/"])
def test_every_page_has_its_own_entry_in_its_languages_search_index(prefix):
    """users17: the English cookbook-api page had section hits but no page entry, so the search box showed them under
    a link to `/undefined` with no title. mkdocs-static-i18n drops a translated page's entry as a duplicate when its
    title and text equal the default language's (pages opening with the notice box index no text), so the twins'
    titles must differ."""
    index = search_index(prefix)
    locations = {d["location"] for d in index["docs"]}
    missing = sorted({loc.split("#")[0] for loc in locations} - locations)
    assert not missing, f"pages whose sections are indexed without the page itself: {missing}"


@pytest.mark.parametrize("prefix", ["", "en/"])
def test_search_index_is_written_as_utf8_not_ascii_escapes(prefix):
    raw = (built_site().path / prefix / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "\\u200b" not in raw.split('"docs"', 1)[1] and "\\u4e" not in raw
    if not prefix:
        assert "检查点引擎" in raw


def test_every_page_fetches_its_own_languages_search_index():
    site = built_site().path
    wrong = []
    for page in site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        lang = re.search(r'<html lang="(\w+)"', html).group(1)
        expected = "search/search_index.json" if lang == "zh" else f"{lang}/search/search_index.json"
        found = re.findall(r'\}\)\("([^"]+)"\);</script>', html)
        if found != [expected]:
            wrong.append(f"{page.relative_to(site)} ({lang}): {found}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang_prefix", ["", "en/"])
def test_api_reference_renders_every_checkpoint_engine_class_from_verl_source(lang_prefix):
    html = (built_site().path / lang_prefix / "reference" / "verl-api" / "index.html").read_text(encoding="utf-8")
    missing = [c for c in API_CLASSES if f'id="{c}"' not in html]
    assert not missing, f"{lang_prefix or 'zh'}: not rendered: {missing}"
    assert 'id="verl.checkpoint_engine.base.CheckpointEngine.send_weights"' in html


@pytest.mark.parametrize("lang_prefix", ["", "en/"])
def test_cookbook_reference_renders_the_package_api(lang_prefix):
    html = (built_site().path / lang_prefix / "reference" / "cookbook-api" / "index.html").read_text(encoding="utf-8")
    for ident in ("verl_cookbook.verl_source.from_release", "verl_cookbook.runner.check_paths", "verl_cookbook.parity"):
        assert f'id="{ident}"' in html, ident


_PROSE_CITATION = re.compile(r"<code>([\w./-]+\.(?:py|yaml|yml):\d[\d-]*)</code>")
_CITE_LINK = re.compile(
    r'<a class="verl-cite" href="https://github\.com/verl-project/verl/blob/v(\d+\.\d+\.\d+)/([^"#]+)#L(\d+)'
)


def _article_prose(html: str) -> str:
    article = html[html.find("<article") : html.find("</article>")]
    return re.sub(r"<pre\b.*?</pre>|<div class=\"doc doc-", " ", article, flags=re.S)


def test_no_citation_is_a_code_span_in_running_prose_and_each_links_to_its_lines():
    site = built_site().path
    left, links = [], 0
    for page in site.rglob("index.html"):
        prose = _article_prose(page.read_text(encoding="utf-8"))
        left += [f"{page.relative_to(site)}: {m}" for m in _PROSE_CITATION.findall(prose)]
        for release, path, line in _CITE_LINK.findall(prose):
            links += 1
            assert release in covered_releases() and path.startswith(("verl/", "tests/")) and int(line) >= 1
    assert not left, "citations left as code spans:\n" + "\n".join(left[:20])
    assert links >= 200, f"only {links} citation links on the site"


def test_every_page_says_once_in_one_line_which_verl_it_is_checked_against():
    site = built_site().path
    wrong = []
    for page in site.rglob("index.html"):
        html = page.read_text(encoding="utf-8")
        notices = re.findall(r'class="(?:admonition )?verl-checked"', html)
        if len(notices) != 1:
            wrong.append(f"{page.relative_to(site)}: {len(notices)} notices")
    assert not wrong, "\n".join(wrong)


def test_only_the_glossary_and_the_generated_drift_page_lack_the_release_box():
    """contributing.md names the pages with no info box stating the release and no verl-version claim
    (review43j-2): they still get the one line under their title, which the test above holds."""
    docs = Path(__file__).resolve().parents[1] / "docs"
    without = sorted(
        str(p.relative_to(docs))
        for p in docs.rglob("*.md")
        if "check: verl-version" not in p.read_text(encoding="utf-8")
    )
    assert without == ["glossary.en.md", "glossary.md", "tools/drift.en.md", "tools/drift.md"]


# ---- Chinese typography in the built pages ------------------------------------------------------------------

_PROSE_BLOCKS = {"p", "li", "td", "th", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6", "figcaption", "summary"}
_NOT_PROSE = {"code", "pre", "script", "style", "svg", "kbd"}


class _ProseSpaces(HTMLParser):
    """Collects, per prose block of an article, each whitespace run (outside code) that ``is_stray`` flags."""

    def __init__(self, is_stray: Callable[[str, str, str], bool]) -> None:
        super().__init__(convert_charrefs=True)
        self.is_stray = is_stray
        self.stack: list[str] = []
        self.text: list[str] = []
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in _PROSE_BLOCKS:
            self.flush()
        if tag not in ("br", "img", "wbr", "input", "hr", "meta", "link"):
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in _PROSE_BLOCKS:
            self.flush()
        if tag in self.stack:
            while self.stack.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        self.text.append("\x00" if _NOT_PROSE & set(self.stack) else data)

    def flush(self) -> None:
        text = "".join(self.text)
        self.text = []
        for m in re.finditer(r"\s+", text):
            if 0 < m.start() and m.end() < len(text) and self.is_stray(text[m.start() - 1], m.group(), text[m.end()]):
                self.found.append(text[max(0, m.start() - 12) : m.end() + 12].replace("\n", "⏎").replace("\x00", "…"))


def stray_spaces(html: str, is_stray: Callable[[str, str, str], bool]) -> list[str]:
    """The whitespace runs inside an article's prose (paragraphs, list items, table cells, headings) that
    ``is_stray(left, run, right)`` flags, each with a little context."""
    parser = _ProseSpaces(is_stray)
    parser.feed(html[html.find("<article") : html.find("</article>")])
    parser.flush()
    return parser.found


def line_break_between_cjk(left: str, run: str, right: str) -> bool:
    return "\n" in run and joins(left, right)


@pytest.mark.parametrize(
    ("html", "found"),
    [
        ("<article><p>权重后，\n如何同步</p></article>", 1),
        ("<article><ul><li>一项\n  两项</li></ul><table><tr><td>单元\n格</td></tr></table></article>", 2),
        ("<article><p>English words\nwrapped, 中文\nverl 中文</p><pre>代码\n里</pre></article>", 0),
        ("<article><p>权重后，<code>x</code>\n如何</p></article>", 0),
    ],
)
def test_stray_space_finder_flags_breaks_between_chinese_characters_only(html, found):
    assert len(stray_spaces(html, line_break_between_cjk)) == found


def space_between_cjk(left: str, run: str, right: str) -> bool:
    return joins(left, right)


@pytest.mark.parametrize(
    ("is_stray", "what"),
    [(line_break_between_cjk, "line breaks"), (space_between_cjk, "spaces")],
    ids=["soft-breaks", "any-space"],
)
def test_no_space_inside_chinese_text_on_any_page(is_stray, what):
    """Soft breaks: verl_cookbook.cjk_line_breaks; written spaces: scripts/prose_lint.py (prose/cjk-space)."""
    site = built_site().path
    found = [
        f"{page.relative_to(site)}: {hit}"
        for page in sorted(site.rglob("index.html"))
        for hit in stray_spaces(page.read_text(encoding="utf-8"), is_stray)
    ]
    assert not found, f"{len(found)} {what} between Chinese characters render as spaces:\n" + "\n".join(found)


def test_every_page_has_one_h1_so_no_line_starting_with_a_hash_number_becomes_a_heading():
    """Python-Markdown reads ``#7503 的单元测试…`` at a line start as an h1: search then ranks it as a title."""
    site = built_site().path
    wrong = []
    for page in sorted(site.rglob("index.html")):
        html = page.read_text(encoding="utf-8")
        article = html[html.find("<article") : html.find("</article>")]
        h1s = re.findall(r"<h1\b[^>]*>(.*?)</h1>", article, flags=re.S)
        if len(h1s) != 1:
            wrong.append(f"{page.relative_to(site)}: {[re.sub(r'<[^>]+>', '', h)[:40] for h in h1s]}")
    assert not wrong, "pages with more or fewer than one h1:\n" + "\n".join(wrong)


def swallowed_list_items(html: str) -> list[str]:
    """Paragraphs with a line that starts like a list item (``- x``, ``* x``, ``2. x``): Markdown read it as a lazy
    continuation of the paragraph above (an indented paragraph inside an item, no blank line before the next item),
    so the item renders as running text."""
    found = []
    for para in re.findall(r"<p>(.*?)</p>", html, flags=re.S):
        text = re.sub(r"<[^>]+>", "", para)
        # a 中文 paragraph's line breaks are joined at build time (cjk_line_breaks), so the item follows a full stop
        lines = re.split(r"\n|(?<=[。；！？])(?=\s*[-*+]\s)", text)
        for line in lines[1:]:
            if re.match(r"\s*(?:[-*+]|\d+\.)\s+\S", line):
                found.append(line.strip()[:60])
    return found


@pytest.mark.parametrize(
    ("html", "found"),
    [
        ("<p>Older releases say EJ0003\n- <code>EI0009</code> with a link error</p>", ["- EI0009 with a link error"]),
        ("<p>first line\n1. second step</p>", ["1. second step"]),
        ("<p>处理方法相同。- <code>EI0009</code>：建链失败</p>", ["- EI0009：建链失败"]),
        ("<p>端口范围 60000-60031。</p>", []),
        ("<ul><li><p>EJ0003</p></li><li><p><code>EI0009</code></p></li></ul>", []),
        ("<p>a range 60000\n-60031 and a flag\n--config-name</p>", []),
    ],
)
def test_swallowed_list_item_finder_flags_item_lines_inside_a_paragraph(html, found):
    assert swallowed_list_items(html) == found


def test_no_list_item_renders_as_running_text_on_any_page():
    """users17: on the ports page the EI0009 and link-timeout bullets rendered inside the EI0019 paragraph."""
    site = built_site().path
    found = [
        f"{page.relative_to(site)}: {hit}"
        for page in sorted(site.rglob("index.html"))
        # verl-api renders verl's own docstrings as verl wrote them (lists with no blank line before them)
        if "verl-api" not in page.parts
        for hit in swallowed_list_items(page.read_text(encoding="utf-8"))
    ]
    assert not found, "list items rendered as running text (add a blank line before them):\n" + "\n".join(found)


def test_search_preview_hook_marks_only_the_notice_line():
    html = '<details class="verl-checked">\n<summary>本页对照 verl 0.9.1 核对</summary>\n<p>box</p></details>'
    out = search_preview.exclude_notice(html)
    assert "<summary data-search-exclude>本页对照" in out and "<p>box</p>" in out
    assert 'class="verl-checked" data-search-exclude>' in search_preview.exclude_notice('<p class="verl-checked">x</p>')
    assert search_preview.exclude_notice("<p>本页对照 verl 0.9.1 核对</p>") == "<p>本页对照 verl 0.9.1 核对</p>"


@pytest.mark.parametrize(("prefix", "notice"), [("", "核对 · 源码链接指向"), ("en/", "· source links point at tag")])
def test_search_previews_start_with_the_pages_content_not_the_checked_against_line(prefix, notice):
    docs = search_index(prefix)["docs"]
    with_notice = [d["location"] for d in docs if notice in d["text"].replace("\u200b", "")]
    assert not with_notice, f"entries whose preview holds the notice: {with_notice}"
    assert sum(1 for d in docs if "#" not in d["location"] and d["text"].strip()) >= 15


def test_jieba_cache_follows_xdg_cache_home(tmp_path):
    assert jieba_quiet.cache_dir({"XDG_CACHE_HOME": str(tmp_path)}) == tmp_path / "verl-cookbook" / "jieba"
    assert jieba_quiet.cache_dir({}) == Path.home() / ".cache" / "verl-cookbook" / "jieba"


def test_jieba_builds_quietly_and_caches_where_it_is_told(tmp_path):
    import jieba

    before = jieba.dt.tmp_dir
    try:
        assert jieba_quiet.quiet_jieba(tmp_path / "jieba") == tmp_path / "jieba"
        assert jieba.dt.tmp_dir == str(tmp_path / "jieba")
        assert jieba.default_logger.level == logging.WARNING
    finally:
        jieba.dt.tmp_dir = before


def test_site_build_log_has_no_jieba_chatter():
    log = built_site().log
    assert "Building prefix dict" not in log and "Loading model" not in log, log[:500]


def test_version_selector_is_kept_only_when_mike_builds():
    extra = {"version": {"provider": "mike"}, "social": []}
    assert version_selector.without_version_selector(extra, {"MIKE_DOCS_VERSION": "0.9.1"}) == extra
    assert version_selector.without_version_selector(extra, {}) == {"social": []}


def test_built_pages_ask_for_no_versions_json_outside_mike():
    html = (built_site().path / "index.html").read_text(encoding="utf-8")
    assert '"version": null' in html or '"version":null' in html


def test_sitemap_script_goes_before_materials_bundle():
    bundle = '<script src="assets/javascripts/bundle.0a1b.min.js"></script>'
    out = sitemap_requests.inject(f"<p>x</p>{bundle}", "x/")
    assert out.index("One sitemap") < out.index(bundle)
    with pytest.raises(PluginError, match="no Material bundle.*x/"):
        sitemap_requests.inject("<p>x</p>", "x/")


def test_i18n_info_lines_are_quiet_unless_verbose():
    logger = logging.getLogger(i18n_log.I18N_LOGGER)
    before = logger.level
    try:
        i18n_log.quiet_i18n(logging.INFO)
        assert logger.level == logging.WARNING
        i18n_log.quiet_i18n(logging.DEBUG)
        assert logger.level == logging.NOTSET
    finally:
        logger.setLevel(before)
    assert "mkdocs_static_i18n: Overriding" not in built_site().log


def test_lunr_node_key_gets_a_delimiter_and_a_changed_worker_is_an_error():
    minified = (
        'for(var e=this.final?"1":"0",r=Object.keys(this.edges).sort();i<n;i++)'
        + "{var s=r[i],o=this.edges[s];e=e+s+o.id}return e}"
    )
    fixed = search_per_language.fix_lunr_node_key(minified, "w.js")
    assert search_per_language.LUNR_NODE_KEY_FIXED in fixed and search_per_language.LUNR_NODE_KEY not in fixed
    assert search_per_language.fix_lunr_node_key(fixed, "w.js") == fixed
    with pytest.raises(PluginError, match="w.js"):
        search_per_language.fix_lunr_node_key("a worker without lunr", "w.js")


def test_built_search_worker_has_the_fixed_lunr_node_key():
    (worker,) = built_site().path.glob(search_per_language.WORKER_GLOB)
    text = worker.read_text(encoding="utf-8")
    assert search_per_language.LUNR_NODE_KEY_FIXED in text and search_per_language.LUNR_NODE_KEY not in text


@pytest.mark.parametrize(("lang_prefix", "headers", "absent"), [("", "名称", "Name"), ("en/", "Name", "名称")])
def test_the_api_tables_are_headed_in_the_pages_language(lang_prefix, headers, absent):
    html = (built_site().path / lang_prefix / "reference" / "verl-api" / "index.html").read_text(encoding="utf-8")
    assert f"<th>{headers}</th>" in html and f"<th>{absent}</th>" not in html


@pytest.mark.parametrize("prefix", ["", "en/"])
def test_search_ranks_the_rules_and_reference_pages_below_the_recipes(prefix):
    """Their lists of messages and settings match almost any error's words (users39/40): their entries carry a boost
    below 1, while the recipes, the doctor and the stack page keep Material's default."""
    boosts: dict[str, set] = {}
    for doc in search_index(prefix)["docs"]:
        page = doc["location"].removeprefix(prefix).split("#", 1)[0]
        boosts.setdefault(page, set()).add(doc.get("boost"))
    assert boosts["tools/rules/"] == {0.3}
    assert boosts["reference/verl-api/"] == {0.5}
    for page in ("recipes/troubleshooting/", "tools/doctor/", "tools/stack/", "install/"):
        assert boosts[page] == {None}, page


def test_search_boost_takes_the_longest_prefix_of_the_page_path_in_either_language():
    assert search_per_language.search_boost("tools/rules.en.md") == 0.3
    assert search_per_language.search_boost("tools/rules.md") == 0.3
    assert search_per_language.search_boost("tools/doctor.md") is None
    assert search_per_language.search_boost("compat/settings.md") == 0.5
    assert search_per_language.search_boost("recipes/troubleshooting.en.md") is None
