# 在每个节点执行 ray start 之前导出
export VERL_LOGGING_LEVEL=INFO
# 训练开始后，在每个节点上执行，查看本节点 worker 最近的日志
grep -h -E "init_process_group|weights done" /tmp/ray/session_latest/logs/worker-*.err | tail -n 20
# 统计本节点 worker 输出的 receive weights done 行数
grep -h "receive weights done" /tmp/ray/session_latest/logs/worker-*.err | wc -l
