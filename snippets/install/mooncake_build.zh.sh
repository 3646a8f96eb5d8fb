# 开启 Ascend Direct 传输层，配置、编译并安装（在 Mooncake/ 目录下执行）
# CANN 环境变量脚本：已设置 $ASCEND_SET_ENV 时使用该路径，否则依次尝试 verl 昇腾镜像与安装指南所用的
# /usr/local/Ascend/ascend-toolkit/set_env.sh 和 Mooncake 文档所用的 /usr/local/Ascend/cann/set_env.sh
if [ -z "${ASCEND_SET_ENV:-}" ]; then
  for f in /usr/local/Ascend/ascend-toolkit/set_env.sh /usr/local/Ascend/cann/set_env.sh; do
    if [ -f "$f" ]; then ASCEND_SET_ENV="$f"; break; fi
  done
fi
# 未加载 CANN 环境时，以下命令均不执行：请设置 ASCEND_SET_ENV 后重新执行本步骤。
if [ ! -f "${ASCEND_SET_ENV:-}" ]; then
  echo "error: CANN's set_env.sh not found${ASCEND_SET_ENV:+ at $ASCEND_SET_ENV}; set ASCEND_SET_ENV to your CANN install's set_env.sh" >&2
else
  source "$ASCEND_SET_ENV"
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
fi
