"""config/not-a-field-group: many keys added under one field the dataclass does not have are one cause (verl 0.9.0's
MindSpeedEngineConfig has `mcore_kwargs`, and the DeepSeek-V4 recipes write 124 keys under `llm_kwargs`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verl_cookbook import cli

PPO = "python3 -m verl.trainer.main_ppo \\\n"
NODE = "actor_rollout_ref.rollout.checkpoint_engine"


def _doctor_json(tmp_path: Path, body: str, capsys: pytest.CaptureFixture[str]) -> list[dict]:
    script = tmp_path / "run.sh"
    script.write_text("#!/usr/bin/env bash\n" + PPO + body, encoding="utf-8")
    cli.main(["doctor", "--verl", "0.9.1", "--format", "json", str(script)])
    return json.loads(capsys.readouterr().out)["findings"]


def test_keys_under_one_missing_field_are_one_finding_and_the_others_fold_under_it(tmp_path, capsys) -> None:
    body = "".join(f"    +{NODE}.extra.k{i}=1 \\\n" for i in range(5)) + "    trainer.nnodes=1\n"
    found = _doctor_json(tmp_path, body, capsys)
    (group,) = [f for f in found if f["rule"] == "config/not-a-field-group"]
    assert group["line"] == 3 and group["data"]["count"] == 5 and group["data"]["name"] == "extra"
    singles = [f for f in found if f["rule"] == "config/not-a-field"]
    assert len(singles) == 5
    assert all(f["caused_by"] and f["caused_by"]["rule"] == "config/not-a-field-group" for f in singles)


def test_the_text_output_prints_the_cause_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "run.sh"
    body = "".join(f"    +{NODE}.extra.k{i}=1 \\\n" for i in range(5)) + "    trainer.nnodes=1\n"
    script.write_text("#!/usr/bin/env bash\n" + PPO + body, encoding="utf-8")
    cli.main(["doctor", "--verl", "0.9.1", "--quiet", str(script)])
    out = capsys.readouterr().out
    assert out.count("config/not-a-field-group") == 1 and "config/not-a-field " not in out
    assert "under it: 5 more findings" in out


def test_a_single_key_that_is_not_a_field_stays_its_own_finding(tmp_path, capsys) -> None:
    found = _doctor_json(tmp_path, f"    +{NODE}.extra.k=1 \\\n    trainer.nnodes=1\n", capsys)
    assert [f["rule"] for f in found if f["rule"].startswith("config/not-a-field")] == ["config/not-a-field"]
