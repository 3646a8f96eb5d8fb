# 1. CANN's environment script: $ASCEND_SET_ENV when set, else the path of verl's Ascend images and install guide
# (/usr/local/Ascend/ascend-toolkit/set_env.sh), else the one Mooncake's docs use (/usr/local/Ascend/cann/set_env.sh)
if [ -z "${ASCEND_SET_ENV:-}" ]; then
  for f in /usr/local/Ascend/ascend-toolkit/set_env.sh /usr/local/Ascend/cann/set_env.sh; do
    if [ -f "$f" ]; then ASCEND_SET_ENV="$f"; break; fi
  done
fi
# Nothing below runs without CANN's environment: fix ASCEND_SET_ENV and run the step again.
if [ ! -f "${ASCEND_SET_ENV:-}" ]; then
  echo "error: CANN's set_env.sh not found${ASCEND_SET_ENV:+ at $ASCEND_SET_ENV}; set ASCEND_SET_ENV to your CANN install's set_env.sh" >&2
else
  source "$ASCEND_SET_ENV"
  echo "$ASCEND_HOME_PATH"
  # 2. CANN runtime and the HIXL library (libllm_datadist.so) the Ascend Direct transport links against
  for lib in libascendcl.so libllm_datadist.so; do
    test -e "$ASCEND_HOME_PATH/$(uname -m)-linux/lib64/$lib" && echo "found $lib" || echo "missing $lib"
  done
  # 3. Sources and common build dependencies
  [ -d Mooncake ] || git clone https://github.com/kvcache-ai/Mooncake.git
  cd Mooncake
  git checkout 3b5a594133958449a1feaf1c9e0fc1b553e34a28  # the commit everything on this page was read at (a newer main may differ)
  git submodule update --init --recursive
  sudo bash dependencies.sh -y
  sudo bash scripts/ascend/dependencies_ascend_installation.sh
fi
