"""troubleshooting #checkpoint-location (review32c-2): with ``async_save`` on, the PPO trainers leave
``latest_checkpointed_iteration.txt`` to the checkpoint manager, and only verl 0.7.1's Megatron worker ever runs the
finalize step that writes it. Held by reading every covered release (the unpacked wheel, nothing imported): no FSDP
code writes the tracker, and after 0.7.1 no verl code finalizes a Megatron background save."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

from verl_cookbook.releases import covered_releases, version_key
from verl_cookbook.verl_source import VerlTree, from_release

REPO = Path(__file__).resolve().parent.parent
PAGES = [REPO / "docs" / "recipes" / f"troubleshooting{s}.md" for s in ("", ".en")]
TRACKER = "latest_checkpointed_iteration"
FSDP_MANAGER = "verl/utils/checkpoint/fsdp_checkpoint_manager.py"
LEGACY_MEGATRON_WORKER = "verl/workers/megatron_workers.py"
FINALIZE_HOOK = "async_calls_finalize_fn_exec"  # what the PPO trainers call, behind hasattr, after a save


@pytest.fixture(scope="module")
def trees() -> dict[str, VerlTree]:
    return {r: from_release(r) for r in covered_releases()}


@functools.cache
def _modules(tree: VerlTree) -> dict[str, ast.Module]:
    """Every module of the release's package, parsed once per run."""
    out = {}
    for path in sorted(tree.package.rglob("*.py")):
        rel = path.relative_to(tree.root).as_posix()
        try:
            out[rel] = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
        except SyntaxError:
            continue
    return out


def _defines(module: ast.Module, name: str) -> bool:
    return any(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == name for n in ast.walk(module))


def _calls(module: ast.Module, attr: str) -> bool:
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == attr for n in ast.walk(module)
    )


def _mentions(module: ast.Module, text: str) -> bool:
    """A string constant of the code (not a comment; docstrings included, which is the safe side here)."""
    return any(isinstance(n, ast.Constant) and isinstance(n.value, str) and text in n.value for n in ast.walk(module))


@pytest.mark.parametrize("release", covered_releases())
def test_with_async_save_no_fsdp_code_writes_the_tracker(trees: dict[str, VerlTree], release: str) -> None:
    """The FSDP checkpoint manager has no async-save path and no verl file about FSDP names the tracker, so once the
    trainer skips it the tracker is never written with FSDP."""
    tree = trees[release]
    mods = _modules(tree)
    assert FSDP_MANAGER in mods, f"{release}: {FSDP_MANAGER} is gone; re-read the entry"
    assert "async_save" not in tree.read(FSDP_MANAGER), f"{release}: the FSDP checkpoint manager now handles async_save"
    writers = [rel for rel, m in mods.items() if "fsdp" in rel.lower() and _mentions(m, TRACKER)]
    assert not writers, f"{release}: FSDP code names {TRACKER}.txt: {writers}"


@pytest.mark.parametrize("release", covered_releases())
def test_after_0_7_1_nothing_finalizes_a_megatron_background_save(trees: dict[str, VerlTree], release: str) -> None:
    """The Megatron manager writes the tracker in the finalize callback it hands to Megatron's async queue; that
    callback runs only when someone calls ``maybe_finalize_async_calls``. verl 0.7.1's legacy Megatron worker does
    (``async_calls_finalize_fn_exec``, which the trainers call behind ``hasattr``); later releases have neither."""
    tree = trees[release]
    mods = _modules(tree)
    manager = mods["verl/utils/checkpoint/megatron_checkpoint_manager.py"]
    assert _mentions(manager, TRACKER) and _calls(manager, "add_finalize_fn"), (
        f"{release}: the Megatron manager no longer writes the tracker from a finalize callback; re-read the entry"
    )
    hooks = sorted(rel for rel, m in mods.items() if _defines(m, FINALIZE_HOOK))
    finalizers = sorted(rel for rel, m in mods.items() if _calls(m, "maybe_finalize_async_calls"))
    if version_key(release) <= version_key("0.7.1"):
        assert hooks == finalizers == [LEGACY_MEGATRON_WORKER], (release, hooks, finalizers)
    else:
        assert not hooks and not finalizers, f"{release}: Megatron async saves are finalized by {hooks + finalizers}"
