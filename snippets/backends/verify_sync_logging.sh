# Make the nccl (HCCL) and kimi engines log each sync: their loggers default to WARN.
# Export on every node before `ray start` (or pass it through Ray's runtime_env), then look for
#   "init_process_group rank: R, world_size: W", "Rank 0 send weights done, time cost: ...s",
#   "Rank R receive weights done, total_params: ..., time cost: ...s, bandwidth: ... GB/s"
export VERL_LOGGING_LEVEL=INFO
grep -h "weights done" /tmp/ray/session_latest/logs/worker-*.err | tail -n 20
