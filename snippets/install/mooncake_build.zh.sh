# 开启 Ascend Direct 传输层，配置、编译并安装（在 Mooncake/ 目录下执行）
source /usr/local/Ascend/cann/set_env.sh
# cmake --install 只复制文件，不注册 pip 发行包：先卸载已安装的 Mooncake wheel，
# 否则已安装的 wheel 文件与编译产物并存，pip 仍会列出该 wheel。
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
