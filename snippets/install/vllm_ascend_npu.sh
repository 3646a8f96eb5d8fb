# vLLM without its CUDA requirements (VLLM_TARGET_DEVICE=empty), then vllm-ascend, whose requirements decide
# torch and torch_npu. triton-ascend 3.2.2 is not on PyPI: it comes from Ascend's package index.
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
