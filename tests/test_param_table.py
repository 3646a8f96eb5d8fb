"""Parameter tables: each row's claimed default must equal verl's, for config scopes and engine constructors."""

from __future__ import annotations

from helpers import findings_for, rules

SCOPE = '<!-- check: params scope="actor_rollout_ref.rollout.checkpoint_engine" -->'
ENGINE = '<!-- check: params engine="nccl" device="npu" -->'


def table(directive: str, rows: list[tuple[str, str]], header: str = "| 参数 | 默认值 | 说明 |") -> str:
    body = "".join(f"| `{k}` | {v} | x |\n" for k, v in rows)
    return f"# p\n\n{directive}\n{header}\n|---|---|---|\n{body}"


def run(write_page, facts, text: str) -> list:
    """The table rules' findings (an undeclared table's rows are statements too: their claim coverage is
    tests/test_coverage.py's)."""
    return [f for f in findings_for(write_page(text), facts) if not f.rule.startswith("coverage/")]


def test_config_scope_table_with_verls_defaults_passes(write_page, facts) -> None:
    d = facts.default_config()["actor_rollout_ref"]["rollout"]["checkpoint_engine"]
    rows = [
        ("backend", f"`{d['backend']}`"),
        ("update_weights_bucket_megabytes", f"`{d['update_weights_bucket_megabytes']}`"),
    ]
    assert run(write_page, facts, table(SCOPE, rows)) == []


def test_wrong_default_is_named_at_its_row_with_the_source(write_page, facts) -> None:
    found = run(write_page, facts, table(SCOPE, [("backend", "`naive`"), ("update_weights_bucket_megabytes", "`512`")]))
    assert rules(found) == ["table/default-mismatch"]
    assert found[0].line == 7 and "rollout.py:" in found[0].fact_source


def test_unknown_key_in_a_scope_table(write_page, facts) -> None:
    found = run(write_page, facts, table(SCOPE, [("bucket_mb", "`2048`")]))
    assert rules(found) == ["config/unknown-key"] and found[0].line == 6


def test_engine_table_checks_constructor_defaults(write_page, facts) -> None:
    (hccl,) = facts.engines_for("nccl", "npu")
    params = {p["name"]: p for p in hccl["constructor"]["params"]}
    good = [("group_name", f"`{params['group_name']['default']!r}`".replace("'", '"'))]
    assert run(write_page, facts, table(ENGINE, good)) == []
    found = run(write_page, facts, table(ENGINE, [("rebuild_group", "`true`")]))
    assert rules(found) == ["table/default-mismatch"]
    assert found[0].fact_source.startswith("verl/checkpoint_engine/hccl_checkpoint_engine.py:")


def test_required_argument_claimed_with_a_default(write_page, facts) -> None:
    assert rules(run(write_page, facts, table(ENGINE, [("bucket_size", "`1024`")]))) == ["table/default-mismatch"]
    assert run(write_page, facts, table(ENGINE, [("bucket_size", "—")])) == []


def test_kwarg_the_engine_lacks(write_page, facts) -> None:
    found = run(write_page, facts, table(ENGINE, [("multi_sender", "`true`")]))
    assert rules(found) == ["engine/unknown-kwarg"]


def test_backend_that_no_engine_registers(write_page, facts) -> None:
    found = run(write_page, facts, table('<!-- check: params engine="hccl" device="npu" -->', [("x", "`1`")]))
    assert rules(found) == ["engine/unknown-backend"]


def test_undeclared_defaults_table_is_a_finding_and_english_headers_count(write_page, facts) -> None:
    text = "# p\n\n| Key | Default |\n|---|---|\n| `backend` | `naive` |\n"
    assert rules(run(write_page, facts, text)) == ["table/undeclared"]


def test_declared_table_without_scope_or_engine(write_page, facts) -> None:
    assert rules(run(write_page, facts, table("<!-- check: params -->", [("a", "`1`")]))) == ["table/undeclared-scope"]


def test_skip_needs_a_reason(write_page, facts) -> None:
    assert rules(run(write_page, facts, table("<!-- check: skip -->", [("a", "`1`")]))) == ["table/skip-without-reason"]
    assert run(write_page, facts, table('<!-- check: skip reason="HCCL env, not verl" -->', [("a", "`1`")])) == []
