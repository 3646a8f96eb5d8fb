# Can HCCLCheckpointEngine.finalize() destroy its group here? (reads the files, imports nothing)
# verl or vllm_ascend not found: stop with an error rather than give a verdict about files that are not there
# runs in a subshell: pasted into an interactive shell, `exit` leaves the subshell, not your terminal
# the current directory is left off the search path: a verl source tree you stand in is not the installed verl
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
