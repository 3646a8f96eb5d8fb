# 开启 Ascend Direct 传输层，配置、编译并安装（在 Mooncake/ 目录下执行）
source /usr/local/Ascend/cann/set_env.sh
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
