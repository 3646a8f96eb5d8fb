# 本节点的 Host IP：只能是 Host 网卡上的一个地址
export HCCL_IF_IP=192.168.1.10
# 或者改为按网卡名固定（"=" 表示精确匹配）
# export HCCL_SOCKET_IFNAME==eth0
ip -4 -o addr show | awk '{print $2, $4}'
