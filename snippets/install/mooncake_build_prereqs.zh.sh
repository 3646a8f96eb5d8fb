# 1. 配置 CANN 环境变量（请替换为实际的 set_env.sh 路径，见下方说明）
source /usr/local/Ascend/cann/set_env.sh
echo "$ASCEND_HOME_PATH"
# 2. 检查 CANN 运行库与 Ascend Direct 传输层链接的 HIXL 库（libllm_datadist.so）
for lib in libascendcl.so libllm_datadist.so; do
  test -e "$ASCEND_HOME_PATH/$(uname -m)-linux/lib64/$lib" && echo "found $lib" || echo "missing $lib"
done
# 3. 获取源码并安装通用编译依赖与昇腾编译依赖
git clone https://github.com/kvcache-ai/Mooncake.git
cd Mooncake
git checkout 3b5a594133958449a1feaf1c9e0fc1b553e34a28  # 切换到本页内容所依据的提交（更新的 main 分支可能不同）
git submodule update --init --recursive
sudo bash dependencies.sh -y
sudo bash scripts/ascend/dependencies_ascend_installation.sh
