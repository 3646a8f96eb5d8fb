# 继续使用 0.9.0：该提交即 v0.9.0 标签加上 HCCL 广播的修复，只修改了
# verl/checkpoint_engine/hccl_checkpoint_engine.py，已安装的依赖保持不变。
python3 -m pip install --no-deps --force-reinstall \
  'verl @ git+https://github.com/verl-project/verl.git@88512193628b95f24916c0898d51a8a877d09203'
