"""snippet/orphan: a file under snippets/ that no page includes is reported; what Python leaves there is not."""

from __future__ import annotations

from pathlib import Path

from verl_cookbook.runner import orphan_snippets


def _site(tmp_path: Path) -> Path:
    for rel in ["snippets/recipes/used.sh", "snippets/recipes/callback.py"]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("echo hi\n", encoding="utf-8")
    return tmp_path


def test_a_snippet_no_page_includes_is_reported(tmp_path: Path, monkeypatch) -> None:
    site = _site(tmp_path)
    monkeypatch.chdir(site)
    found = orphan_snippets(site, {"snippets/recipes/used.sh"})
    assert [(f.path, f.rule) for f in found] == [("snippets/recipes/callback.py", "snippet/orphan")]


def test_bytecode_python_wrote_beside_a_snippet_is_not_a_snippet(tmp_path: Path, monkeypatch) -> None:
    site = _site(tmp_path)
    cache = site / "snippets" / "recipes" / "__pycache__"
    cache.mkdir()
    (cache / "callback.cpython-311.pyc").write_bytes(b"\0bytecode")
    monkeypatch.chdir(site)
    assert orphan_snippets(site, {"snippets/recipes/used.sh", "snippets/recipes/callback.py"}) == []
