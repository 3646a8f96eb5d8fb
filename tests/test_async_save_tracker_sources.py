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
MEGATRON_MANAGER = "verl/utils/checkpoint/megatron_checkpoint_manager.py"
LEGACY_MEGATRON_WORKER = "verl/workers/megatron_workers.py"
FINALIZE_HOOK = "async_calls_finalize_fn_exec"  # what the PPO trainers call, behind hasattr, after a save


@pytest.fixture(scope="module")
def trees() -> dict[str, VerlTree]:
    return {r: from_release(r) for r in covered_releases()}


@functools.cache
def _sources(tree: VerlTree) -> dict[str, str]:
    """Every module of the release's package, as text, read once per run."""
    return {
        path.relative_to(tree.root).as_posix(): path.read_text(encoding="utf-8", errors="replace")
        for path in sorted(tree.package.rglob("*.py"))
    }


@functools.cache
def _module(tree: VerlTree, rel: str) -> ast.Module | None:
    """Module ``rel`` of the release, parsed once per run; None when it is not there or does not parse."""
    text = _sources(tree).get(rel)
    try:
        return None if text is None else ast.parse(text)
    except SyntaxError:
        return None


def _modules(tree: VerlTree, name: str) -> dict[str, ast.Module]:
    """Every module of the release's package that parses and whose code can hold ``name``: its text has it, or has
    characters beyond ASCII (Python folds identifiers to NFKC: ``ｆ`` is ``f``). No other module can define or call
    it, so none is parsed: parsing four whole releases was most of this file's time."""
    out = {}
    for rel, text in _sources(tree).items():
        if name in text or not text.isascii():
            module = _module(tree, rel)
            if module is not None:
                out[rel] = module
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
    assert _module(tree, FSDP_MANAGER) is not None, f"{release}: {FSDP_MANAGER} is gone; re-read the entry"
    assert "async_save" not in tree.read(FSDP_MANAGER), f"{release}: the FSDP checkpoint manager now handles async_save"
    fsdp = [rel for rel in _sources(tree) if "fsdp" in rel.lower()]
    writers = [rel for rel in fsdp if (m := _module(tree, rel)) is not None and _mentions(m, TRACKER)]
    assert not writers, f"{release}: FSDP code names {TRACKER}.txt: {writers}"


@pytest.mark.parametrize("release", covered_releases())
def test_after_0_7_1_nothing_finalizes_a_megatron_background_save(trees: dict[str, VerlTree], release: str) -> None:
    """The Megatron manager writes the tracker in the finalize callback it hands to Megatron's async queue; that
    callback runs only when someone calls ``maybe_finalize_async_calls``. verl 0.7.1's legacy Megatron worker does
    (``async_calls_finalize_fn_exec``, which the trainers call behind ``hasattr``); later releases have neither."""
    tree = trees[release]
    manager = _module(tree, MEGATRON_MANAGER)
    assert manager is not None, f"{release}: {MEGATRON_MANAGER} is gone; re-read the entry"
    assert _mentions(manager, TRACKER) and _calls(manager, "add_finalize_fn"), (
        f"{release}: the Megatron manager no longer writes the tracker from a finalize callback; re-read the entry"
    )
    hooks = sorted(rel for rel, m in _modules(tree, FINALIZE_HOOK).items() if _defines(m, FINALIZE_HOOK))
    finalizers = sorted(
        rel
        for rel, m in _modules(tree, "maybe_finalize_async_calls").items()
        if _calls(m, "maybe_finalize_async_calls")
    )
    if version_key(release) <= version_key("0.7.1"):
        assert hooks == finalizers == [LEGACY_MEGATRON_WORKER], (release, hooks, finalizers)
    else:
        assert not hooks and not finalizers, f"{release}: Megatron async saves are finalized by {hooks + finalizers}"
