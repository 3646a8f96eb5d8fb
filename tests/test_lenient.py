"""``--lenient``: undeclared blocks of another project's docs get a kind guessed from their language."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import DATA
from tests.helpers import fence, rules
from verl_cookbook import checks
from verl_cookbook.checks import BLOCK_CHECKS, Context
from verl_cookbook.cli import main
from verl_cookbook.lenient import LANG_KINDS, guess_attrs
from verl_cookbook.markdown import parse_page
from verl_cookbook.runner import check_paths

README_LIKE = DATA / "verl_readme_like.md"


def _blocks(page: Path):
    return parse_page(page, page.parent, bases=[page.parent]).blocks


def _line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


@pytest.fixture
def ctx(facts, tmp_path) -> Context:
    checks.load_all()
    return Context(facts=facts, root=tmp_path, options={"lenient": True})


@pytest.mark.parametrize(
    ("lang", "kind"),
    [
        ("json", "json"),
        ("bash", "shell"),
        ("sh", "shell"),
        ("console", "shell"),
        ("python", "python"),
        ("py", "python"),
    ],
)
def test_language_maps_to_its_kind_when_that_kind_exists(lang, kind, ctx, write_page):
    block = _blocks(write_page(fence("x = 1", lang)))[0]
    expected = {"check": kind} if kind in BLOCK_CHECKS else None
    assert guess_attrs(block, ctx) == expected


def test_unknown_kind_is_skipped_not_reported(ctx, write_page, monkeypatch):
    monkeypatch.setitem(LANG_KINDS, "json", "not-a-kind")  # as if the json check were not implemented
    block = _blocks(write_page(fence("{}", "json")))[0]
    assert guess_attrs(block, ctx) is None


@pytest.mark.parametrize("lang", ["text", "", "toml", "diff"])
def test_other_languages_are_skipped(lang, ctx, write_page):
    block = _blocks(write_page(fence("a = 1", lang)))[0]
    assert guess_attrs(block, ctx) is None


def test_yaml_with_verl_top_level_keys_is_a_config_block(ctx, write_page):
    block = _blocks(write_page(fence("trainer:\n  total_epochs: 1\n", "yaml")))[0]
    assert guess_attrs(block, ctx) == {"check": "config"}


def test_yaml_starting_below_the_top_gets_the_unique_root(ctx, write_page):
    block = _blocks(write_page(fence("checkpoint_engine:\n  backend: nccl\n", "yaml")))[0]
    assert guess_attrs(block, ctx) == {"check": "config", "root": "actor_rollout_ref.rollout"}


@pytest.mark.parametrize(
    "code",
    ["services:\n  web:\n    image: nginx\n", "- a\n- b\n", "key: [unclosed\n", "enable: true\n"],
    ids=["foreign-config", "a-list", "invalid-yaml", "ambiguous-root"],
)
def test_yaml_that_is_not_verl_config_is_skipped(code, ctx, write_page):
    block = _blocks(write_page(fence(code, "yml")))[0]
    assert guess_attrs(block, ctx) is None


def test_without_lenient_undeclared_blocks_are_findings(facts, write_page):
    page = write_page(fence("trainer:\n  total_epochs: 1\n", "yaml"))
    assert rules(check_paths([page], facts).findings) == ["snippet/undeclared"]


def test_lenient_checks_a_guessed_config_block(facts, write_page):
    page = write_page(fence("actor_rollout_ref:\n  rollout:\n    checkpoint_engine:\n      backend: hccl\n", "yaml"))
    report = check_paths([page], facts, options={"lenient": True})
    assert rules(report.findings) == ["engine/unknown-backend"]
    assert report.checked == 1


def test_lenient_backend_table_reports_unregistered_names(facts, write_page):
    table = "| backend | x |\n|---|---|\n| naive | a |\n| `nccl` | b |\n| hccl | c |\n"
    page = write_page(table)
    findings = check_paths([page], facts, options={"lenient": True}).findings
    assert [(f.rule, f.line) for f in findings] == [("engine/unknown-backend", 5)]


def test_lenient_ignores_tables_that_do_not_list_backends(facts, write_page):
    table = "| hardware | backend |\n|---|---|\n| H100 | NCCL |\n| 910C | HCCL |\n| 910C | hccl |\n"
    page = write_page(table)
    assert check_paths([page], facts, options={"lenient": True}).findings == []


def test_readme_like_page_reports_both_real_defects_with_lines(verl_tree, capsys):
    """The two defects verl's checkpoint-engine README had: `hccl` as a backend name, a whitelist that is not JSON."""
    code = main(["check", "--lenient", str(README_LIKE), "--verl-src", str(verl_tree.root)])
    out = capsys.readouterr().out
    assert code == 1
    hccl_table, hccl_yaml = _line_of(README_LIKE, "|hccl|"), _line_of(README_LIKE, "backend: hccl")
    json_line = _line_of(README_LIKE, '"host_ip"')
    assert f"verl_readme_like.md:{hccl_table}:1: engine/unknown-backend backend `hccl`" in out
    assert f"verl_readme_like.md:{hccl_yaml}:7: engine/unknown-backend backend `hccl`" in out
    assert f"verl_readme_like.md:{json_line}:" in out, "the invalid whitelist JSON is not reported"
    assert "json/" in out.split(f"verl_readme_like.md:{json_line}:", 1)[1].splitlines()[0]


MEGATRON_FRAGMENT = (
    "actor_rollout_ref:\n  actor:\n    megatron:\n      tensor_model_parallel_size: 2\n      param_offload: true\n"
)


def test_a_fragment_for_the_megatron_engine_is_judged_on_the_megatron_config(ctx, facts, write_page):
    assert "ppo_megatron_trainer" in facts.config_names()
    block = _blocks(write_page(fence(MEGATRON_FRAGMENT, "yaml")))[0]
    assert guess_attrs(block, ctx) == {"check": "config", "config": "ppo_megatron_trainer"}
    report = check_paths([write_page(fence(MEGATRON_FRAGMENT, "yaml"))], facts, options={"lenient": True})
    assert report.findings == [] and report.checked == 1


def test_a_typo_in_a_megatron_fragment_is_reported_on_the_megatron_config(facts, write_page):
    typo = MEGATRON_FRAGMENT.replace("param_offload", "param_ofload")
    findings = check_paths([write_page(fence(typo, "yaml"))], facts, options={"lenient": True}).findings
    assert [(f.rule, f.line) for f in findings] == [("config/unknown-key", 6)]
    assert "param_ofload" in findings[0].message and "param_offload" in findings[0].message  # the close match


def test_a_fragment_no_config_fits_better_stays_on_ppo_trainer(ctx, write_page):
    block = _blocks(write_page(fence("trainer:\n  total_epoch: 1\n", "yaml")))[0]
    assert guess_attrs(block, ctx) == {"check": "config"}
