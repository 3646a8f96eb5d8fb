# 0.9.1 恢复同步执行 HCCL 广播（verl PR #7488；#7487 是 release/v0.9.0 分支上的同一回退）。
# --no-deps：0.9.1 声明的依赖与 0.9.0 相同，与 verl 一同安装的其他软件包保持不变
python3 -m pip install --no-deps --upgrade 'verl==0.9.1'
