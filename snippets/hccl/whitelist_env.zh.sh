# 每个节点上 ray start 之前
export HCCL_WHITELIST_DISABLE=0
export HCCL_WHITELIST_FILE=/etc/hccl/whitelist.json
