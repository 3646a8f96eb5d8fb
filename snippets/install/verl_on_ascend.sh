# verl on Ascend: the base package only. The extras (vllm, sglang, fsdp, megatron) pin CUDA builds
# (torch==2.11.0 from PyPI, cupy-cuda13x, flash-attn, transformer-engine) and would replace the torch
# that torch_npu was built for.
python3 -m pip install verl==0.9.1
# What the v1 trainer's driver cannot import without, from the verl-core extra (not the rest of it)
python3 -m pip install 'TransferQueue>=0.1.10' pyzmq msgspec cachetools fastapi uvicorn
# torch and torch_npu must still agree
python3 -m pip show torch torch_npu | grep -E '^(Name|Version):'
python3 -m pip check
