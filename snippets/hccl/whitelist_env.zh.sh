# 在每个节点执行 ray start 之前导出
export HCCL_WHITELIST_DISABLE=0
export HCCL_WHITELIST_FILE=/etc/hccl/whitelist.json
# 输出这两个变量，确认取值
env | grep "^HCCL_WHITELIST_"
