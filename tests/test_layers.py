"""The package's layering: cli is the top; nothing below it imports it (not even late, inside a function)."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "verl_cookbook"


def _imports(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_no_module_below_the_cli_imports_it() -> None:
    offenders = [
        str(p.relative_to(PKG))
        for p in PKG.rglob("*.py")
        if p.name not in {"cli.py", "__main__.py"} and "verl_cookbook.cli" in _imports(p)
    ]
    assert offenders == []


def test_the_layer_check_sees_a_late_import(tmp_path: Path) -> None:
    bad = tmp_path / "m.py"
    bad.write_text("def f():\n    from verl_cookbook.cli import _facts\n", encoding="utf-8")
    assert "verl_cookbook.cli" in _imports(bad)
