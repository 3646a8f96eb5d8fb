"""``real_path`` keeps each folder's realpath for the process; it must give what ``os.path.realpath`` gives."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from verl_cookbook.findings import real_path


@pytest.mark.parametrize(
    "name",
    ["plain/f.md", "linked_dir/f.md", "plain/link_to_f.md", "linked_dir/../plain/f.md", "plain/missing.md", "plain"],
)
def test_real_path_answers_as_realpath_does_through_symlinks_and_dotdot(tmp_path: Path, name: str) -> None:
    (tmp_path / "plain").mkdir()
    (tmp_path / "elsewhere" / "deep").mkdir(parents=True)
    (tmp_path / "plain" / "f.md").write_text("x", encoding="utf-8")
    (tmp_path / "elsewhere" / "deep" / "f.md").write_text("y", encoding="utf-8")
    (tmp_path / "linked_dir").symlink_to(tmp_path / "elsewhere" / "deep")
    (tmp_path / "plain" / "link_to_f.md").symlink_to(tmp_path / "elsewhere" / "deep" / "f.md")
    os.makedirs(tmp_path / "elsewhere" / "plain", exist_ok=True)  # where ".." after linked_dir climbs to
    assert real_path(tmp_path / name) == os.path.realpath(tmp_path / name)


def test_real_path_of_a_relative_path_is_taken_from_the_working_folder(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "d").mkdir()
    monkeypatch.chdir(tmp_path / "d")
    assert real_path("page.md") == os.path.realpath(tmp_path / "d" / "page.md")
