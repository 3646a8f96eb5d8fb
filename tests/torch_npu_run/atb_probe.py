"""Run torch_npu's ATB plugin loader (``torch_npu/op_plugin/atb/_atb_ops.py``, the wheel's own file) without importing
the rest of torch_npu, then make the first ATB call and print the exception it raises with its causes, as JSON.

    python atb_probe.py TARGET LOADER
TARGET is the folder a torch_npu wheel was unpacked into; LOADER is ``torch`` (this Python's
``torch.ops.load_library``) or ``raw`` (``ctypes.CDLL(path)`` unwrapped, as torch 2.8.0's ``load_library`` calls it).
``import torch_npu`` cannot finish without CANN, so ``torch_npu`` and the packages above ``_atb_ops`` are bare package
objects whose ``__path__`` is the wheel's folder: ``_atb_ops`` and ``torch_npu.utils._path_manager`` run as shipped."""

import ctypes
import importlib.util
import json
import sys
import types
from pathlib import Path

import torch

root = Path(sys.argv[1]) / "torch_npu"
if sys.argv[2] == "raw":
    torch.ops.load_library = lambda path: ctypes.CDLL(path)
for name, folder in [
    ("torch_npu", root),
    ("torch_npu.utils", root / "utils"),
    ("torch_npu.op_plugin", root / "op_plugin"),
    ("torch_npu.op_plugin.atb", root / "op_plugin" / "atb"),
]:
    package = types.ModuleType(name)
    package.__path__ = [str(folder)]
    sys.modules[name] = package
spec = importlib.util.spec_from_file_location("torch_npu.op_plugin.atb._atb_ops", root / "op_plugin/atb/_atb_ops.py")
atb_ops = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = atb_ops
spec.loader.exec_module(atb_ops)  # the import itself succeeds: the loading error is kept for later
chain = []
try:
    atb_ops._npu_group_topk()  # the first ATB call
except Exception as e:
    error: BaseException | None = e
    while error is not None:
        chain.append({"type": type(error).__name__, "str": str(error)})
        error = error.__cause__
print(json.dumps(chain))
