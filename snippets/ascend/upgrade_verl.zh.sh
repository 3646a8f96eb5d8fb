# 0.9.1 恢复同步执行 HCCL 广播（verl PR #7487、#7488）。
python3 -m pip install --upgrade 'verl==0.9.1'
