# Same two lines on every node of the communicator (trainer and rollout), before `ray start`.
export HCCL_WHITELIST_DISABLE=0
export HCCL_WHITELIST_FILE=/etc/hccl/whitelist.json
# HCCL reads the file with a JSON parser: validate it first.
python3 -m json.tool "$HCCL_WHITELIST_FILE" > /dev/null && echo "whitelist is valid JSON"
