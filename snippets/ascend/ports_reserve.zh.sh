# 修改内核设置（需要 root，重启后失效）：在已预留的端口之后追加 60000~60031
# （从 /proc 读取当前值，普通用户即可读取：普通用户的 PATH 中可能没有 sysctl，读取为空时写入会覆盖已有预留）
if current=$(cat /proc/sys/net/ipv4/ip_local_reserved_ports); then
  sudo sysctl -w net.ipv4.ip_local_reserved_ports="${current:+$current,}60000-60031"
fi
