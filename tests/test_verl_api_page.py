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


# -- every disagreement, found from the source (review18b #7) ------------------------------------------------------

_ARGS = re.compile(r"(?m)^(?:Args|Arguments|Parameters):\n(.*?)(?:\n\s*\n|\n\S|\Z)", re.S)
_PARAM = re.compile(r"^    (\*{0,2}\w+)(?: \([^)]*\))?:\s*(.*)$")
_DEFAULT = re.compile(r"[Dd]efaults? (?:to|is) `*([^`\s,;]+?)`*[.,;]?(?:\s|$)")


def _described(doc: str) -> dict[str, str] | None:
    """A Google-style docstring's parameters and their descriptions; None when it has no Args section."""
    m = _ARGS.search(doc)
    if not m:
        return None
    out: dict[str, str] = {}
    name = None
    for line in m.group(1).splitlines():
        p = _PARAM.match(line)
        if p:
            name = p.group(1).lstrip("*")
            out[name] = p.group(2)
        elif name:
            out[name] += " " + line.strip()
    return out


def _defaults(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, str | None]:
    """Every parameter but self, with its default as written (None: no default)."""
    a = fn.args
    positional = [*a.posonlyargs, *a.args]
    given = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    out = {x.arg: (ast.unparse(d) if d is not None else None) for x, d in zip(positional, given, strict=True)}
    out |= {
        x.arg: (ast.unparse(d) if d is not None else None) for x, d in zip(a.kwonlyargs, a.kw_defaults, strict=True)
    }
    out |= {x.arg: None for x in (a.vararg, a.kwarg) if x is not None}
    out.pop("self", None)
    out.pop("cls", None)
    return out


def disagreements(source: str, name: str) -> list[tuple[str, str, str]]:
    """Where the docstrings of class or function ``name`` in ``source`` disagree with its signatures, as
    (method, parameter, what): ``doc only`` (listed, not a parameter), ``signature only`` (a parameter it leaves
    out) or ``default X, signature Y`` (a "Defaults to X" the signature does not have). A class's constructor is
    described by the class docstring (as mkdocstrings renders it) or by ``__init__``'s own."""
    (node,) = [n for n in ast.parse(source).body if getattr(n, "name", None) == name]
    funcs = (ast.FunctionDef, ast.AsyncFunctionDef)
    items: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, str]] = []
    if isinstance(node, ast.ClassDef):
        for fn in node.body:
            if isinstance(fn, funcs) and fn.name == "__init__":
                items.append(("__init__", fn, (ast.get_docstring(node) or "") + "\n\n" + (ast.get_docstring(fn) or "")))
            elif isinstance(fn, funcs) and not fn.name.startswith("_"):
                items.append((fn.name, fn, ast.get_docstring(fn) or ""))
    elif isinstance(node, funcs):
        items.append((node.name, node, ast.get_docstring(node) or ""))
    out = []
    for method, fn, doc in items:
        described = _described(doc)
        if described is None:  # no parameter list: nothing to disagree with
            continue
        sig = _defaults(fn)
        out += [(method, p, "doc only") for p in described if p not in sig]
        out += [(method, p, "signature only") for p in sig if p not in described]
        for p, text in described.items():
            m = _DEFAULT.search(text)
            if m and p in sig and (sig[p] or "").strip("\"'") != m.group(1).strip("\"'"):
                out.append((method, p, f"default {m.group(1)}, signature {sig[p]}"))
    return out


AGREES = '''
class Engine:
    """An engine.

    Args:
        multi_sender (bool): Whether to relay. Defaults to True, which widens the fan-out.
        group_name (str): The group. Defaults to "default".
        rollout_dtype (torch.dtype): The dtype. Defaults to torch.bfloat16.
    """

    def __init__(self, multi_sender: bool = True, group_name: str = "default", rollout_dtype=torch.bfloat16):
        pass
'''


def test_a_stated_default_that_differs_from_the_signature_is_found_and_one_that_agrees_is_not(verl_tree):
    nccl = (verl_tree.root / "verl/checkpoint_engine/nccl_checkpoint_engine.py").read_text(encoding="utf-8")
    assert ("__init__", "multi_sender", "default False, signature True") in disagreements(nccl, "NCCLCheckpointEngine")
    assert disagreements(AGREES, "Engine") == []
    assert disagreements(AGREES.replace("Defaults to True", "Defaults to False"), "Engine") == [
        ("__init__", "multi_sender", "default False, signature True")
    ]


def test_every_disagreement_on_the_page_has_its_note(verl_tree):
    """Each object the page renders (``::: name``) is read from the pinned release; every parameter a docstring lists
    that the signature lacks, every parameter it leaves out and every default it misstates is named in the note under
    that object, with the method it belongs to."""
    for page in PAGES:
        text = (REPO / "docs" / "reference" / page).read_text(encoding="utf-8")
        for dotted in re.findall(r"(?m)^::: (\S+)$", text):
            parts = dotted.split(".")
            cut = next(
                k
                for k in range(len(parts), 0, -1)
                if (verl_tree.root / "/".join(parts[:k])).with_suffix(".py").is_file()
            )
            source = (verl_tree.root / "/".join(parts[:cut])).with_suffix(".py").read_text(encoding="utf-8")
            found = disagreements(source, parts[cut])
            note = text[text.index(f"::: {dotted}\n") :].split("\n\n:::", 1)[0]
            for method, param, what in found:
                assert param in note and (method == "__init__" or method in note), (page, dotted, method, param, what)
                if what.startswith("default"):
                    assert "`" + what.rsplit(" ", 1)[-1] + "`" in note, (page, dotted, param, what)
