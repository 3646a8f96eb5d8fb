"""The verl API page (docs/reference/verl-api.md) renders verl's own docstrings. Where a docstring's parameter list
disagrees with the signature rendered above it, the page says so in a note under the class: these tests read the
pinned release and hold each note to what the docstring and the signature actually say."""

from __future__ import annotations

import ast
import re

import pytest

from tests.conftest import REPO

PAGES = ("verl-api.md", "verl-api.en.md")


def _method(tree, file: str, cls: str, name: str) -> ast.FunctionDef:
    module = ast.parse((tree.root / file).read_text(encoding="utf-8"))
    (klass,) = [n for n in module.body if isinstance(n, ast.ClassDef) and n.name == cls]
    (fn,) = [n for n in klass.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == name]
    return fn


def _signature(fn: ast.FunctionDef) -> list[str]:
    return [a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs] if a.arg != "self"]


def _docstring_params(fn: ast.FunctionDef) -> list[str]:
    doc = ast.get_docstring(fn) or ""
    args = re.search(r"Args:\n(.*?)(?:\n\s*\n|\Z)", doc, re.S)
    assert args, fn.name
    return re.findall(r"(?m)^    (\w+)(?: \(|:)", args.group(1))


CASES = [
    # (file, class, method, in the docstring only, in the signature only)
    ("verl/checkpoint_engine/base.py", "CheckpointEngine", "prepare", ["worker_group"], []),
    (
        "verl/checkpoint_engine/hccl_checkpoint_engine.py",
        "HCCLCheckpointEngine",
        "init_process_group",
        [],
        ["master_metadata"],
    ),
    (
        "verl/checkpoint_engine/kimi_checkpoint_engine.py",
        "KIMICheckpointEngine",
        "init_process_group",
        ["world_size"],
        ["actor_wg_world_size", "rollout_world_size", "master_metadata"],
    ),
]


@pytest.mark.parametrize(("file", "cls", "method", "doc_only", "sig_only"), CASES)
def test_each_docstring_that_disagrees_with_its_signature_gets_its_note(
    verl_tree, file, cls, method, doc_only, sig_only
):
    fn = _method(verl_tree, file, cls, method)
    sig, doc = _signature(fn), _docstring_params(fn)
    assert [p for p in doc if p not in sig] == doc_only
    assert [p for p in sig if p not in doc] == sig_only
    for page in PAGES:
        text = (REPO / "docs" / "reference" / page).read_text(encoding="utf-8")
        note = text[text.index(f"::: {file[:-3].replace('/', '.')}.{cls}\n") :].split("\n\n:::", 1)[0]
        for name in doc_only + (sig_only if cls != "KIMICheckpointEngine" else []):
            assert f"`{name}`" in note, (page, cls, name)


def test_the_mooncake_docstring_offers_cpu_or_cuda_and_the_page_says_npu_on_ascend(verl_tree):
    module = ast.parse((verl_tree.root / "verl/checkpoint_engine/mooncake_checkpoint_engine.py").read_text("utf-8"))
    (klass,) = [n for n in module.body if isinstance(n, ast.ClassDef) and n.name == "MooncakeCheckpointEngine"]
    assert '"cpu" or "cuda"' in (ast.get_docstring(klass) or "")
    for page in PAGES:
        text = (REPO / "docs" / "reference" / page).read_text(encoding="utf-8")
        note = text[text.index("::: verl.checkpoint_engine.mooncake_checkpoint_engine.MooncakeCheckpointEngine") :]
        assert "`engine_kwargs.mooncake.device: npu`" in note.split("\n\n:::", 1)[0]
