# kimi_ckpt_engine on Ascend: checkpoint-engine >= 0.4.0 without the [p2p] extra (it pulls the CUDA wheel
# mooncake-transfer-engine), then Mooncake's NPU wheel.
# Both Mooncake wheels install the same mooncake/ files. Remove whichever is installed, so that the NPU wheel is
# installed afresh with all its files (pip skips a name that is not installed, with a warning).
python3 -m pip uninstall -y mooncake-transfer-engine mooncake-transfer-engine-npu
python3 -m pip install 'checkpoint-engine>=0.4.0'
python3 -m pip install mooncake-transfer-engine-npu==0.3.13.post1    # or build from source, see the Mooncake page
# Prints the path of mooncake/engine.so; fails when the module file is missing
python3 -c "import importlib.util as u; print(u.find_spec('mooncake.engine').origin)"
python3 -c "import mooncake, checkpoint_engine.distributed, checkpoint_engine.ps"
python3 -c "from mooncake.engine import TransferEngine"    # needs CANN's libraries on this host
python3 -c "from checkpoint_engine.distributed.vllm_hccl import DistributedHccl"    # needs vllm and vllm_ascend
