# 本节点的 Host IP：只能是 Host 网卡上的一个地址 / this node's host IP: one address of a host NIC
export HCCL_IF_IP=192.168.1.10
# 或者按网卡名固定（"=" 表示精确匹配）/ or pin it by interface name ("=" means the exact name)
# export HCCL_SOCKET_IFNAME==eth0
ip -4 -o addr show | awk '{print $2, $4}'
