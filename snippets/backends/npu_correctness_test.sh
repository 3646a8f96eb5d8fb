# take the test from the wheel of the installed release
python3 -m pip download --no-deps -d /tmp/verl-wheel verl==0.9.1
python3 -m zipfile -e /tmp/verl-wheel/verl-0.9.1-py3-none-any.whl /tmp/verl-0.9.1
cd /tmp/verl-0.9.1
# the test loads the model from here
ls ~/models/Qwen/Qwen3-8B-Base
# pytest is not a base requirement of verl (only of some of its extras)
python3 -m pip install pytest
python3 -m pytest -s -q tests/checkpoint_engine/test_correctness_on_npu.py -k test_hccl_checkpoint_engine
