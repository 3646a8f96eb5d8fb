# Configure, build and install with the Ascend Direct transport (run inside Mooncake/).
source /usr/local/Ascend/cann/set_env.sh
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
