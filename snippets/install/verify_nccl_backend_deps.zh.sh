# 昇腾上 backend=nccl 即 HCCLCheckpointEngine：按其导入顺序逐项确认
python3 -c "import zmq; print('pyzmq', zmq.__version__)"
python3 -c "from vllm.distributed.utils import StatelessProcessGroup"
python3 -c "import torch, torch_npu; print('torch.npu present:', hasattr(torch, 'npu'), 'NPU visible:', torch.npu.is_available())"
# 第一次创建通信域时才导入，缺失时在首次同步时报错
python3 -c "from vllm_ascend.distributed.device_communicators.pyhccl import PyHcclCommunicator"
