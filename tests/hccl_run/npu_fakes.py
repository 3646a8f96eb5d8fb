"""The device layer under verl's HCCL checkpoint engine, replaced so the engine runs on CPU.

Only what lies below verl is replaced; verl's own modules run unchanged:

- ``torch.npu`` (torch_npu's device module): present, ``is_available()`` true, device 0, and ``synchronize`` /
  ``empty_cache`` doing nothing. A tensor asked for on ``"npu"`` (or on device 0, as torch_npu reads an int) is made
  on the CPU.
- ``vllm`` at 0.18.0 (the release verl's Ascend images build): only ``StatelessProcessGroup``, which keeps the
  ``TCPStore`` verl's ``stateless_init_process_group`` creates and hands it on.
- ``vllm_ascend``'s ``PyHcclCommunicator``, with the methods vllm-ascend's class has (``__init__``, ``all_reduce``,
  ``broadcast``; its pyhccl.py at 182b75e) and nothing else, carried by a gloo group built on that same store, so
  the broadcast and the barrier really move data between the processes.

Call ``install()`` before anything imports verl, and ``attach()`` after: verl, accelerate and transformers probe
for an NPU while they are imported and then take torch_npu's own code paths (its profiler, its kernels), which a
CPU cannot follow and a weight sync never uses. So the NPU answers "absent" while they load and "present" from
``attach()`` on, which sets the flag verl keeps from its import (``verl.utils.device.is_npu_available``) as an NPU
host has it; ``stateless_init_process_group`` reads that flag when it is called, to pick vllm-ascend's communicator.
"""

from __future__ import annotations

import datetime
import sys
import types

import torch
import torch.distributed as dist

VLLM_VERSION = "0.18.0"


def _cpu(device):
    if device is None:
        return None
    if isinstance(device, int) or str(device).split(":")[0] == "npu":
        return "cpu"
    return device


def _on_cpu(factory):
    def make(*args, **kwargs):
        if "device" in kwargs:
            kwargs["device"] = _cpu(kwargs["device"])
        return factory(*args, **kwargs)

    return make


class _NpuModule(types.ModuleType):
    attached = False  # see attach()

    @classmethod
    def is_available(cls) -> bool:
        return cls.attached

    @staticmethod
    def current_device() -> int:
        return 0

    @staticmethod
    def device_count() -> int:
        return 1

    @staticmethod
    def set_device(_device) -> None:
        return None

    @staticmethod
    def synchronize(_device=None) -> None:
        return None

    @staticmethod
    def empty_cache() -> None:
        return None


class StatelessProcessGroup:
    """vLLM's dataclass, reduced to the fields verl passes."""

    def __init__(self, rank, world_size, store, socket=None, data_expiration_seconds=3600):
        self.rank, self.world_size, self.store, self.socket = rank, world_size, store, socket


class PyHcclCommunicator:
    """The public surface of vllm-ascend's PyHcclCommunicator, on gloo."""

    def __init__(self, group, device):
        self.rank, self.world_size, self.device = group.rank, group.world_size, device
        self.group = group  # as vllm-ascend's does: the group holds the store's listening socket open
        store = dist.PrefixStore("fake-hccl", group.store)
        self._pg = dist.ProcessGroupGloo(store, group.rank, group.world_size, datetime.timedelta(seconds=120))
        self.comm = object()  # the HcclComm handle

    def all_reduce(self, in_tensor, op=None, stream=None):
        out = in_tensor.clone()
        self._pg.allreduce([out]).wait()
        return out

    def broadcast(self, tensor, src, stream=None):
        opts = dist.BroadcastOptions()
        opts.rootRank = src
        self._pg.broadcast([tensor], opts).wait()


def _module(name: str, **attrs) -> types.ModuleType:
    mod = sys.modules.get(name) or types.ModuleType(name)
    for key, value in attrs.items():
        setattr(mod, key, value)
    sys.modules[name] = mod
    if "." in name:
        parent, _, child = name.rpartition(".")
        setattr(sys.modules[parent], child, mod)
    return mod


def install() -> None:
    npu = _NpuModule("torch.npu")
    torch.npu = npu
    sys.modules["torch.npu"] = npu
    for name in ("zeros", "empty", "tensor", "ones"):
        setattr(torch, name, _on_cpu(getattr(torch, name)))

    _module("vllm", __version__=VLLM_VERSION)
    _module("vllm.distributed")
    _module("vllm.distributed.utils", StatelessProcessGroup=StatelessProcessGroup)
    _module("vllm_ascend")
    _module("vllm_ascend.distributed")
    _module("vllm_ascend.distributed.device_communicators")
    _module("vllm_ascend.distributed.device_communicators.pyhccl", PyHcclCommunicator=PyHcclCommunicator)


def attach() -> None:
    _NpuModule.attached = True
    import verl.utils.device

    verl.utils.device.is_npu_available = True
