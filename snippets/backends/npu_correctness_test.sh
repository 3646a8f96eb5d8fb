# verl's own end-to-end check of the HCCL engine on one 8-NPU node: 2 trainer ranks, 6 rollout
# ranks, three syncs, every received tensor compared with the Hugging Face checkpoint.
# The 0.9.1 wheel ships the test (top-level package `tests`): take it from the wheel you run.
python3 -m pip download --no-deps -d /tmp/verl-wheel verl==0.9.1
python3 -m zipfile -e /tmp/verl-wheel/verl-0.9.1-py3-none-any.whl /tmp/verl-0.9.1
cd /tmp/verl-0.9.1
# the test reads the model from here
ls ~/models/Qwen/Qwen3-8B-Base
python3 -m pytest -s -q tests/checkpoint_engine/test_correctness_on_npu.py -k test_hccl_checkpoint_engine
