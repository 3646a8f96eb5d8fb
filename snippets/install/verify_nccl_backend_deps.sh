# backend=nccl on Ascend resolves to HCCLCheckpointEngine: check what it imports.
python3 -c "import torch, torch_npu; print('npu available:', torch.npu.is_available())"
python3 -c "from vllm.distributed.utils import StatelessProcessGroup"
python3 -c "from vllm_ascend.distributed.device_communicators.pyhccl import PyHcclCommunicator"
