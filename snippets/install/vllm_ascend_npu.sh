# vLLM without its CUDA requirements (VLLM_TARGET_DEVICE=empty), then vllm-ascend, whose requirements decide
# torch and torch_npu. triton-ascend 3.2.2 is not on PyPI: it comes from the triton-ascend index verl's install script uses.
# vllm-ascend compiles against CANN, so load CANN's environment first: $ASCEND_SET_ENV when set, else the path of
# verl's A2/A3 install guide (/usr/local/Ascend/ascend-toolkit/set_env.sh), else the one of its 950PR/950DT guide
# (/usr/local/Ascend/cann/set_env.sh)
# Everything runs in a subshell, so the first failing command stops the step without closing your shell.
(
if [ -z "${ASCEND_SET_ENV:-}" ]; then
  for f in /usr/local/Ascend/ascend-toolkit/set_env.sh /usr/local/Ascend/cann/set_env.sh; do
    if [ -f "$f" ]; then ASCEND_SET_ENV="$f"; break; fi
  done
fi
if [ -f "${ASCEND_SET_ENV:-}" ]; then
  source "$ASCEND_SET_ENV"
  # NNAL (the ATB operator library), installed next to the toolkit, as verl's install guide loads it
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
# --no-build-isolation builds with what is installed, so install the build requirements first
# (setuptools-scm, cmake, … are in requirements.txt, not in vLLM's or verl's requirements)
# PyTorch's CPU index is added on x86_64 only: there the torch-npu wheel requires torch==2.10.0+cpu, which only that
# index has; on aarch64 torch comes from PyPI.
cpu_index=()
if [ "$(uname -m)" = "x86_64" ]; then
  cpu_index=(--extra-index-url https://download.pytorch.org/whl/cpu)
fi
# memfabric_hybrid and memcache_hybrid at 1.2.0, as pinned on the releases/v0.23.0 branch that verl's install script
# and images clone (the v0.23.0 tag leaves both unpinned)
python3 -m pip install -r requirements.txt memfabric_hybrid==1.2.0 memcache_hybrid==1.2.0 --extra-index-url https://triton-ascend.osinfra.cn/pypi/simple/ --trusted-host triton-ascend.osinfra.cn \
  "${cpu_index[@]}"
python3 -m pip install -e . --no-build-isolation --no-deps
cd ..
)
