# 只读，不修改任何设置
# 内核自行分配的临时端口范围、已预留的端口
cat /proc/sys/net/ipv4/ip_local_port_range
cat /proc/sys/net/ipv4/ip_local_reserved_ports
# 主机上在 HCCL Host 侧默认端口、Mooncake 默认端口监听的进程
ss -ltnp '( sport >= :60000 and sport <= :60031 )'
ss -ltnp '( sport >= :15000 and sport <= :17000 ) or ( sport >= :20000 and sport <= :21600 )'
