# 在 verl 的 Mooncake 引擎日志中查找已注册缓冲区的地址，逐个判断是否按 2 MiB（2097152 字节）对齐
grep -hoE '\b(magic_buf_)?ptr=0x[0-9a-f]+' /tmp/ray/session_latest/logs/worker-*.err | sort -u | while read -r kv; do
  addr=$(( ${kv#*=} ))
  echo "$kv aligned_2MiB=$(( addr % 2097152 == 0 ))"
done
