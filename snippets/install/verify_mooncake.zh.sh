# 在每个运行训练端或推理端 worker 的节点上执行
# 1. 检查 /etc/hccn.conf 是否存在（缺少时输出 missing /etc/hccn.conf）；2. 创建 TransferEngine；3. 列出已安装的 mooncake 发行包
test -f /etc/hccn.conf || echo "missing /etc/hccn.conf (mount it into the container)"
python3 -c "from mooncake.engine import TransferEngine; TransferEngine()"
python3 -m pip list 2>/dev/null | grep -i '^mooncake'
