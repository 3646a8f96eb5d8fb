"""What the checks read from verl's files is kept by the run's Session, not by the process: a second run (a new
session) sees a file that changed after the first, while one run reads each file once."""

from __future__ import annotations

from pathlib import Path

from verl_cookbook.checks import required_values as rv
from verl_cookbook.checks.citations import _by_name, _lines, find_citations
from verl_cookbook.checks.launch import _config_options
from verl_cookbook.session import Session
from verl_cookbook.verl_source import VerlTree


def _package(tmp_path: Path) -> Path:
    pkg = tmp_path / "verl"
    (pkg / "trainer" / "config" / "actor").mkdir(parents=True)
    (pkg / "trainer" / "config" / "actor" / "dp_actor.yaml").write_text("x: 1\n", encoding="utf-8")
    (pkg / "trainer" / "main_ppo.py").write_text("a = 1\nb = 2\n", encoding="utf-8")
    return pkg


def test_a_config_option_added_after_a_run_is_seen_by_the_next_run(tmp_path: Path) -> None:
    pkg = _package(tmp_path)
    first = Session()
    assert ("actor", "megatron_actor") not in _config_options(str(pkg), first.config_options)
    (pkg / "trainer" / "config" / "actor" / "megatron_actor.yaml").write_text("x: 2\n", encoding="utf-8")
    assert ("actor", "megatron_actor") not in _config_options(str(pkg), first.config_options)  # read once per run
    assert ("actor", "megatron_actor") in _config_options(str(pkg), Session().config_options)


def test_cited_lines_and_file_names_belong_to_the_run(tmp_path: Path) -> None:
    pkg = _package(tmp_path)
    src = pkg / "trainer" / "main_ppo.py"
    first = Session()
    assert _lines(src, first) == ["a = 1", "b = 2"]
    assert _by_name(pkg, first)["main_ppo.py"] == ["verl/trainer/main_ppo.py"]
    src.write_text("a = 1\n", encoding="utf-8")
    (pkg / "trainer" / "ray_trainer.py").write_text("", encoding="utf-8")
    assert _lines(src, first) == ["a = 1", "b = 2"]
    second = Session()
    assert _lines(src, second) == ["a = 1"]
    [cite] = find_citations("see `ray_trainer.py:1`", pkg, second)
    assert cite.path == "verl/trainer/ray_trainer.py"
    [stale] = find_citations("see `ray_trainer.py:1`", pkg, first)
    assert stale.path is None  # the first run listed the package before the file existed


def test_required_values_reads_verl_once_per_run(tmp_path: Path) -> None:
    pkg = _package(tmp_path)
    tree = VerlTree(root=tmp_path, label="tmp", version=None)
    memo: dict[tuple, object] = {}
    assert rv._line_of(tree, "verl/trainer/main_ppo.py", "b = 2", memo) == 2
    (pkg / "trainer" / "main_ppo.py").write_text("b = 2\n", encoding="utf-8")
    assert rv._line_of(tree, "verl/trainer/main_ppo.py", "b = 2", memo) == 2
    assert rv._line_of(tree, "verl/trainer/main_ppo.py", "b = 2", {}) == 1
