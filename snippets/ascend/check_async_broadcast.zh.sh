# 已安装的 verl 是否受影响（只读取文件，不导入 verl）
VERL_DIR=$(python3 -c "import importlib.util, os; print(os.path.dirname(importlib.util.find_spec('verl').origin))")
if grep -q "run_in_executor" "$VERL_DIR/checkpoint_engine/hccl_checkpoint_engine.py"; then
  echo "affected: HCCL broadcast runs in a thread pool (verl 0.9.0)"
else
  echo "not affected"
fi
