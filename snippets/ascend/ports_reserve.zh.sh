# 修改内核设置（需要 root，重启后失效）：在已预留的端口之后追加 60000-60031
# 从 /proc 读取当前已预留的端口，避免覆盖已有预留
if current=$(cat /proc/sys/net/ipv4/ip_local_reserved_ports); then
  value="${current:+$current,}60000-60031"
  if command -v sudo >/dev/null; then sudo sysctl -w net.ipv4.ip_local_reserved_ports="$value"
  else sysctl -w net.ipv4.ip_local_reserved_ports="$value"  # 没有 sudo 的 root shell（常见于容器）直接执行
  fi
fi
