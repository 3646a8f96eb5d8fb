# read-only: changes nothing
# the kernel's ephemeral range, the reserved ports
cat /proc/sys/net/ipv4/ip_local_port_range
cat /proc/sys/net/ipv4/ip_local_reserved_ports
# host listeners on HCCL's host-side and Mooncake's default ports
ss -ltnp '( sport >= :60000 and sport <= :60031 )'
ss -ltnp '( sport >= :15000 and sport <= :17000 ) or ( sport >= :20000 and sport <= :21600 )'
