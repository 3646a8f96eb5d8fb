# 本机的 HCCLCheckpointEngine.finalize() 能否销毁通信域（只读取文件，不导入任何包）
VERL_DIR=$(python3 -c "import importlib.util, os; print(os.path.dirname(importlib.util.find_spec('verl').origin))")
VA_DIR=$(python3 -c "import importlib.util, os; print(os.path.dirname(importlib.util.find_spec('vllm_ascend').origin))")
grep -n "destroyComm" "$VERL_DIR/checkpoint_engine/hccl_checkpoint_engine.py"
if grep -q "def destroyComm" "$VA_DIR/distributed/device_communicators/pyhccl.py"; then
  echo "PyHcclCommunicator has destroyComm: rebuild_group=True can work"
else
  echo "PyHcclCommunicator has no destroyComm: keep rebuild_group=False"
fi
