# 1. CANN 环境：source 本机 CANN 的 set_env.sh，例如 /usr/local/Ascend/cann/set_env.sh
#    （Mooncake 文档）或 /usr/local/Ascend/ascend-toolkit/set_env.sh（verl 昇腾安装指南）
source /usr/local/Ascend/cann/set_env.sh
echo "$ASCEND_HOME_PATH"
# 2. ascend_direct 传输层链接的 ADXL/HIXL 库
for lib in libascendcl.so libllm_datadist.so; do
  test -e "$ASCEND_HOME_PATH/$(uname -m)-linux/lib64/$lib" && echo "found $lib" || echo "missing $lib"
done
# 3. 获取源码并安装通用构建依赖
git clone https://github.com/kvcache-ai/Mooncake.git
cd Mooncake
git submodule update --init --recursive
sudo bash dependencies.sh -y
sudo bash scripts/ascend/dependencies_ascend_installation.sh
