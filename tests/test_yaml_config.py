"""check="config" / check="defaults": YAML fragments judged against verl's generated default config."""

from __future__ import annotations

import pytest
from helpers import fence, findings_for, rules

from verl_cookbook.checks.yaml_config import _omegaconf_merge, _prune
from verl_cookbook.markdown import CodeBlock

CFG = '{ .yaml check="config" device="npu" }'
DEFAULTS = '{ .yaml check="defaults" root="actor_rollout_ref.rollout.checkpoint_engine" }'


def ckpt(body: str) -> str:
    return "actor_rollout_ref:\n  rollout:\n    checkpoint_engine:\n" + "".join(
        f"      {ln}\n" for ln in body.splitlines()
    )


def check(write_page, facts, code: str, info: str = CFG) -> list:
    return findings_for(write_page("# p\n\n" + fence(code, info)), facts)


def test_valid_npu_fragment_passes(write_page, facts) -> None:
    assert check(write_page, facts, ckpt("backend: nccl\nengine_kwargs:\n  nccl:\n    rebuild_group: true")) == []


@pytest.mark.parametrize(
    ("body", "rule", "line"),
    [
        ("bakend: nccl", "config/unknown-key", 7),
        ("backend: hccl", "engine/unknown-backend", 7),
        ("backend: nccl\nengine_kwargs:\n  hccl:\n    rebuild_group: true", "engine/kwargs-ignored", 10),
        ("backend: nccl\nengine_kwargs:\n  nccl:\n    multi_sender: true", "engine/unknown-kwarg", 10),
        ("backend: nccl\nengine_kwargs:\n  nccl:\n    bucket_size: 1", "engine/injected-kwarg", 10),
        ("backend: nixl", "engine/not-on-device", 7),
        ("backend: mooncake", "engine/npu-device", 7),
    ],
)
def test_bad_fragment_is_named_at_its_line(write_page, facts, body: str, rule: str, line: int) -> None:
    found = check(write_page, facts, ckpt(body))
    assert rule in rules(found)
    f = next(f for f in found if f.rule == rule)
    assert f.line == line and f.fact_source and f.fact_source.startswith("verl/")


def test_fragment_that_is_not_yaml(write_page, facts) -> None:
    assert rules(check(write_page, facts, "a: [1, 2\nb: 3\n")) == ["yaml/syntax"]


def test_defaults_that_match_verl_pass_and_a_wrong_one_fails(write_page, facts) -> None:
    base = facts.default_config()["actor_rollout_ref"]["rollout"]["checkpoint_engine"]
    good = f"backend: {base['backend']}\nupdate_weights_bucket_megabytes: {base['update_weights_bucket_megabytes']}\n"
    assert check(write_page, facts, good, DEFAULTS) == []
    bad = good.replace(str(base["update_weights_bucket_megabytes"]), str(base["update_weights_bucket_megabytes"] + 1))
    found = check(write_page, facts, bad, DEFAULTS)
    assert rules(found) == ["defaults/mismatch"] and found[0].line == 5


def block() -> CodeBlock:
    return CodeBlock("p.md", 1, 1, "yaml", {}, "", "", [])


def test_omegaconf_cross_check_on_a_pruned_config(facts) -> None:
    base = facts.default_config()
    ok = {"actor_rollout_ref": {"rollout": {"checkpoint_engine": {"engine_kwargs": {"nccl": {"x": 1}}}}}}
    assert _omegaconf_merge(base, ok, (), block()) == []
    bad = {"actor_rollout_ref": {"rollout": {"checkpoint_engine": {"no_such_key": 1}}}}
    assert [f.rule for f in _omegaconf_merge(base, bad, (), block())] == ["config/omegaconf"]
    only_unknown = {"actor_rollout_ref": {"no_such_section": {"a": 1}}}
    assert [f.rule for f in _omegaconf_merge(base, only_unknown, (), block())] == ["config/omegaconf"]


def test_prune_keeps_what_the_fragment_touches_and_never_empties_a_mapping() -> None:
    base = {"a": {"x": 1, "y": 2}, "b": {}, "c": 3}
    assert _prune(base, {"a": {"x": 5}}) == {"a": {"x": 1}}
    assert _prune(base, {"b": {"k": 1}}) == {"b": {}}
    assert _prune(base, {"z": 1}) == {"a": {"x": 1, "y": 2}}  # non-empty stays non-empty (struct mode holds)


def test_a_fragment_adding_an_entry_to_a_dict_typed_field_passes_the_omegaconf_cross_check(write_page, facts) -> None:
    teachers = "distillation:\n  teacher_models:\n    math:\n      key: openai/gsm8k\n      model_path: Qwen/Qwen3-8B\n"
    assert check(write_page, facts, teachers, '{ .yaml check="config" }') == []
    typo = teachers.replace("teacher_models", "teacher_modles")
    assert rules(check(write_page, facts, typo, '{ .yaml check="config" }')) == ["config/unknown-key"]


def test_a_number_written_as_1e_6_is_read_as_omegaconf_reads_it_so_verls_default_matches(write_page, facts) -> None:
    lr = "actor_rollout_ref:\n  actor:\n    optim:\n      lr: {}\n"
    assert facts.default_config()["actor_rollout_ref"]["actor"]["optim"]["lr"] == 1e-6
    assert check(write_page, facts, lr.format("1e-6"), '{ .yaml check="defaults" }') == []
    assert rules(check(write_page, facts, lr.format("1e-5"), '{ .yaml check="defaults" }')) == ["defaults/mismatch"]


def test_a_key_written_twice_is_refused_as_omegaconf_refuses_it(write_page, facts) -> None:
    found = check(write_page, facts, "actor_rollout_ref:\n  actor:\n    optim:\n      lr: 1e-5\n      lr: 2e-5\n")
    assert [(f.rule, f.line) for f in found] == [("yaml/syntax", 8)]
    assert "duplicate key lr" in found[0].message
