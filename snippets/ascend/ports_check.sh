# Which ports the kernel hands out by itself, which are kept back, and who listens where.
sysctl net.ipv4.ip_local_port_range net.ipv4.ip_local_reserved_ports
# HCCL's default host range (60000-60031) lies inside Linux's default ephemeral range: reserve it
sudo sysctl -w net.ipv4.ip_local_reserved_ports=60000-60031
# listeners in HCCL's host range, on HCCL's default NPU-side port, and in Mooncake's default windows
ss -ltnp '( sport >= :60000 and sport <= :60031 ) or sport = :16666'
ss -ltnp '( sport >= :15000 and sport <= :17000 ) or ( sport >= :20000 and sport <= :21600 )'
