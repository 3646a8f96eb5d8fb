# list this node's interfaces with their IPv4 addresses
ip -4 -o addr show | awk '{split($4, a, "/"); print $2, a[1]}'
# make one host NIC address the host IP HCCL uses
export HCCL_IF_IP=192.168.1.10
# or pin it by interface name instead ("=" means the exact name)
# export HCCL_SOCKET_IFNAME==eth0
# print the host IP HCCL will use on this node
echo "HCCL_IF_IP=$HCCL_IF_IP"
