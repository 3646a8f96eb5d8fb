# Configure, build and install with the Ascend Direct transport (run inside Mooncake/).
# CANN's environment script: $ASCEND_SET_ENV when set, else the path of verl's Ascend images and install guide
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
  # cmake --install copies files and registers no pip distribution: remove any Mooncake wheel first,
  # or its files stay mixed with the build's and pip keeps listing it.
  python3 -m pip uninstall -y mooncake-transfer-engine mooncake-transfer-engine-npu
  rm -rf build
  mkdir -p build
  cd build
  cmake .. \
    -DUSE_ASCEND_DIRECT=ON \
    -DBUILD_UNIT_TESTS=OFF \
    -DENABLE_DEBUG_SYMBOLS=OFF \
    -DBUILD_BENCHMARK=OFF \
    -DPython3_EXECUTABLE="$(command -v python3)"
  cmake --build . -j"$(nproc)"
  sudo cmake --install .
fi
