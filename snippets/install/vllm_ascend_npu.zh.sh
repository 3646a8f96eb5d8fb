# 先以 VLLM_TARGET_DEVICE=empty 安装不带 CUDA 依赖的 vLLM，再安装 vllm-ascend，由后者的依赖决定 torch 与 torch_npu。
# PyPI 上没有 triton-ascend 3.2.2，与 verl 的安装脚本一样从 triton-ascend 软件源安装。
# vllm-ascend 需基于 CANN 编译，因此先加载 CANN 环境变量：已设置 $ASCEND_SET_ENV 时使用该路径，否则依次尝试
# verl A2/A3 安装指南所用的 /usr/local/Ascend/ascend-toolkit/set_env.sh 和 Ascend 950PR/Ascend 950DT 安装指南所用的
# /usr/local/Ascend/cann/set_env.sh
# 以下命令在子 shell 中执行：任一命令失败即停止本步骤，不会关闭当前终端。
(
if [ -z "${ASCEND_SET_ENV:-}" ]; then
  for f in /usr/local/Ascend/ascend-toolkit/set_env.sh /usr/local/Ascend/cann/set_env.sh; do
    if [ -f "$f" ]; then ASCEND_SET_ENV="$f"; break; fi
  done
fi
if [ -f "${ASCEND_SET_ENV:-}" ]; then
  source "$ASCEND_SET_ENV"
  # 与 verl 安装指南一致，同时加载与工具包安装在同一目录下的 NNAL（ATB 算子库）的环境变量
  if [ -f "${ASCEND_SET_ENV%/*/*}/nnal/atb/set_env.sh" ]; then
    source "${ASCEND_SET_ENV%/*/*}/nnal/atb/set_env.sh"
  else
    echo "warning: NNAL's set_env.sh not found under ${ASCEND_SET_ENV%/*/*}/nnal/atb/: vllm-ascend needs its libatb.so at run time" >&2
  fi
else
  echo "error: CANN's set_env.sh not found${ASCEND_SET_ENV:+ at $ASCEND_SET_ENV}; set ASCEND_SET_ENV to your CANN install's set_env.sh" >&2
  exit 1
fi
set -e
python3 -m pip install triton-ascend==3.2.2 --extra-index-url https://triton-ascend.osinfra.cn/pypi/simple/ --trusted-host triton-ascend.osinfra.cn
[ -d vllm ] || git clone --depth 1 --branch v0.23.0 https://github.com/vllm-project/vllm.git
cd vllm
VLLM_TARGET_DEVICE=empty python3 -m pip install -e .
cd ..
[ -d vllm-ascend ] || git clone --depth 1 --branch v0.23.0 https://github.com/vllm-project/vllm-ascend.git
cd vllm-ascend
git submodule update --init --recursive
# --no-build-isolation 使用当前环境中已安装的软件包编译，因此先安装编译依赖
# （setuptools-scm、cmake 等在 requirements.txt 中，vLLM 与 verl 的依赖中没有）
# 仅在 x86_64 上添加 PyTorch 的 CPU 软件源：x86_64 上的 torch-npu wheel 要求 torch==2.10.0+cpu，该版本只在该软件源中提供；
# aarch64 上的 torch 来自 PyPI。
cpu_index=()
if [ "$(uname -m)" = "x86_64" ]; then
  cpu_index=(--extra-index-url https://download.pytorch.org/whl/cpu)
fi
# memfabric_hybrid 与 memcache_hybrid 固定为 1.2.0，与 verl 安装脚本和镜像所克隆的 releases/v0.23.0 分支一致
# （v0.23.0 标签未固定这两个包的版本）
python3 -m pip install -r requirements.txt memfabric_hybrid==1.2.0 memcache_hybrid==1.2.0 --extra-index-url https://triton-ascend.osinfra.cn/pypi/simple/ --trusted-host triton-ascend.osinfra.cn \
  "${cpu_index[@]}"
python3 -m pip install -e . --no-build-isolation --no-deps
cd ..
)
