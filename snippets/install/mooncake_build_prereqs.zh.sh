# 1. CANN 环境变量脚本：已设置 $ASCEND_SET_ENV 时使用该路径，否则依次尝试 verl 昇腾镜像与安装指南所用的
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
  echo "$ASCEND_HOME_PATH"
  # 2. 检查 CANN 运行库与 Ascend Direct 传输层链接的 HIXL 库（libllm_datadist.so）
  for lib in libascendcl.so libllm_datadist.so; do
    test -e "$ASCEND_HOME_PATH/$(uname -m)-linux/lib64/$lib" && echo "found $lib" || echo "missing $lib"
  done
  # 3. 获取源码并安装通用编译依赖与昇腾编译依赖
  [ -d Mooncake ] || git clone https://github.com/kvcache-ai/Mooncake.git
  cd Mooncake
  git checkout 3b5a594133958449a1feaf1c9e0fc1b553e34a28  # 切换到本页内容所依据的提交（更新的 main 分支可能不同）
  git submodule update --init --recursive
  sudo bash dependencies.sh -y
  sudo bash scripts/ascend/dependencies_ascend_installation.sh
fi
