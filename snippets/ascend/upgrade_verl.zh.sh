# 0.9.1 恢复同步执行 HCCL 广播（verl PR #7488；#7487 是 release/v0.9.0 分支上的同一回退）。
python3 -m pip install --upgrade 'verl==0.9.1'
