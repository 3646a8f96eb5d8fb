"""Messages say what is true: the IP hint only for whitelist-like JSON, a raise's real message (never ''),
a missing module file as a missing file, counts in the right number, lists "above" when they are above."""

from __future__ import annotations

import shutil

import pytest
from helpers import fence, findings_for

from verl_cookbook.checks import CLAIM_CHECKS, Context
from verl_cookbook.checks import claims as _claims  # noqa: F401 - registers the claim kinds
from verl_cookbook.checks.json_file import check_json_text
from verl_cookbook.cli import main
from verl_cookbook.facts import Facts, load_facts
from verl_cookbook.interface import plural
from verl_cookbook.markdown import Directive
from verl_cookbook.verl_source import VerlTree, from_checkout

IP_HINT = "put all IPs in one array"


def _json(text: str, schema: str | None = None) -> list:
    return check_json_text(text, schema, lambda line: ("f.json", line), ("f.json", 1))


# -- the JSON hint ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "schema"),
    [
        ('{ "host_ip": ["10.0.0.1"], ["10.0.0.2"] }', None),  # the README's mistake
        ('{ ["10.0.0.1"] }', None),
        ('{ "a": 1, [1] }', "hccl_whitelist"),
    ],
)
def test_the_ip_hint_is_given_for_whitelist_like_json(text: str, schema: str | None) -> None:
    (f,) = _json(text, schema)
    assert f.rule == "json/syntax" and IP_HINT in f.message


@pytest.mark.parametrize("text", ['{ "name": "x", ["y"] }', "{ 1: 2 }"])  # a trailing comma: test_json_messages
def test_other_json_gets_the_key_hint_without_ips(text: str) -> None:
    (f,) = _json(text)
    assert f.rule == "json/syntax" and '"key": in front' in f.message and "IP" not in f.message


# -- raises: the real message ---------------------------------------------------------------------------
def _claim(facts: Facts, kind: str, **attrs: str) -> list:
    return CLAIM_CHECKS[kind](Directive("page.md", 3, kind, attrs), Context(facts=facts, root=facts.tree.root))


@pytest.fixture(scope="module")
def raising_tree(verl_tree: VerlTree, tmp_path_factory: pytest.TempPathFactory) -> Facts:
    """verl with a module whose raises build their message the ways verl's code does."""
    root = tmp_path_factory.mktemp("verl-raising")
    shutil.copytree(verl_tree.root / "verl", root / "verl")
    (root / "verl" / "utils" / "raising.py").write_text(
        "HELP = 'see the docs for the supported formats'\n"
        "try:\n"
        "    import nothing_here\n"
        "except ImportError:\n"
        "    msg = f'nothing_here is needed for {__name__}'\n"
        "    raise ImportError(msg)\n"
        "\n"
        "def fmt(kind):\n"
        "    raise NotImplementedError(HELP)\n"
        "\n"
        "def check(err):\n"
        "    raise ValueError(err)\n",
        encoding="utf-8",
    )
    return load_facts(from_checkout(root), use_cache=False)


@pytest.mark.parametrize(
    ("error", "match"),
    [
        ("ImportError", "nothing_here is needed for"),  # an f-string in a variable, at module level
        ("NotImplementedError", "supported formats"),  # a module-level constant
    ],
)
def test_raises_read_messages_kept_in_variables(raising_tree: Facts, error: str, match: str) -> None:
    assert _claim(raising_tree, "raises", file="verl/utils/raising.py", error=error, match=match) == []


def test_a_changed_f_string_message_is_shown_as_written_not_empty(raising_tree: Facts) -> None:
    (f,) = _claim(
        raising_tree, "raises", file="verl/utils/raising.py", error="ImportError", match="nothing_here is required for"
    )
    assert f.rule == "claim/message-changed"
    assert "now 'nothing_here is needed for {__name__}'" in f.message and "''" not in f.message + (f.fact or "")


def test_a_message_passed_in_as_a_parameter_shows_the_parameter(raising_tree: Facts) -> None:
    (f,) = _claim(raising_tree, "raises", file="verl/utils/raising.py", error="ValueError", match="bad value")
    assert "'{err}'" in (f.fact or "") and "''" not in (f.fact or "")


# -- a missing module file ------------------------------------------------------------------------------
def test_a_missing_module_file_is_reported_as_a_missing_file(facts: Facts) -> None:
    (f,) = _claim(facts, "symbol", name="verl.checkpoint_engine.nccl_engine.NCCLCheckpointEngine")
    assert f.rule == "claim/file-missing"
    assert "no module file `verl/checkpoint_engine/nccl_engine.py`" in f.message
    assert "did you mean `nccl_checkpoint_engine`" in f.message
    assert "not defined in" not in f.message


def test_a_name_missing_from_a_package_is_still_a_missing_symbol(facts: Facts) -> None:
    (f,) = _claim(facts, "symbol", name="verl.checkpoint_engine.CheckpointEngineRegistri")
    assert f.rule == "claim/symbol-missing" and "is not defined in `verl/checkpoint_engine/__init__.py`" in f.message


def test_an_existing_module_symbol_is_silent(facts: Facts) -> None:
    assert _claim(facts, "symbol", name="verl.checkpoint_engine.nccl_checkpoint_engine.NCCLCheckpointEngine") == []


# -- counts and directions --------------------------------------------------------------------------------
@pytest.mark.parametrize(("n", "shown"), [(0, "0 pages"), (1, "1 page"), (2, "2 pages")])
def test_plural(n: int, shown: str) -> None:
    assert plural(n, "page") == shown


def test_the_summary_of_one_page_says_1_page(write_page, capsys, verl_tree: VerlTree) -> None:
    page = write_page("# t\n\n" + fence("actor_rollout_ref:\n  rollout:\n    name: vllm", '{ .yaml check="config" }'))
    assert main(["check", str(page)]) == 0
    err = capsys.readouterr().err
    assert "1 page, 1 code block, 0 tables, 0 claims; 1 checked; 0 findings" in err


def test_the_backend_advice_points_at_the_list_above_it(tmp_path, capsys, verl_tree: VerlTree) -> None:
    script = tmp_path / "run.sh"
    script.write_text("python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.checkpoint_engine.backend=ncl\n")
    assert main(["doctor", str(script)]) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    start = next(i for i, ln in enumerate(lines) if "engine/unknown-backend" in ln)  # other findings have fixes too
    verl_line = next(i for i, ln in enumerate(lines) if "registered backends" in ln)
    fix_line = next(i for i, ln in enumerate(lines) if i > start and ln.strip().startswith("fix:"))
    assert start < verl_line < fix_line and "listed above" in lines[fix_line] and "below" not in out


def test_a_page_with_a_whitelist_json_mistake_gets_the_hint(write_page, facts: Facts) -> None:
    page = write_page("# t\n\n" + fence('{ "host_ip": ["10.0.0.1"], ["10.0.0.2"] }', '{ .json check="json" }'))
    (f,) = findings_for(page, facts)
    assert IP_HINT in f.message
