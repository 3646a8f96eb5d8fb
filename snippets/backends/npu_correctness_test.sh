# verl's own end-to-end check of the HCCL engine on one 8-NPU node: 2 trainer ranks, 6 rollout
# ranks, three syncs, every received tensor compared with the Hugging Face checkpoint.
git clone https://github.com/verl-project/verl.git
cd verl
git checkout v0.9.0
# the test reads the model from here
ls ~/models/Qwen/Qwen3-8B-Base
python3 -m pytest -s -q tests/checkpoint_engine/test_correctness_on_npu.py -k test_hccl_checkpoint_engine
