"""Claims about the stack beyond verl (fact, wheel, combo) and the two static install rules (pip uninstall of a
wheel that shares files with one installed before; git checkout of another verl release). Each fires on the
mistake the reviews found and is silent on the corrected text; a mutated snapshot turns a held claim red."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from helpers import fence, findings_for, rules

from verl_cookbook import stack_facts
from verl_cookbook.checks import CLAIM_CHECKS, Context
from verl_cookbook.checks import stack as _stack  # noqa: F401 - registers the kinds
from verl_cookbook.markdown import Directive

NPU = "mooncake-transfer-engine-npu==0.3.13.post1"


def claim(facts, kind: str, **attrs: str) -> list:
    return CLAIM_CHECKS[kind](Directive("page.md", 7, kind, attrs), Context(facts=facts, root=Path(".")))


@pytest.fixture
def mutated(tmp_path, monkeypatch):
    """A copy of the snapshots the test may edit, used by the checker for the rest of the test."""
    dest = tmp_path / "snapshots"
    shutil.copytree(stack_facts.SNAPSHOT_DIR, dest)
    monkeypatch.setenv("VERL_COOKBOOK_SNAPSHOTS", str(dest))
    return dest


# -- fact ---------------------------------------------------------------------------------------------------


def test_hixl_port_as_checkpoint_engine_states_it_holds(facts) -> None:
    assert claim(facts, "fact", id="checkpoint_engine.npu.hixl_port", value="16666") == []


def test_hixl_port_called_unknown_is_red_naming_checkpoint_engines_guide(facts) -> None:
    (f,) = claim(facts, "fact", id="checkpoint_engine.npu.hixl_port", value="unknown")
    assert f.rule == "fact/mismatch"
    assert "MoonshotAI/checkpoint-engine" in f.fact_source and "docs/npu_start.md#L35" in f.fact_source


@pytest.mark.parametrize(("cann", "ports"), [("8.0.0", "16"), ("8.3.RC1", "32"), ("8.5.0", "32"), ("9.1.0", "32")])
def test_hccl_if_base_port_count_per_cann_release_holds(facts, cann, ports) -> None:
    assert claim(facts, "fact", id="hccl.if_base_port.ports", cann=cann, value=ports) == []


@pytest.mark.parametrize(("cann", "wrong"), [("8.0.0", "32"), ("8.3.RC1", "16")])
def test_hccl_if_base_port_wrong_count_for_the_stated_cann_is_red_with_the_page(facts, cann, wrong) -> None:
    (f,) = claim(facts, "fact", id="hccl.if_base_port.ports", cann=cann, value=wrong)
    assert f.rule == "fact/mismatch" and f"CANN {cann}" in f.message
    assert "hiascend.com" in f.fact_source or "hicann/hccl" in f.fact_source


def test_fact_before_any_documented_cann_release_says_which_are_documented(facts) -> None:
    (f,) = claim(facts, "fact", id="hccl.if_base_port.ports", cann="7.0.0", value="16")
    assert f.rule == "fact/no-entry" and "8.0.0" in f.message


def test_misspelt_fact_id_suggests_the_real_one(facts) -> None:
    (f,) = claim(facts, "fact", id="checkpoint_engine.npu.hixl_prt", value="16666")
    assert f.rule == "fact/unknown" and "checkpoint_engine.npu.hixl_port" in f.message


def test_a_changed_default_in_the_snapshot_turns_the_pages_claim_red_naming_the_source(
    facts, mutated, write_page
) -> None:
    path = mutated / "stack_facts.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for f in data["facts"]:
        if f["id"] == "mooncake.rpc_port.rejected_from":
            f["value"] = "49152"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    held = '<!-- check: fact id="mooncake.rpc_port.rejected_from" value="32768" -->'
    page = write_page(f"# p\n\nEither end in 32768{held}.\n")
    found = findings_for(page, facts)
    assert rules(found) == ["fact/mismatch"]
    assert "kvcache-ai/Mooncake" in found[0].fact_source and "config.cpp" in found[0].fact_source


# -- wheel --------------------------------------------------------------------------------------------------


def test_verl_wheel_ships_the_npu_correctness_test(facts) -> None:
    rec = "tests/checkpoint_engine/test_correctness_on_npu.py"
    assert claim(facts, "wheel", dist="verl==0.9.1", record=rec, top_level="tests") == []


def test_saying_the_test_is_absent_from_the_wheel_is_red(facts) -> None:
    (f,) = claim(facts, "wheel", dist="verl==0.9.1", absent="tests/checkpoint_engine/test_correctness_on_npu.py")
    assert f.rule == "wheel/mismatch" and "verl-0.9.1-py3-none-any.whl" in f.fact_source


def test_absent_from_a_big_wheel_holds_only_for_a_path_its_snapshot_was_read_for(facts) -> None:
    """review18a delta-sync: the vLLM wheels keep only the paths the pages name, so ``absent=`` on any other path
    would pass unread; it is red and says which list to add the path to."""
    patch = "vllm/model_executor/model_loader/checkpoint_weight_patch.py"
    assert claim(facts, "wheel", dist="vllm==0.28.0", absent=patch) == []
    assert claim(facts, "wheel", dist="vllm==0.29.0", record=patch) == []
    (f,) = claim(facts, "wheel", dist="vllm==0.29.0", absent=patch)
    assert f.rule == "wheel/mismatch"
    (f,) = claim(facts, "wheel", dist="vllm==0.28.0", absent="vllm/never_read.py")
    assert f.rule == "wheel/mismatch" and "refresh_wheel_facts.py" in f.message


def test_a_file_removed_from_the_wheel_turns_the_claim_red(facts, mutated) -> None:
    path = mutated / "wheel_facts.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["wheels"]["verl==0.9.1"]["record"] = []
    path.write_text(json.dumps(data), encoding="utf-8")
    found = claim(facts, "wheel", dist="verl==0.9.1", record="tests/checkpoint_engine/test_correctness_on_npu.py")
    assert rules(found) == ["wheel/mismatch"]


def test_npu_wheel_glibc_floor_is_2_35_and_a_lower_one_is_red(facts) -> None:
    assert claim(facts, "wheel", dist=NPU, min_glibc="2.35", tag="manylinux_2_35") == []
    assert rules(claim(facts, "wheel", dist=NPU, min_glibc="2.28")) == ["wheel/mismatch"]


def test_npu_wheel_needs_cann_libraries_it_does_not_bundle(facts) -> None:
    assert claim(facts, "wheel", dist=NPU, needs="libascendcl.so") == []
    assert rules(claim(facts, "wheel", dist=NPU, needs="libcudart.so.12")) == ["wheel/mismatch"]


def test_the_two_mooncake_wheels_share_sixty_paths(facts) -> None:
    assert claim(facts, "wheel", dist=NPU, shares="mooncake-transfer-engine==0.3.13.post1", count="60") == []


# -- combo (pip's resolver answers, snapshots/resolver.json) ---------------------------------------------------


@pytest.mark.parametrize(
    "pins",
    ["vllm-ascend==0.23.0; torch-npu==2.10.0.post2", "verl==0.9.1; numpy<2.0.0", "verl==0.9.1; transformers==4.57.6"],
)
def test_combinations_pip_rejects_are_red_when_presented_as_a_path_quoting_pip(facts, pins) -> None:
    (f,) = claim(facts, "combo", pins=pins, verdict="ok")
    assert f.rule == "combo/conflict" and " depends on " in f.message and "resolver.json (pip " in f.fact_source
    assert claim(facts, "combo", pins=pins, verdict="conflict") == []


def test_a_combination_pip_resolves_holds_and_calling_it_a_conflict_is_red(facts) -> None:
    pins = "verl==0.9.1; numpy>=2.0.0"
    assert claim(facts, "combo", pins=pins, verdict="ok") == []
    assert rules(claim(facts, "combo", pins=pins, verdict="conflict")) == ["combo/no-conflict"]


def test_vllm_ascend_with_verl_stops_at_a_requirement_the_index_lacks(facts) -> None:
    pins = "verl==0.9.1; vllm-ascend==0.23.0"
    (f,) = claim(facts, "combo", pins=pins, verdict="ok")
    assert f.rule == "combo/not-on-index" and "No matching distribution found for triton-ascend" in f.message
    assert claim(facts, "combo", pins=pins, verdict="missing") == []


def test_a_combination_pip_never_resolved_says_how_to_add_it(facts) -> None:
    (f,) = claim(facts, "combo", pins="verl==0.9.1; numpy==2.1.0", verdict="ok")
    assert f.rule == "combo/unresolved" and "scripts/refresh_resolver.py" in f.message


def test_pip_answering_otherwise_after_a_refresh_turns_the_claim_red(facts, mutated) -> None:
    path = mutated / "resolver.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    entry = data["combinations"]["numpy<2.0.0; verl==0.9.1"]
    entry.update(verdict="ok", installs=["numpy==1.26.4", "verl==0.9.1"])
    entry.pop("pip_says")
    path.write_text(json.dumps(data), encoding="utf-8")
    assert rules(claim(facts, "combo", pins="verl==0.9.1; numpy<2.0.0", verdict="conflict")) == ["combo/no-conflict"]


# -- shell commands -----------------------------------------------------------------------------------------

UNINSTALL_AFTER = """python3 -m pip install 'checkpoint-engine>=0.4.0'
python3 -m pip install mooncake-transfer-engine-npu
python3 -m pip uninstall -y mooncake-transfer-engine
"""
UNINSTALL_FIRST = """pip uninstall -y mooncake-transfer-engine
pip install mooncake-transfer-engine-npu
"""


def test_uninstalling_the_cuda_wheel_after_the_npu_one_is_red_with_both_records(write_page, facts) -> None:
    found = findings_for(write_page("# p\n\n" + fence(UNINSTALL_AFTER, '{ .bash check="shell" }')), facts)
    assert rules(found) == ["install/uninstall-shared-files"]
    assert found[0].line == 6 and "60 paths" in found[0].message
    assert "mooncake_transfer_engine_npu-0.3.13.post1" in found[0].fact_source


def test_uninstalling_first_is_silent(write_page, facts) -> None:
    assert findings_for(write_page("# p\n\n" + fence(UNINSTALL_FIRST, '{ .bash check="shell" }')), facts) == []


CLONE = "git clone https://github.com/verl-project/verl.git\ncd verl\ngit checkout {tag}\n"


def test_checking_out_another_release_than_the_pages_is_red(write_page, facts) -> None:
    found = findings_for(write_page("# p\n\n" + fence(CLONE.format(tag="v0.9.0"), '{ .bash check="shell" }')), facts)
    assert rules(found) == ["install/checkout-other-release"]


def test_checking_out_the_pinned_release_is_silent(write_page, facts) -> None:
    from verl_cookbook.releases import default_release

    code = CLONE.format(tag=f"v{default_release()}")
    assert findings_for(write_page("# p\n\n" + fence(code, '{ .bash check="shell" }')), facts) == []


def test_a_combo_verdict_that_is_not_ok_conflict_or_missing_is_reported(facts) -> None:
    (f,) = claim(facts, "combo", pins="verl==0.9.1; numpy<2.0.0", verdict="maybe")
    assert f.rule == "claim/bad-attr" and "maybe" in f.message


def test_a_combo_written_as_users_write_it_has_no_bad_attr(facts) -> None:
    findings = claim(facts, "combo", pins="verl==0.9.1; numpy<2.0.0", verdict="conflict")
    assert [f.rule for f in findings if f.rule == "claim/bad-attr"] == []
