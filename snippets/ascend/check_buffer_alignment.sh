# verl's mooncake engine logs the buffers it registers at INFO ("prepare ptr=0x... magic_buf_ptr=0x...").
# HCCS needs device memory registered at 2 MiB-aligned addresses; print each address and whether it is.
grep -ho "ptr=0x[0-9a-f]*" /tmp/ray/session_latest/logs/worker-*.err | sort -u | while read -r kv; do
  addr=$(( ${kv#*=} ))
  echo "$kv aligned_2MiB=$(( addr % 2097152 == 0 ))"
done
