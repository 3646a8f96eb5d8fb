# 在昇腾上只安装 verl 本体。vllm、sglang、fsdp、megatron 等 extra 固定 CUDA 版依赖
# （PyPI 上的 torch==2.11.0、cupy-cuda13x、flash-attn、transformer-engine），会替换 torch_npu 所依赖的 torch。
python3 -m pip install verl==0.9.1
# v1 训练器的驱动进程导入时必需、来自 verl-core extra 的包（不安装该 extra 的其余部分）
python3 -m pip install 'TransferQueue>=0.1.10' pyzmq msgspec cachetools fastapi uvicorn
# 确认 torch 与 torch_npu 的版本仍然匹配
python3 -m pip show torch torch_npu | grep -E '^(Name|Version):'
python3 -m pip check
