"""scripts/realworld.py: the measurement passes doctor's options through and times every script."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import pytest

from verl_cookbook.checks.launch import Stage

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "realworld.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("realworld_under_test", SCRIPT)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@dataclass
class _Report:
    path: str
    commands: int = 1
    findings: list = field(default_factory=list)
    notes: list = field(default_factory=list)


def _checkout(tmp_path: Path) -> Path:
    (tmp_path / "verl").mkdir()
    ex = tmp_path / "examples" / "grpo"
    ex.mkdir(parents=True)
    for name in ("a.sh", "b.sh"):
        (ex / name).write_text("python3 -m verl.trainer.main_ppo trainer.nnodes=1\n")
    return tmp_path


@pytest.mark.parametrize(("flag", "expected"), [([], True), (["--no-required"], False)])
def test_required_checks_reach_diagnose_for_every_script_unless_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], flag: list[str], expected: bool
) -> None:
    rw = _load()
    root = _checkout(tmp_path)
    seen: list[tuple[str, bool]] = []

    def fake_diagnose(path: Path, facts: object, *, stages: Stage = Stage.STATIC) -> _Report:
        seen.append((path.name, Stage.REQUIRED in stages))
        return _Report(str(path))

    class _Tree:
        label = "test"

    class _Facts:
        tree = _Tree()

    monkeypatch.setattr(rw, "diagnose", fake_diagnose)
    monkeypatch.setattr(rw, "load_facts", lambda *a, **k: _Facts())
    monkeypatch.setattr(rw, "resolve", lambda *a, **k: None)
    assert rw.main([str(root), "--only", "doctor", *flag]) == 0
    assert sorted(seen) == [("a.sh", expected), ("b.sh", expected)]
    out = capsys.readouterr().out
    assert ("(with --required)" in out) is expected
    assert "per script: median" in out and "slowest" in out
