# Can HCCLCheckpointEngine.finalize() destroy its group here? (reads the files, imports nothing)
VERL_DIR=$(python3 -c "import importlib.util, os; print(os.path.dirname(importlib.util.find_spec('verl').origin))")
VA_DIR=$(python3 -c "import importlib.util, os; print(os.path.dirname(importlib.util.find_spec('vllm_ascend').origin))")
grep -n "destroyComm" "$VERL_DIR/checkpoint_engine/hccl_checkpoint_engine.py"
if grep -q "def destroyComm" "$VA_DIR/distributed/device_communicators/pyhccl.py"; then
  echo "PyHcclCommunicator has destroyComm: rebuild_group=True can work"
else
  echo "PyHcclCommunicator has no destroyComm: keep rebuild_group=False"
fi
