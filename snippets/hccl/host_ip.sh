# Pin the host NIC HCCL uses for root-info bootstrap, so the IP in the whitelist is the one it picks.
export HCCL_IF_IP=192.168.1.10          # this node's host IP (one address, host NIC only)
# or, instead, by interface name ("=" means exact name):
# export HCCL_SOCKET_IFNAME==eth0
ip -4 -o addr show | awk '{print $2, $4}'   # host interfaces and their IPv4 addresses
