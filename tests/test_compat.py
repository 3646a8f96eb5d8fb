"""Compatibility pages: facts per release in, Markdown tables out (both languages, same shape)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.conftest import REPO
from verl_cookbook.compat import (
    MISSING,
    NO_ENGINE,
    REQUIRED,
    TEXT,
    backend_rows,
    backends_page,
    changes,
    format_value,
    kwarg_rows,
    render_all,
    settings_page,
)
from verl_cookbook.facts import load_facts
from verl_cookbook.releases import covered_releases, default_release
from verl_cookbook.runner import check_paths
from verl_cookbook.verl_source import from_release


def _reg(backend: str, cls: str, params: list[tuple[str, object]], line: int = 10) -> dict:
    ps = [
        {"name": n, "required": d is REQUIRED, "default": None if d is REQUIRED else d, "source": f"f.py:{line}"}
        for n, d in params
    ]
    return {
        "backend": backend,
        "class": cls,
        "source": f"verl/checkpoint_engine/{cls.lower()}.py:{line}",
        "constructor": {"params": ps},
    }


def _release(resolution: dict, regs: list[dict], fields: dict, injected: tuple[str, ...] = ("bucket_size",)) -> dict:
    return {
        "engines": {"resolution": resolution, "registrations": regs, "injected_kwargs": [{"kwargs": list(injected)}]},
        "config": {"checkpoint_engine_config": {"fields": {k: {"default": v} for k, v in fields.items()}}},
    }


# Two made-up releases: "1.10" (sorted after "1.9", not before) adds an NPU engine, a kwarg and a field,
# changes a default, drops a kwarg.
TINY = {
    "1.10": _release(
        {"nccl": {"cuda": "NCCLEngine", "npu": "HCCLEngine"}, "naive": {"cuda": "Colocated", "npu": "Colocated"}},
        [
            _reg("nccl", "NCCLEngine", [("bucket_size", REQUIRED), ("group_name", "g2"), ("fast", True)], 20),
            _reg("nccl", "HCCLEngine", [("bucket_size", REQUIRED), ("group_name", "g2")], 30),
            _reg("naive", "Colocated", [("bucket_size", REQUIRED)], 5),
        ],
        {"backend": "naive", "extra": None},
    ),
    "1.9": _release(
        {"nccl": {"cuda": "NCCLEngine"}, "naive": {"cuda": "Colocated", "npu": "Colocated"}},
        [
            _reg("nccl", "NCCLEngine", [("bucket_size", REQUIRED), ("group_name", "g1"), ("old", 1)], 12),
            _reg("naive", "Colocated", [("bucket_size", REQUIRED)], 5),
        ],
        {"backend": "naive"},
    ),
}


def _table_rows(md: str, header_start: str) -> list[list[str]]:
    lines = md.splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith(f"| {header_start} |"))
    rows = []
    for line in lines[i + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip("|").split(" | ")])
    return rows


@pytest.mark.parametrize(
    ("value", "shown"),
    [("naive", '"naive"'), ("torch.bfloat16", "torch.bfloat16"), (None, "None"), (False, "False"), (2048, "2048")]
    + [({}, "{}"), ("", '""')],
)
def test_format_value_writes_defaults_as_a_reader_would(value, shown):
    assert format_value(value) == shown


def test_releases_are_columns_in_version_order_not_string_order():
    md = backends_page(TINY, "en", "1.10")
    assert "| Backend | Hardware | 1.9 | 1.10 |" in md


def test_backend_present_on_npu_only_from_the_newer_release():
    rows = {(b, d): cells for b, d, cells in backend_rows(TINY)}
    assert rows[("nccl", "npu")] == {"1.9": None, "1.10": "HCCLEngine"}
    assert rows[("nccl", "cuda")] == {"1.9": "NCCLEngine", "1.10": "NCCLEngine"}
    md = backends_page(TINY, "zh", "1.10")
    assert "| `nccl` | NPU | — | `HCCLEngine` |" in md
    # the sources table gives each registration's file:line, per release
    assert "| `nccl` | CUDA | `ncclengine.py:12` | `ncclengine.py:20` |" in md


def test_changes_reports_added_changed_and_removed_but_not_the_baseline():
    t = TEXT["en"]
    assert changes({"a": 1, "b": 1}, t) == []
    assert changes({"a": MISSING, "b": 2}, t) == ["added in b"]
    assert changes({"a": 2, "b": MISSING}, t) == ["removed in b"]
    assert changes({"a": "x", "b": "y"}, t) == ['default `"x"` → `"y"` in b']
    assert changes({"a": NO_ENGINE, "b": 3, "c": 4}, t) == ["default `3` → `4` in c"]


def test_settings_rows_follow_each_kwarg_and_field_across_releases():
    rows = {(b, cls, n): (values, injected) for b, _d, cls, n, values, injected in kwarg_rows(TINY)}
    assert rows[("nccl", "NCCLEngine", "fast")][0] == {"1.9": MISSING, "1.10": True}
    assert rows[("nccl", "NCCLEngine", "old")][0] == {"1.9": 1, "1.10": MISSING}
    assert rows[("nccl", "HCCLEngine", "group_name")][0] == {"1.9": NO_ENGINE, "1.10": "g2"}
    assert rows[("nccl", "NCCLEngine", "bucket_size")][1] is True
    md = settings_page(TINY, "en", "1.10")
    assert '| `nccl` | CUDA | `NCCLEngine` | `group_name` | `"g1"` | `"g2"` | default `"g1"` → `"g2"` in 1.10 |' in md
    assert "| `nccl` | CUDA | `NCCLEngine` | `old` | `1` | — | removed in 1.10 |" in md
    assert '| `nccl` | NPU | `HCCLEngine` | `group_name` | — | `"g2"` |  |' in md
    assert "| `nccl` | CUDA | `NCCLEngine` | `bucket_size` | required | required | set by verl |" in md
    assert "| `extra` | — | `None` | added in 1.10 |" in md


def _shape(md: str) -> list[str]:
    """Headings' anchors, and per table line its cell count and code spans (what must not differ by language)."""
    out = []
    for line in md.splitlines():
        if line.startswith("#"):
            out.append(re.search(r"\{ #([\w-]+) \}", line).group(1))
        elif line.startswith("|") and not line.startswith("| ---"):
            out.append(f"{line.count(' | ')}:{re.findall(r'`[^`]*`', line)}")
        elif line.startswith("<!--") or "<!-- check:" in line:
            out.append(line.strip())
    return out


@pytest.mark.parametrize("page", [backends_page, settings_page])
def test_both_languages_have_the_same_anchors_tables_and_claims(page):
    zh, en = page(TINY, "zh", "1.10"), page(TINY, "en", "1.10")
    assert zh != en
    assert _shape(zh) == _shape(en)


def test_unknown_language_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        backends_page(TINY, "fr", "1.10")


# -- real releases ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real() -> dict[str, dict]:
    return {r: load_facts(from_release(r)).data for r in covered_releases()}


def test_every_registration_of_every_release_appears_in_the_backends_table(real):
    md = backends_page(real, "en", default_release())
    rows = {tuple(r[:2]): r[2:] for r in _table_rows(md, "Backend")}
    releases = covered_releases()
    for i, release in enumerate(releases):
        for backend, by_dev in real[release]["engines"]["resolution"].items():
            for dev, cls in by_dev.items():
                assert rows[(f"`{backend}`", dev.upper())][i] == f"`{cls}`", (release, backend, dev)


def test_generated_pages_pass_the_site_check(real, facts, tmp_path):
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n")
    written = []
    for rel, text in render_all(real, default_release()).items():
        p = tmp_path / "docs" / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
        written.append(p)
    report = check_paths([tmp_path / "docs"], facts, tmp_path)
    assert report.findings == []
    assert report.pages == len(written) and report.claims == len(written)  # one verl-version claim per page


# -- the mkdocs hook, with mkdocs-static-i18n ------------------------------------------------------------------

HOOK = REPO / "scripts" / "hooks" / "compat_pages.py"
I18N_SITE = """\
site_name: t
theme: {{name: material}}
plugins:
  - i18n:
      docs_structure: suffix
      fallback_to_default: false
      languages:
        - {{locale: zh, default: true, name: 中文, build: true}}
        - {{locale: en, name: English, build: true}}
hooks:
  - {hook}
nav:
  - index.md
  - compat/backends.md
  - compat/settings.md
markdown_extensions: [admonition, attr_list, tables, toc]
"""


def test_hook_generates_both_languages_through_i18n_and_writes_nothing_to_docs(tmp_path, real):
    (tmp_path / "mkdocs.yml").write_text(I18N_SITE.format(hook=HOOK))
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# 首页\n")
    (docs / "index.en.md").write_text("# Home\n")
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(tmp_path / "site")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in docs.iterdir()) == ["index.en.md", "index.md"], "the hook wrote under docs/"
    site = tmp_path / "site"
    zh = (site / "compat" / "backends" / "index.html").read_text()
    en = (site / "en" / "compat" / "backends" / "index.html").read_text()
    assert "各 verl 版本支持的后端与硬件" in zh and "Backends × releases × hardware" in en
    assert 'hreflang="en"' in zh and "en/compat/backends/" in zh, "the i18n language switcher misses the page"
    pinned_classes = {
        c for by_dev in real[default_release()]["engines"]["resolution"].values() for c in by_dev.values()
    }
    assert all(f"<code>{c}</code>" in en for c in pinned_classes)
    assert (site / "compat" / "settings" / "index.html").is_file()
    assert (site / "en" / "compat" / "settings" / "index.html").is_file()


def test_hook_refuses_a_hand_written_copy_of_a_generated_page(tmp_path):
    (tmp_path / "mkdocs.yml").write_text(I18N_SITE.format(hook=HOOK))
    (tmp_path / "docs" / "compat").mkdir(parents=True)
    (tmp_path / "docs" / "index.md").write_text("# 首页\n")
    (tmp_path / "docs" / "index.en.md").write_text("# Home\n")
    (tmp_path / "docs" / "compat" / "backends.md").write_text("# typed by hand\n")
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(tmp_path / "site")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode != 0
    assert "docs/compat/backends.md exists, but this page is generated" in proc.stderr
    assert "Traceback" not in proc.stderr
