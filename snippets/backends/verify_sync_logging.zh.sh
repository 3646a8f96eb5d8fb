# 在每个节点执行 ray start 之前导出
export VERL_LOGGING_LEVEL=INFO
# 训练开始后，在任一节点查看本节点 worker 的日志
grep -h -E "init_process_group|weights done" /tmp/ray/session_latest/logs/worker-*.err | tail -n 20
