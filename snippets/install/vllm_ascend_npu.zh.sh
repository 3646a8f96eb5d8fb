# 先以 VLLM_TARGET_DEVICE=empty 安装不带 CUDA 依赖的 vLLM，再安装 vllm-ascend，由后者的依赖决定 torch 与 torch_npu。
# PyPI 上没有 triton-ascend 3.2.2，从 Ascend 软件源安装。
# x86_64 上的 torch-npu wheel 要求 torch==2.10.0+cpu，这个版本只在 PyTorch 的 CPU 软件源中提供。
python3 -m pip install triton-ascend==3.2.2 --extra-index-url https://mirrors.huaweicloud.com/ascend/repos/pypi
git clone --depth 1 --branch v0.23.0 https://github.com/vllm-project/vllm.git
cd vllm
VLLM_TARGET_DEVICE=empty python3 -m pip install -e .
cd ..
git clone --depth 1 --branch v0.23.0 https://github.com/vllm-project/vllm-ascend.git
cd vllm-ascend
git submodule update --init --recursive
# --no-build-isolation 在当前环境中编译：先安装 vllm-ascend 的构建依赖和 torch_npu。
python3 -m pip install "setuptools>=64" "setuptools-scm>=8" "cmake>=3.26" pybind11 wheel
python3 -m pip install torch==2.10.0 torch-npu==2.10.0.post4 --extra-index-url https://download.pytorch.org/whl/cpu
python3 -m pip install -e . --no-build-isolation --extra-index-url https://download.pytorch.org/whl/cpu
cd ..
