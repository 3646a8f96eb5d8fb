"""Every `raises`/`contains` claim on the recipe pages fails once its verl source line is gone.

For each claim found on docs/recipes/ (collected when the tests are collected, so a new claim is covered
without touching this file), a private copy of the pinned verl tree loses the statement(s) the claim
rests on: the `raise`/`assert` whose message holds the claimed text, or the innermost statement whose code
holds the claimed line. The claim check must pass on the untouched copy and fail on the mutated one,
naming the claim's page line. Two more mutations cover the snippets: a model-merger option renamed in
verl's argparse, and the `CheckpointCallback.on_save` signature changed in verl.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO
from verl_cookbook import checks
from verl_cookbook.checks import BLOCK_CHECKS, CLAIM_CHECKS, Context
from verl_cookbook.checks.raise_sites import render_message
from verl_cookbook.checks.verl_file import parse_source
from verl_cookbook.facts import Facts
from verl_cookbook.facts import merger as merger_facts
from verl_cookbook.markdown import CodeBlock, Directive, parse_page
from verl_cookbook.releases import default_release, version_key
from verl_cookbook.verl_source import VerlTree, from_checkout

RECIPES = REPO / "docs" / "recipes"
MUTATED_KINDS = ("raises", "contains")


def _applies_to_pin(attrs: dict[str, str]) -> bool:
    pin = version_key(default_release())
    if "since" in attrs and pin < version_key(attrs["since"]):
        return False
    return not ("until" in attrs and pin >= version_key(attrs["until"]))


def _recipe_claims() -> list[Directive]:
    """Each distinct raises/contains claim on the recipe pages (the 中文 page's line when both have it)."""
    seen: dict[tuple, Directive] = {}
    for page in sorted(RECIPES.glob("*.md"), key=lambda p: (p.name.endswith(".en.md"), p.name)):
        for d in parse_page(page, REPO).directives:
            if d.kind in MUTATED_KINDS and _applies_to_pin(d.attrs):
                key = (d.kind, d.attrs.get("file"), d.attrs.get("error"), d.attrs.get("match"))
                seen.setdefault(key, d)
    return list(seen.values())


CLAIMS = _recipe_claims()


@pytest.fixture(scope="module")
def release_links(verl_tree: VerlTree, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The pinned verl package as a farm of links to its files, made once for this file.

    This file mutates one verl file per test, ~300 times: linking instead of copying keeps the set-up to directory
    entries, and one farm for every test instead of one each makes ~500 entries instead of ~160,000 (which pytest
    keeps for three sessions, and a later session deletes)."""
    farm = tmp_path_factory.mktemp("verl-links") / "verl"
    shutil.copytree(verl_tree.root / "verl", farm, copy_function=os.symlink)
    return farm


_REWRITTEN: list[Path] = []  # the farm entries a test replaced with files of their own (`_rewrite`)


@pytest.fixture
def verl_copy(release_links: Path, verl_tree: VerlTree, tmp_path: Path) -> Iterator[VerlTree]:
    """A tree of its own for the test (its own root, so nothing read for another test is reused) whose ``verl/``
    is the shared farm; the files the test rewrote are links to the release again when it ends, pass or fail."""
    dest = tmp_path / "verl-src"
    dest.mkdir()
    (dest / "verl").symlink_to(release_links, target_is_directory=True)
    yield from_checkout(dest)
    while _REWRITTEN:
        entry = _REWRITTEN.pop()
        entry.unlink(missing_ok=True)
        entry.symlink_to(verl_tree.root / "verl" / entry.relative_to(release_links))


def _rewrite(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` as a file of its own: the link to the shared release is removed first, so the
    release itself is never written through (``verl_copy`` puts the link back after the test)."""
    entry = path.parent.resolve() / path.name  # the farm's entry, whichever tree's root the path was built from
    entry.unlink()
    _REWRITTEN.append(entry)
    entry.write_text(text, encoding="utf-8")


def _ctx(facts: Facts, tree: VerlTree) -> Context:
    return Context(facts=Facts(facts.data, tree), root=REPO, options={})


# -- finding and removing the statement a claim rests on ----------------------------------------------------
def _raise_statements(tree: ast.Module) -> list[tuple[str, str, ast.stmt]]:
    """(error name, message as written, statement) for every ``raise X(msg)`` and ``assert …, msg``."""
    out: list[tuple[str, str, ast.stmt]] = []

    def visit(node: ast.AST, scope: ast.AST | None) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else scope
            if isinstance(child, ast.Raise) and isinstance(child.exc, ast.Call):
                name = ast.unparse(child.exc.func).rpartition(".")[2]
                msg = " ".join(render_message(a, scope) for a in child.exc.args[:1])
                out.append((name, msg, child))
            elif isinstance(child, ast.Assert):
                out.append(("AssertionError", render_message(child.msg, scope), child))
            visit(child, inner)

    visit(tree, None)
    return out


def _norm(text: str) -> str:
    return " ".join(text.split())


def _first_line(node: ast.stmt) -> int:
    """Where a statement starts in the source: a decorated def or class starts at its first decorator."""
    decorators = getattr(node, "decorator_list", None) or []
    return min([node.lineno, *(d.lineno for d in decorators)])


@dataclasses.dataclass(frozen=True)
class _Release:
    """A release file as the ~800 tests read it, made once per file: its parse (shared with the claim checks,
    :func:`parse_source`), its statements, and where each statement's lines lie in its whole text with whitespace
    collapsed, so a statement's lines hold a text exactly when that text is found in its stretch of ``flat``."""

    module: ast.Module
    flat: str  # _norm of the file's lines joined with " "
    spans: list[tuple[ast.stmt, int, int] | tuple[ast.stmt, None, None]]  # statement, its stretch of flat


@functools.cache
def _release(rel: str, source: str) -> _Release:
    parsed = parse_source(rel, source)
    assert parsed.tree is not None, f"{rel} of the release does not parse: {parsed.error}"
    lines = source.splitlines()
    words, starts, ends, pos = [], [], [], 0
    for line in lines:  # flat is " ".join of every line's words: each line's words lie at starts..ends
        text = " ".join(line.split())
        if text:
            pos += 1 if words else 0
            words.append(text)
            starts.append(pos)
            pos += len(text)
            ends.append(pos)
        else:
            starts.append(None)
            ends.append(None)
    flat = " ".join(words)
    first_words: list[int | None] = [None] * (len(lines) + 1)  # by line index: where the words from it on start
    for i in range(len(lines) - 1, -1, -1):
        first_words[i] = starts[i] if starts[i] is not None else first_words[i + 1]
    last_words: list[int | None] = [None] * (len(lines) + 1)  # by line index + 1: where the words up to it end
    for i in range(len(lines)):
        last_words[i + 1] = ends[i] if ends[i] is not None else last_words[i]
    spans: list = []
    for node in ast.walk(parsed.tree):
        if isinstance(node, ast.stmt):
            first, last = _first_line(node) - 1, min(node.end_lineno or node.lineno, len(lines))
            start, end = first_words[first], last_words[last]
            # lines[first:last] have words only if the first word from `first` on comes before the end of the last
            spans.append(
                (node, start, end) if start is not None and end is not None and start < end else (node, None, None)
            )
    return _Release(parsed.tree, flat, spans)


def _statements_holding(rel: str, source: str, match: str) -> list[ast.stmt]:
    """The innermost statements whose lines hold ``match`` (whitespace-insensitive); a decorator's line belongs to
    the def or class it decorates."""
    want = _norm(match)
    release = _release(rel, source)
    holding = [
        node
        for node, start, end in release.spans
        if (want in "" if start is None else release.flat.find(want, start, end) >= 0)
    ]
    ids = {id(n) for n in holding}
    return [n for n in holding if not any(o is not n and id(o) in ids for o in ast.walk(n))]


def _replace_with_pass(source: str, nodes: list[ast.stmt]) -> str:
    """Each statement becomes ``pass`` in place; the line count stays the same, the module still parses."""
    lines = source.splitlines(keepends=True)
    for node in sorted(nodes, key=lambda n: (n.lineno, n.col_offset), reverse=True):
        first, last = _first_line(node) - 1, (node.end_lineno or node.lineno) - 1
        # ast column offsets count UTF-8 bytes; a decorated statement starts at its first "@", the column before
        # the decorator's expression
        decorators = getattr(node, "decorator_list", None) or []
        col = node.col_offset if first == node.lineno - 1 else min(d.col_offset for d in decorators) - 1
        head = lines[first].encode()[:col].decode()
        tail = lines[last].encode()[node.end_col_offset :].decode() if node.end_col_offset is not None else "\n"
        lines[first] = head + "pass" + tail
        for n in range(first + 1, last + 1):
            lines[n] = "\n"
    return "".join(lines)


def remove_claimed_source(tree: VerlTree, d: Directive) -> int:
    """Remove what claim ``d`` rests on from ``tree``; the number of statements removed."""
    rel = d.attrs["file"]
    path = tree.root / rel
    source = path.read_text(encoding="utf-8")
    match = _norm(d.attrs["match"])
    if d.kind == "raises":
        module = _release(rel, source).module
        nodes = [s for name, msg, s in _raise_statements(module) if name == d.attrs["error"] and match in _norm(msg)]
    else:
        nodes = _statements_holding(rel, source, d.attrs["match"])
    if nodes:
        mutated = _replace_with_pass(source, nodes)
        # the claim must fail because the line is gone, not because the file broke (parsed as the claim check
        # will parse it: the check finds this parse in the memo)
        parsed = parse_source(rel, mutated)
        assert parsed.tree is not None, f"{rel} no longer parses once the statements are gone: {parsed.error}"
        _rewrite(path, mutated)
    return len(nodes)


# -- the claims ---------------------------------------------------------------------------------------------
def test_recipe_pages_carry_claims_to_mutate() -> None:
    kinds = {d.kind for d in CLAIMS}
    assert kinds == set(MUTATED_KINDS), f"expected raises and contains claims on {RECIPES}, found {kinds}"


@pytest.mark.parametrize("claim", CLAIMS, ids=[f"{Path(d.page).name}:{d.line}:{d.kind}" for d in CLAIMS])
def test_claim_fails_once_its_verl_line_is_removed(claim: Directive, facts: Facts, verl_copy: VerlTree) -> None:
    checks.load_all()
    check = CLAIM_CHECKS[claim.kind]
    assert check(claim, _ctx(facts, verl_copy)) == [], "the claim must hold on the untouched copy"
    removed = remove_claimed_source(verl_copy, claim)
    assert removed, f"found no statement in {claim.attrs['file']} that holds {claim.attrs['match']!r}"
    findings = check(claim, _ctx(facts, verl_copy))
    assert findings, f"{claim.page}:{claim.line}: the claim still holds after its source line was removed"
    assert {(f.path, f.line) for f in findings} == {(claim.page, claim.line)}


# -- the snippets: a merger option and the callback signature -----------------------------------------------
def _blocks(page: str, kind: str) -> list[CodeBlock]:
    return [b for b in parse_page(RECIPES / page, REPO).blocks if b.attrs.get("check") == kind]


def _edit(tree: VerlTree, rel: str, old: str, new: str) -> None:
    path = tree.root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{rel} no longer contains {old!r}: update this mutation"
    _rewrite(path, text.replace(old, new))


def test_merger_commands_fail_when_verl_renames_their_option(facts: Facts, verl_copy: VerlTree) -> None:
    checks.load_all()
    blocks = [b for b in _blocks("model-merger.md", "shell") if "verl.model_merger" in b.code]
    assert blocks, "the model-merger recipe has no `python -m verl.model_merger` block"
    assert all(BLOCK_CHECKS["shell"](b, _ctx(facts, verl_copy)) == [] for b in blocks)

    _edit(verl_copy, "verl/model_merger/base_model_merger.py", '"--local_dir"', '"--checkpoint_dir"')
    data = dict(facts.data, merger=merger_facts.extract(verl_copy))
    ctx = Context(facts=Facts(data, verl_copy), root=REPO, options={})
    for block in blocks:
        findings = BLOCK_CHECKS["shell"](block, ctx)
        assert findings and all("--local_dir" in f.message for f in findings), (block.line, findings)
        lines = block.code.splitlines()
        where = [block.where(n) for n, text in enumerate(lines, 1) if "--local_dir" in text]
        assert {(f.path, f.line) for f in findings} <= set(where)


def test_callback_example_fails_when_verl_changes_on_save(facts: Facts, verl_copy: VerlTree) -> None:
    checks.load_all()
    (block,) = _blocks("checkpoint-callback.md", "python")
    unbounded = dataclasses.replace(block, attrs={"check": "python"})
    assert BLOCK_CHECKS["python"](unbounded, _ctx(facts, verl_copy)) == []

    _edit(
        verl_copy,
        "verl/trainer/ppo/checkpoint_callback.py",
        "def on_save(self, trainer, global_step: int, checkpoint_dir: str,",
        "def on_save(self, trainer, global_step: int, save_dir: str,",
    )
    findings = BLOCK_CHECKS["python"](unbounded, _ctx(facts, verl_copy))
    assert [f.rule for f in findings] == ["python/override-signature"]
    (finding,) = findings
    assert "on_save" in finding.message and "checkpoint_dir" in finding.message
    snippet_line = next(n for n, t in enumerate(block.code.splitlines(), 1) if "def on_save(" in t)
    assert (finding.path, finding.line) == block.where(snippet_line)
