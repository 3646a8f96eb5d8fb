"""verl's code is read, never imported or run: a tree whose every module would leave a mark if executed is
checked, and no mark appears."""

from __future__ import annotations

import sys
from pathlib import Path

from verl_cookbook.cli import main
from verl_cookbook.verl_source import VerlTree

SITE = Path(__file__).resolve().parent / "data" / "minisite"


def booby_trap(tree: VerlTree, marks: Path) -> int:
    """Put, at the top of every .py file, code that writes a marker file and exits. Returns the file count."""
    n = 0
    for path in sorted(tree.package.rglob("*.py")):
        mark = marks / f"{n}.imported"
        trap = f"open({str(mark)!r}, 'w').write({str(path)!r}); raise SystemExit('verl module executed')\n"
        path.write_text(trap + path.read_text(encoding="utf-8"), encoding="utf-8")
        n += 1
    return n


def verl_modules() -> list[str]:
    return [m for m in sys.modules if m == "verl" or m.startswith("verl.")]


def test_checking_a_booby_trapped_tree_executes_none_of_it(verl_copy: VerlTree, tmp_path: Path, capsys) -> None:
    marks = tmp_path / "marks"
    marks.mkdir()
    trapped = booby_trap(verl_copy, marks)
    assert trapped > 100  # the whole package, not a corner of it
    before = verl_modules()

    check = main(["check", "--root", str(SITE), "--verl-src", str(verl_copy.root), "--no-cache", "--format", "json"])
    facts = main(["facts", "--verl-src", str(verl_copy.root), "--no-cache", "--format", "json"])
    out = capsys.readouterr()

    assert list(marks.iterdir()) == []
    assert verl_modules() == before == []
    assert "Traceback" not in out.err and "verl module executed" not in out.out + out.err
    assert facts == 0
    assert check == 0, out.out  # the facts are the same: the trap lines change no default, name or signature


def test_composing_every_entry_points_config_in_a_booby_trapped_tree_executes_none_of_it(
    verl_copy: VerlTree, tmp_path: Path
) -> None:
    """Hydra composes each entry point's config from the tree's folders: a ``pkg://verl.trainer.config`` search
    path (the experimental entry points' configs have one) would make Hydra import verl; it is read as a folder."""
    from verl_cookbook.checks.config.checker import ConfigChecker
    from verl_cookbook.checks.config.hydra_apply import resolve_config
    from verl_cookbook.checks.config.model import Assignment
    from verl_cookbook.facts import load_facts

    marks = tmp_path / "marks"
    marks.mkdir()
    booby_trap(verl_copy, marks)
    facts = load_facts(verl_copy, use_cache=False)
    entries = facts.entry_points()
    assert {"verl.trainer.main_ppo", "verl.trainer.sft_trainer", "verl.trainer.main_eval"} <= set(entries)
    assert any("pkg://" in verl_copy.read(c["file"]) for c in facts.data["entry_points"]["configs"].values())
    for module in entries:
        name, folder, why = resolve_config(facts, module)
        checker = ConfigChecker(facts, name, config_dir=folder, entry_point=module)
        assert why is None and checker.base, (module, checker.composed)
        groups = facts.config_groups(name, folder)
        overrides = ["+trainer.trap_probe=1"] if "trainer" in checker.base else ["+trap_probe=1"]
        if "model_engine" in groups and "model_engine" in checker.base:
            overrides.append("model_engine=megatron")
        found = checker.check([Assignment((), None, "t.sh", 1, 1, "set", raw=o) for o in overrides])
        assert [f.rule for f in found if f.rule.startswith(("override/", "config/unknown"))] == [], module
    assert list(marks.iterdir()) == []
    assert verl_modules() == []


def test_doctor_on_a_booby_trapped_tree_executes_none_of_it(verl_copy: VerlTree, tmp_path: Path, capsys) -> None:
    """``doctor`` without ``--startup`` reads a launch script and a YAML config against the tree: nothing of verl
    runs in its process."""
    marks = tmp_path / "marks"
    marks.mkdir()
    booby_trap(verl_copy, marks)
    doctor_data = Path(__file__).resolve().parent / "data" / "doctor"
    files = [str(doctor_data / "hccl_backend.sh"), str(doctor_data / "npu_mooncake_ok.yaml")]
    code = main(["doctor", *files, "--verl-src", str(verl_copy.root), "--no-cache", "--format", "json"])
    out = capsys.readouterr()
    assert list(marks.iterdir()) == []
    assert verl_modules() == []
    assert "verl module executed" not in out.out + out.err
    assert code == 1 and "engine/unknown-backend" in out.out  # the script's real mistake, judged from the trapped tree
