"""End to end: mutate a copy of verl, run `verl-cookbook check` on a small site, and see the drift named.

Each test changes one fact in a private copy of the pinned verl tree the way a verl PR would, runs the
CLI in-process with --verl-src and --no-cache on tests/data/minisite, and asserts exit code 1 and a finding
that names the changed fact and the verl file it now comes from. The unmutated copy passes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from verl_cookbook.cli import main
from verl_cookbook.verl_source import VerlTree

SITE = Path(__file__).resolve().parent / "data" / "minisite"


def run_check(tree: VerlTree, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict]]:
    code = main(["check", "--root", str(SITE), "--verl-src", str(tree.root), "--no-cache", "--format", "json"])
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return code, json.loads(out.out) if out.out.strip() else []


def edit(tree: VerlTree, rel: str, old: str, new: str, count: int = 1) -> None:
    path = tree.root / rel
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= count, f"{rel} no longer contains {old!r}: update this mutation test"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def test_unmutated_verl_copy_passes(verl_copy: VerlTree, capsys) -> None:
    code, findings = run_check(verl_copy, capsys)
    assert (code, findings) == (0, [])


def test_bucket_default_changed_in_dataclass_and_yaml_is_named_with_its_source(verl_copy: VerlTree, capsys) -> None:
    edit(
        verl_copy,
        "verl/workers/config/rollout.py",
        "update_weights_bucket_megabytes: int = 2048",
        "update_weights_bucket_megabytes: int = 1024",
    )
    edit(
        verl_copy,
        "verl/trainer/config/rollout/rollout.yaml",
        "update_weights_bucket_megabytes: 2048",
        "update_weights_bucket_megabytes: 1024",
    )
    for gen in (verl_copy.root / "verl/trainer/config").glob("_generated_*.yaml"):
        text = gen.read_text(encoding="utf-8")
        gen.write_text(text.replace("update_weights_bucket_megabytes: 2048", "update_weights_bucket_megabytes: 1024"))
    code, findings = run_check(verl_copy, capsys)
    assert code == 1
    hits = [f for f in findings if "update_weights_bucket_megabytes" in f["message"]]
    rules = {f["rule"] for f in hits}
    assert {"defaults/mismatch", "table/default-mismatch"} <= rules
    assert all("1024" in (f["fact"] or "") for f in hits)
    assert any("verl/workers/config/rollout.py:" in (f["fact_source"] or "") for f in hits)
    assert any("_generated_ppo_trainer.yaml:" in (f["fact_source"] or "") for f in hits)
    assert not [f for f in findings if f["rule"] == "verl/config-drift"]  # both sides moved together


def test_dropped_mooncake_registration_is_an_unknown_backend(verl_copy: VerlTree, capsys) -> None:
    edit(
        verl_copy,
        "verl/checkpoint_engine/mooncake_checkpoint_engine.py",
        '@CheckpointEngineRegistry.register("mooncake")\n',
        "",
    )
    code, findings = run_check(verl_copy, capsys)
    assert code == 1
    hits = [f for f in findings if f["rule"] == "engine/unknown-backend"]
    assert hits and all("mooncake" in f["message"] for f in hits)
    assert hits[0]["path"].endswith("npu_mooncake.yaml")
    assert hits[0]["fact_source"].startswith("verl/checkpoint_engine/")
    assert "mooncake" not in hits[0]["fact"].split(":", 1)[1]  # the registered list no longer has it


def test_renamed_hccl_kwarg_is_named_with_the_constructor_line(verl_copy: VerlTree, capsys) -> None:
    rel = "verl/checkpoint_engine/hccl_checkpoint_engine.py"
    edit(verl_copy, rel, "rebuild_group: bool = False", "rebuild: bool = False")
    edit(verl_copy, rel, "self.rebuild_group = rebuild_group", "self.rebuild_group = rebuild")
    code, findings = run_check(verl_copy, capsys)
    assert code == 1
    hits = [f for f in findings if f["rule"] == "engine/unknown-kwarg" and "rebuild_group" in f["message"]]
    # the YAML snippet, the override and the table row
    assert {Path(f["path"]).name for f in hits} == {"npu_hccl.yaml", "npu_overrides.sh", "index.md"}
    for f in hits:
        assert "HCCLCheckpointEngine" in f["message"]
        assert f["fact_source"].startswith(f"{rel}:")
        assert "rebuild" in f["fact"]
    # the finding's line in verl is the constructor
    line = int(hits[0]["fact_source"].rpartition(":")[2])
    assert "def __init__" in (verl_copy.root / rel).read_text().splitlines()[line - 1]


def test_hccl_registered_under_its_own_name_leaves_nccl_without_an_npu_engine(verl_copy: VerlTree, capsys) -> None:
    rel = "verl/checkpoint_engine/hccl_checkpoint_engine.py"
    edit(verl_copy, rel, '@CheckpointEngineRegistry.register("nccl")', '@CheckpointEngineRegistry.register("hccl")')
    code, findings = run_check(verl_copy, capsys)
    assert code == 1
    snippet = [f for f in findings if f["path"].endswith("npu_hccl.yaml")]
    assert snippet and snippet[0]["rule"] in {"engine/not-on-device", "engine/unknown-backend"}
    assert "nccl" in snippet[0]["message"]
    table = [f for f in findings if f["path"].endswith("index.md") and f["rule"] == "engine/unknown-backend"]
    assert table and "`nccl`" in table[0]["message"] and "on NPU" in table[0]["message"]
    assert "hccl" in table[0]["fact"]


def test_dataclass_default_that_disagrees_with_the_yaml_is_config_drift(verl_copy: VerlTree, capsys) -> None:
    edit(
        verl_copy,
        "verl/workers/config/rollout.py",
        "update_weights_bucket_megabytes: int = 2048",
        "update_weights_bucket_megabytes: int = 4096",
    )
    code, findings = run_check(verl_copy, capsys)
    assert code == 1
    drift = [f for f in findings if f["rule"] == "verl/config-drift"]
    assert len(drift) == 1
    f = drift[0]
    assert "update_weights_bucket_megabytes" in f["message"] and "4096" in f["message"] and "2048" in f["message"]
    assert f["path"] == "verl/trainer/config/rollout/rollout.yaml"
    assert re.match(r"verl/workers/config/rollout\.py:\d+$", f["fact_source"])
    yaml_line = (verl_copy.root / f["path"]).read_text().splitlines()[f["line"] - 1]
    assert "update_weights_bucket_megabytes" in yaml_line
    # judged only when the whole site is checked, as the rules page says (review42j-5): a page given is not
    code = main(["check", "--root", str(SITE), "--verl-src", str(verl_copy.root), "--no-cache", "--format", "json",
                 str(SITE / "docs" / "index.md")])  # fmt: skip
    cap = capsys.readouterr()
    assert code in (0, 1), cap.err
    page_findings = json.loads(cap.out or "[]")
    assert not [f for f in page_findings if f["rule"] == "verl/config-drift"]


def test_merger_backend_choice_renamed_fails_the_documented_command(verl_copy: VerlTree, capsys) -> None:
    rel = "verl/model_merger/base_model_merger.py"
    edit(verl_copy, rel, 'choices=["fsdp", "megatron"]', 'choices=["fsdp2", "megatron"]')
    code, findings = run_check(verl_copy, capsys)
    assert code == 1
    (f,) = findings
    assert f["rule"] == "merger/invalid-choice" and f["path"].endswith("merge_fsdp.sh")
    assert "fsdp2" in f["fact"] and f["fact_source"].startswith(f"{rel}:")
