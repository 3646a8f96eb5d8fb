# 修改内核设置（需要 root，重启后失效）：在已预留的端口之后追加 60000-60031
# 从 /proc 读取当前已预留的端口，避免覆盖已有预留
if current=$(cat /proc/sys/net/ipv4/ip_local_reserved_ports); then
  sudo sysctl -w net.ipv4.ip_local_reserved_ports="${current:+$current,}60000-60031"
fi
