# kimi_ckpt_engine on Ascend: checkpoint-engine >= 0.4.0 WITHOUT the [p2p] extra
# (that extra pulls the CUDA wheel mooncake-transfer-engine), then Mooncake for NPU.
# Both Mooncake wheels install the same `mooncake/` files: remove the CUDA one FIRST.
python3 -m pip uninstall -y mooncake-transfer-engine
python3 -m pip install 'checkpoint-engine>=0.4.0'
python3 -m pip install mooncake-transfer-engine-npu    # or build from source, see the Mooncake page
python3 -c "import mooncake, checkpoint_engine.distributed, checkpoint_engine.ps"
python3 -c "from mooncake.engine import TransferEngine"    # needs CANN's libraries on this host
python3 -c "from checkpoint_engine.distributed.vllm_hccl import DistributedHccl"    # needs vllm and vllm_ascend
