# 本机的 HCCLCheckpointEngine.finalize() 能否销毁通信域（只读取文件，不导入任何包）
# 找不到 verl 或 vllm_ascend 时报错退出，而不是对不存在的文件给出结论
# 在子 shell 中执行：粘贴到交互式 shell 中时，exit 只结束子 shell，不会关闭当前终端
# 查找时不包含当前目录：当前所在的 verl 源码目录不是已安装的 verl
(
  VERL_DIR=$(python3 -c "import importlib.util, os, sys; sys.path[:] = [p for p in sys.path if p]; print(os.path.dirname(importlib.util.find_spec('verl').origin))" 2>/dev/null) || {
    echo "verl not found by this python3: run the check with the Python that runs verl" >&2
    exit 1
  }
  VA_DIR=$(python3 -c "import importlib.util, os, sys; sys.path[:] = [p for p in sys.path if p]; print(os.path.dirname(importlib.util.find_spec('vllm_ascend').origin))" 2>/dev/null) || {
    echo "vllm_ascend not found by this python3: run the check with the Python that runs the rollout" >&2
    exit 1
  }
  if grep -q "def destroyComm" "$VA_DIR/distributed/device_communicators/pyhccl.py"; then
    echo "PyHcclCommunicator has destroyComm: rebuild_group=True can work"
  else
    echo "PyHcclCommunicator has no destroyComm: keep rebuild_group=False"
  fi
)
