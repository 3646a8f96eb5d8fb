# on every node, before `ray start`
export HCCL_WHITELIST_DISABLE=0
export HCCL_WHITELIST_FILE=/etc/hccl/whitelist.json
# print both variables to check them
env | grep "^HCCL_WHITELIST_"
