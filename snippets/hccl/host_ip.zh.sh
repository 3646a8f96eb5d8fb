# 列出本节点的网卡及其 IPv4 地址
ip -4 -o addr show | awk '{split($4, a, "/"); print $2, a[1]}'
# 将其中一个 Host 网卡地址设为 HCCL 使用的 Host IP
export HCCL_IF_IP=192.168.1.10
# 或者改为按网卡名固定（"=" 表示精确匹配）
# export HCCL_SOCKET_IFNAME==eth0
# 输出本节点 HCCL 使用的 Host IP
echo "HCCL_IF_IP=$HCCL_IF_IP"
