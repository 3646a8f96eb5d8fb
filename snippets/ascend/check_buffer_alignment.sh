# find the registered buffers' addresses in the Mooncake engine's log and tell whether each is 2 MiB-aligned
grep -hoE '\b(magic_buf_)?ptr=0x[0-9a-f]+' /tmp/ray/session_latest/logs/worker-*.err | sort -u | while read -r kv; do
  addr=$(( ${kv#*=} ))
  echo "$kv aligned_2MiB=$(( addr % 2097152 == 0 ))"
done
