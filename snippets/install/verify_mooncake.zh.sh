# 在每个运行训练端或推理端 worker 的节点上执行
test -f /etc/hccn.conf || echo "missing /etc/hccn.conf (mount it into the container)"
python3 -c "from mooncake.engine import TransferEngine; TransferEngine()"
python3 -m pip list 2>/dev/null | grep -i '^mooncake'
