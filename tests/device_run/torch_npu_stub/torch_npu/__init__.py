"""A stand-in for torch_npu on a host with no NPU visible: importing it gives torch a ``torch.npu`` module whose
``is_available()`` is false, which is all verl's platform detection reads (verl/plugin/platform/platform_npu.py)."""

import types

import torch

npu = types.ModuleType("torch.npu")
npu.is_available = lambda: False
npu.device_count = lambda: 0
torch.npu = npu
