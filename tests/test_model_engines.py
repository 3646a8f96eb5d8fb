"""engine/unknown-model-backend and the fact it stands on (facts/model_engines.py): the training backends each
release registers with ``EngineRegistry.register``, and a ``strategy`` none of them names reported at its own line
with the ``<strategy>.*`` keys written for it folded under it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from helpers import startup_python

from verl_cookbook.cli import main
from verl_cookbook.facts import model_engines
from verl_cookbook.verl_source import from_release

# What verl 0.9.1 itself does with the name (run on CPU in the startup environment, see the test below):
#   EngineRegistry.get_engine_cls("language_model", "mindspeed") -> AssertionError: Unknown backend: mindspeed
OBSERVED = "AssertionError: Unknown backend: mindspeed"


def _registered(version: str, model_type: str, device: str) -> dict[str, str]:
    out = {}
    for r in model_engines.extract(from_release(version))["registrations"]:
        if r["model_type"] == model_type and device in r["devices"]:
            out.update({b: r["source"] for b in r["backends"]})
    return out


def test_the_fact_lists_each_release_s_registrations_with_their_line():
    npu_091 = _registered("0.9.1", "language_model", "npu")
    # on Ascend the MindSpeed engine registers under the name `megatron`; no engine is named `mindspeed`
    assert npu_091["megatron"] == "verl/workers/engine/mindspeed/transformer_impl.py:56"
    assert "mindspeed" not in npu_091 and "mindspeed_megatron" not in npu_091
    # 0.9.0 still had the `mindspeed_megatron` backend its `model_engine=mindspeed` option selected
    assert _registered("0.9.0", "language_model", "npu")["mindspeed_megatron"].endswith("transformer_impl.py:116")
    # `megatron` written without device= takes register()'s default, read from base.py
    assert _registered("0.9.1", "value_model", "cuda")["megatron"].startswith("verl/workers/engine/megatron/")
    default = model_engines.extract(from_release("0.9.1"))["default_device"]
    assert default["devices"] == ["cuda"] and default["source"].startswith("verl/workers/engine/base.py:")


def test_verl_0_9_1_stops_on_the_name_and_registers_nothing_the_fact_lacks():
    """Runs verl 0.9.1 on CPU: every (model type, backend, device) its registry holds there (engines whose
    dependencies are missing do not register) is in the fact, and `mindspeed` raises the AssertionError the rule
    quotes."""
    code = (
        "import json, warnings\n"
        "warnings.simplefilter('ignore')\n"
        "from verl.workers.engine import EngineRegistry\n"
        "reg = {m: {b: sorted(map(str, d)) for b, d in v.items()} for m, v in EngineRegistry._engines.items()}\n"
        "try:\n"
        "    EngineRegistry.get_engine_cls('language_model', 'mindspeed')\n"
        "    err = None\n"
        "except AssertionError as e:\n"
        "    err = f'AssertionError: {e}'\n"
        "print(json.dumps({'registry': reg, 'error': err}))\n"
    )
    run = subprocess.run([startup_python("0.9.1"), "-c", code], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen["error"] == OBSERVED
    for model_type, backends in seen["registry"].items():
        for backend, devices in backends.items():
            for device in devices:
                assert backend in _registered("0.9.1", model_type, device), (model_type, backend, device)


SCRIPT = """\
#!/bin/bash
set -x
MODEL_PATH=/model/Qwen3-8B
python3 -m verl.trainer.main_ppo \\
    actor_rollout_ref.model.path=$MODEL_PATH \\
    actor_rollout_ref.actor.strategy={strategy} \\
    actor_rollout_ref.actor.ppo_mini_batch_size=16 \\
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1 \\
{extra}    actor_rollout_ref.rollout.name=vllm \\
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=1 \\
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=1 \\
    trainer.device=npu \\
    trainer.n_gpus_per_node=8 "$@"
"""
MINDSPEED_KEYS = (
    "    actor_rollout_ref.actor.mindspeed.tensor_model_parallel_size=2 \\\n"
    "    actor_rollout_ref.actor.mindspeed.use_mbridge=True \\\n"
    "    +actor_rollout_ref.actor.mindspeed.llm_kwargs.swap_optimizer=True \\\n"
)


def _doctor(tmp_path: Path, capsys, strategy: str, extra: str = "", *args: str) -> tuple[int, str]:
    script = tmp_path / "run.sh"
    script.write_text(SCRIPT.format(strategy=strategy, extra=extra), encoding="utf-8")
    code = main(["doctor", "--verl", "0.9.1", "--device", "npu", str(script), *args])
    return code, capsys.readouterr().out


def test_an_unregistered_strategy_is_the_root_cause_with_its_keys_folded_under_it(tmp_path, capsys):
    code, out = _doctor(tmp_path, capsys, "mindspeed", MINDSPEED_KEYS)
    assert code == 1
    heads = [line for line in out.splitlines() if not line.startswith("    ")]
    assert len(heads) == 1, out
    assert ":6:5: engine/unknown-model-backend `actor_rollout_ref.actor.strategy=mindspeed`" in heads[0]
    assert OBSERVED in heads[0] and "registers no language_model engine named `mindspeed` on NPU" in heads[0]
    assert "verl/workers/engine/mindspeed/transformer_impl.py:56" in out
    assert "under it: 4 more findings on lines 9 … 11" in out


def test_the_json_keeps_the_folded_keys_with_a_pointer_to_the_strategy(tmp_path, capsys):
    _code, out = _doctor(tmp_path, capsys, "mindspeed", MINDSPEED_KEYS, "--format", "json")
    found = json.loads(out)["findings"]
    folded = [f for f in found if f["caused_by"]]
    assert {f["line"] for f in folded} == {9, 10, 11}
    assert {f["caused_by"]["rule"] for f in folded} == {"engine/unknown-model-backend"}
    assert {f["caused_by"]["line"] for f in folded} == {6}


def test_a_typo_gets_the_registered_name_as_suggestion_in_chinese_too(tmp_path, capsys):
    _code, out = _doctor(tmp_path, capsys, "fsdp3", "", "--lang", "zh")
    assert "engine/unknown-model-backend" in out and "是否应为 `fsdp`" in out


def test_registered_strategies_are_silent(tmp_path, capsys):
    for strategy in ("fsdp", "fsdp2"):
        code, out = _doctor(tmp_path, capsys, strategy)
        assert "engine/unknown-model-backend" not in out, out
        assert code == 0, out
