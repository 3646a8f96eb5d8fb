# 每个节点上执行
python3 - "$HCCL_WHITELIST_FILE" "$HCCL_IF_IP" <<'PY'
import json, sys
path, ip = sys.argv[1], sys.argv[2]
with open(path) as f:
    hosts = json.load(f)["host_ip"]
print("whitelist ok" if ip in hosts else f"{ip} missing from {path}")
PY
