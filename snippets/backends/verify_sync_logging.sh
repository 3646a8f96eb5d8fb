# export on every node before `ray start`
export VERL_LOGGING_LEVEL=INFO
# once training runs, on every node: the latest lines of that node's workers
grep -h -E "init_process_group|weights done" /tmp/ray/session_latest/logs/worker-*.err | tail -n 20
# count the receive weights done lines of that node's workers
grep -h "receive weights done" /tmp/ray/session_latest/logs/worker-*.err | wc -l
