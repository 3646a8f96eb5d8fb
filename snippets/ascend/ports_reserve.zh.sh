# 修改内核设置（需要 root，重启后失效）：在已预留的端口之后追加 60000~60031
current=$(sysctl -n net.ipv4.ip_local_reserved_ports)
sudo sysctl -w net.ipv4.ip_local_reserved_ports="${current:+$current,}60000-60031"
