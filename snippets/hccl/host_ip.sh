# this node's host IP: one address of a host NIC
export HCCL_IF_IP=192.168.1.10
# or pin it by interface name instead ("=" means the exact name)
# export HCCL_SOCKET_IFNAME==eth0
ip -4 -o addr show | awk '{print $2, $4}'
