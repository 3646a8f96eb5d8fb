"""The releases file is read without PyYAML (a warm check reads no other YAML); these tests hold the reader to it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from verl_cookbook import releases


def test_releases_file_reads_as_pyyaml_reads_it():
    releases._load.cache_clear()
    expected = yaml.safe_load(releases.RELEASES_FILE.read_text(encoding="utf-8"))
    assert releases._load() == expected
    assert releases.default_release() in releases.covered_releases()


def test_releases_file_in_another_shape_is_refused_with_its_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    bad = tmp_path / "releases.yaml"
    bad.write_text('default: "0.9.1"\nreleases: ["0.9.0", "0.9.1"]\n', encoding="utf-8")
    monkeypatch.setattr(releases, "RELEASES_FILE", bad)
    releases._load.cache_clear()
    try:
        with pytest.raises(ValueError, match=r"releases\.yaml:2: expected a double-quoted version"):
            releases._load()
    finally:
        monkeypatch.undo()
        releases._load.cache_clear()
