"""Claim checks (raises, symbol, contains, verl-version): each holds on verl as it is and fails, naming the
page line and the nearest verl line, when the claim is wrong."""

from __future__ import annotations

import pytest
from helpers import findings_for, rules

from verl_cookbook.checks import CLAIM_CHECKS, Context
from verl_cookbook.checks import claims as _claims  # noqa: F401 - registers the claim kinds
from verl_cookbook.markdown import Directive
from verl_cookbook.releases import default_release

VLLM = "verl/workers/rollout/vllm_rollout/vllm_rollout.py"
BASE = "verl/checkpoint_engine/base.py"
CALLBACK = "verl.trainer.ppo.checkpoint_callback.CheckpointCallback"


def run(facts, kind: str, **attrs: str) -> list:
    ctx = Context(facts=facts, root=facts.tree.root)
    return CLAIM_CHECKS[kind](Directive("page.md", 12, kind, attrs), ctx)


def line_at(facts, source: str) -> str:
    rel, _, line = source.rpartition(":")
    return facts.tree.read(rel).splitlines()[int(line) - 1]


# -- raises ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("file", "error", "match"),
    [
        (VLLM, "NotImplementedError", "requires colocated CUDA IPC"),  # a plain string
        (BASE, "NotImplementedError", "has no delta weight consumer for"),  # an f-string, literal part
        (BASE, "NotImplementedError", "rollout.name={self.rollout_config.name!r}"),  # an f-string placeholder
        (BASE, "ValueError", "not registered, registered backends"),  # raise ValueError(message): a variable
        (BASE, "AssertionError", "must have length of"),  # assert cond, f"..."
    ],
)
def test_raises_holds(facts, file: str, error: str, match: str) -> None:
    assert run(facts, "raises", file=file, error=error, match=match) == []


def test_raises_with_a_changed_message_shows_the_message_now(facts) -> None:
    (f,) = run(facts, "raises", file=VLLM, error="NotImplementedError", match="requires colocated NPU IPC")
    assert f.rule == "claim/message-changed" and (f.path, f.line) == ("page.md", 12)
    assert "now 'delta_sharded with vLLM requires colocated CUDA IPC'" in f.message
    assert "requires colocated CUDA IPC" in line_at(facts, f.fact_source)


def test_raises_of_another_error_type_names_the_real_one(facts) -> None:
    (f,) = run(facts, "raises", file=VLLM, error="ValueError", match="requires colocated CUDA IPC")
    assert f.rule == "claim/raises-other-error" and "raises NotImplementedError, not ValueError" in f.message
    assert "raise NotImplementedError" in line_at(facts, f.fact_source)


def test_raises_in_a_file_that_moved_names_where_it_is(facts) -> None:
    (f,) = run(facts, "raises", file="verl/workers/rollout/vllm_rollout.py", error="X", match="y")
    assert f.rule == "claim/file-missing" and "vllm_rollout/vllm_rollout.py" in f.message


def test_raises_text_found_in_another_file_is_pointed_at(facts) -> None:
    (f,) = run(facts, "raises", file=BASE, error="NotImplementedError", match="requires colocated CUDA IPC")
    assert f.rule == "claim/raises-missing"
    assert f.fact_source.startswith(VLLM + ":") and "requires colocated CUDA IPC" in line_at(facts, f.fact_source)


@pytest.mark.parametrize("attrs", [{}, {"file": BASE}, {"file": BASE, "error": "ValueError"}])
def test_raises_without_its_attributes_says_which_are_missing(facts, attrs) -> None:
    (f,) = run(facts, "raises", **attrs)
    assert f.rule == "claim/missing-attr" and "`match`" in f.message and "match" in f.data["missing"]


def test_file_outside_verl_is_refused(facts) -> None:
    (f,) = run(facts, "contains", file="../../etc/passwd", match="root")
    assert f.rule == "claim/bad-file"


# -- symbol ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "params"),
    [
        (f"{CALLBACK}.on_save", "trainer,global_step,checkpoint_dir,async_save"),
        (CALLBACK, "config"),  # a class: its __init__
        ("verl.checkpoint_engine.CheckpointEngineRegistry.register", ""),  # re-exported by the package
        ("verl.trainer.ppo.checkpoint_callback", ""),  # a module
    ],
)
def test_symbol_holds(facts, name: str, params: str) -> None:
    attrs = {"name": name, **({"params": params} if params else {})}
    assert run(facts, "symbol", **attrs) == []


def test_symbol_misspelt_suggests_the_real_name(facts) -> None:
    (f,) = run(facts, "symbol", name=f"{CALLBACK}.on_saved")
    assert f.rule == "claim/symbol-missing" and "did you mean `on_save`" in f.message


def test_symbol_with_a_parameter_it_lacks_shows_the_signature_line(facts) -> None:
    (f,) = run(facts, "symbol", name=f"{CALLBACK}.on_save", params="trainer,step")
    assert f.rule == "claim/params-mismatch" and "`step`" in f.message and "`trainer`" not in f.message
    assert "def on_save(" in line_at(facts, f.fact_source)


def test_symbol_outside_verl_is_a_finding(facts) -> None:
    (f,) = run(facts, "symbol", name="torch.nn.Module")
    assert f.rule == "claim/symbol-missing"


# -- contains ----------------------------------------------------------------------------------------------
def test_contains_holds_on_one_line_and_across_a_wrapped_statement(facts) -> None:
    assert run(facts, "contains", file=BASE, match="engine_kwargs.get(backend, {})") == []
    assert run(facts, "contains", file=BASE, match="CheckpointEngineRegistry.new( backend, bucket_size=") == []


def test_contains_changed_code_shows_the_closest_line(facts) -> None:
    (f,) = run(facts, "contains", file=BASE, match="engine_kwargs.get(backend_name, {})")
    assert f.rule == "claim/code-changed"
    assert "engine_kwargs.get(backend, {})" in line_at(facts, f.fact_source)


def test_contains_ignores_comments_and_docstrings(facts) -> None:
    rel = "verl/checkpoint_engine/nccl_checkpoint_engine.py"
    (f,) = run(facts, "contains", file=rel, match="Defaults to False")
    assert f.rule == "claim/only-in-comment"
    assert "Defaults to False" in line_at(facts, f.fact_source)


# -- verl-version ------------------------------------------------------------------------------------------
def test_verl_version_holds_for_the_pinned_release(facts) -> None:
    assert run(facts, "verl-version", version=default_release()) == []


def test_verl_version_of_another_release_asks_for_a_re_read(facts) -> None:
    (f,) = run(facts, "verl-version", version="0.0.1")
    assert f.rule == "claim/verl-version" and default_release() in f.message
    assert f.fact_source.startswith("verl_cookbook/data/releases.yaml:")


# -- through a page ------------------------------------------------------------------------------------------
def test_claims_on_a_page_are_checked_and_a_wrong_one_names_its_line(write_page, facts) -> None:
    page = write_page(
        "# p\n\n"
        f'Good. <!-- check: symbol name="{CALLBACK}.on_save" -->\n\n'
        f'Bad. <!-- check: contains file="{BASE}" match="no such code here at all" -->\n'
    )
    found = findings_for(page, facts)
    assert rules(found) == ["claim/code-missing"]
    assert found[0].line == 5


def test_unknown_claim_kind_is_a_finding(write_page, facts) -> None:
    page = write_page('# p\n\n<!-- check: raise file="verl/x.py" -->\n')
    assert rules(findings_for(page, facts)) == ["claim/unknown-check"]


RAISE_CORNERS = '''
def f(x):
    if x:
        raise ValueError(
            "split "
            "message"
        )
    y = [1 for _ in range(3)]  # no raise on this line
    assert x, f"bad {x}"


class C:
    def g(self):
        def inner():
            raise KeyError("inner")  # nested function: its own scope
        return inner


def h():
    """A docstring that says raise, and a string that says assert."""
    return "assert"
'''


def _nodes_entered(mod, whole: bool, monkeypatch) -> int:
    import ast

    from verl_cookbook.checks.raise_sites import raise_sites

    calls: list[object] = []
    real = ast.iter_child_nodes
    monkeypatch.setattr(ast, "iter_child_nodes", lambda node: calls.append(node) or real(node))
    list(raise_sites(mod, whole=whole))
    monkeypatch.setattr(ast, "iter_child_nodes", real)
    return len(calls)


def test_raise_scan_enters_only_lines_with_the_keyword_and_equals_the_full_walk(verl_tree, monkeypatch) -> None:
    import ast
    import os

    from verl_cookbook.checks.raise_sites import raise_sites
    from verl_cookbook.checks.verl_file import VerlFile

    corners = VerlFile("x.py", RAISE_CORNERS, ast.parse(RAISE_CORNERS))
    got = list(raise_sites(corners))
    assert [(name, line) for name, _msg, line in got] == [("ValueError", 4), ("AssertionError", 9), ("KeyError", 15)]
    assert got == list(raise_sites(corners, whole=True))
    # the reference does walk every node (else the comparison below would prove nothing)
    assert _nodes_entered(corners, True, monkeypatch) > _nodes_entered(corners, False, monkeypatch)
    files = 0
    for dirpath, _, filenames in os.walk(verl_tree.package):
        for fn in filenames:
            if fn.endswith(".py"):
                source = open(os.path.join(dirpath, fn), encoding="utf-8", errors="replace").read()
                mod = VerlFile(fn, source, ast.parse(source))
                assert list(raise_sites(mod)) == list(raise_sites(mod, whole=True)), fn
                files += 1
    assert files > 300


# -- the closest line of a failing claim -------------------------------------------------------------------
def _closest_scoring_every_line(match: str, candidates: list[tuple[str, int]]) -> tuple[str, int, float] | None:
    """``claims._closest`` without its pruning: every candidate is scored (the first best wins)."""
    import difflib

    m = _claims._norm(match).lower()
    best = None
    for text, line in candidates:
        t = _claims._norm(text).lower()
        if not m or not t:
            continue
        blocks = [b for b in difflib.SequenceMatcher(None, m, t, autojunk=False).get_matching_blocks() if b.size >= 3]
        if not blocks:
            continue
        score = (
            sum(b.size for b in blocks)
            / len(m)
            * min(1.0, len(m) / max(blocks[-1].b + blocks[-1].size - blocks[0].b, 1))
        )
        if best is None or score > best[2]:
            best = (text, line, score)
    return best if best is not None and best[2] >= _claims.CLOSE_ENOUGH else None


def test_the_closest_line_is_the_one_scoring_every_line_finds(facts) -> None:
    # the pruned search (a line whose shared 3-character runs cannot reach the floor or the best so far is not
    # scored) must answer exactly what scoring every line answers: on each line of two verl modules, edited the
    # ways code changes under a claim (a word renamed, a word dropped, an argument added), and on text from none
    import random

    rng = random.Random(7)
    asked = found = 0
    for rel in (BASE, VLLM):
        lines = [(t.strip(), n) for n, t in enumerate(facts.tree.read(rel).splitlines(), 1) if t.strip()]
        for text, _n in rng.sample(lines, 40):
            words = text.split()
            edits = [
                text,
                text.replace(words[0], words[0] + "_renamed", 1),
                " ".join(w for i, w in enumerate(words) if i != len(words) // 2),
                text.rstrip(")") + ", extra=None)",
                "no such line in any verl module at all",
            ]
            for match in edits:
                _claims._closest_of.cache_clear()
                want = _closest_scoring_every_line(match, lines)
                assert _claims._closest(match, lines) == want, (rel, match)
                asked += 1
                found += want is not None
    assert found > asked // 2  # most edits still have a close line: the comparison is not between two Nones
