# 已安装的 verl 是否受影响（只读取文件，不导入 verl）
# 找不到 verl 时报错退出，而不是误报“not affected”
# 在子 shell 中执行：粘贴到交互式 shell 中时，exit 只结束子 shell，不会关闭当前终端
# 查找时不包含当前目录：当前所在的 verl 源码目录不是已安装的 verl
(
  VERL_DIR=$(python3 -c "import importlib.util, os, sys; sys.path[:] = [p for p in sys.path if p]; print(os.path.dirname(importlib.util.find_spec('verl').origin))" 2>/dev/null) || {
    echo "verl not found by this python3: run the check with the Python that runs verl" >&2
    exit 1
  }
  if grep -q "run_in_executor" "$VERL_DIR/checkpoint_engine/hccl_checkpoint_engine.py"; then
    echo "affected: HCCL broadcast runs in a thread pool (verl 0.9.0 or an affected main-branch commit)"
  else
    echo "not affected"
  fi
)
