# backend=nccl on Ascend resolves to HCCLCheckpointEngine: check what it imports, in that order.
python3 -c "import zmq; print('pyzmq', zmq.__version__)"
python3 -c "from vllm.distributed.utils import StatelessProcessGroup"
python3 -c "import torch, torch_npu; print('torch.npu present:', hasattr(torch, 'npu'), 'NPU visible:', torch.npu.is_available())"
# imported only when the group is first created, so its absence shows up at the first sync
python3 -c "from vllm_ascend.distributed.device_communicators.pyhccl import PyHcclCommunicator"
