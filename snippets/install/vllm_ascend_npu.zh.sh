# 先以 VLLM_TARGET_DEVICE=empty 安装不带 CUDA 依赖的 vLLM，再安装 vllm-ascend，由后者的依赖决定 torch 与 torch_npu。
# PyPI 上没有 triton-ascend 3.2.2，从 Ascend 软件源安装。
python3 -m pip install triton-ascend==3.2.2 --extra-index-url https://mirrors.huaweicloud.com/ascend/repos/pypi
git clone --depth 1 --branch v0.23.0 https://github.com/vllm-project/vllm.git
cd vllm
VLLM_TARGET_DEVICE=empty python3 -m pip install -e .
cd ..
git clone --depth 1 --branch v0.23.0 https://github.com/vllm-project/vllm-ascend.git
cd vllm-ascend
git submodule update --init --recursive
python3 -m pip install -e . --no-build-isolation
cd ..
