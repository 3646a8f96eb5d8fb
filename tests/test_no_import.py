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
