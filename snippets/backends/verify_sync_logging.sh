# export on every node before `ray start`
export VERL_LOGGING_LEVEL=INFO
# once training runs, read the workers' logs on a node
grep -h -E "init_process_group|weights done" /tmp/ray/session_latest/logs/worker-*.err | tail -n 20
