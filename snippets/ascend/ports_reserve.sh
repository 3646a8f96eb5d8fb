# changes a kernel setting (root, lost at reboot): appends 60000-60031 to the ports already reserved
# (read from /proc, which any user can read: a non-root PATH may have no sysctl, and an empty read would replace them)
if current=$(cat /proc/sys/net/ipv4/ip_local_reserved_ports); then
  value="${current:+$current,}60000-60031"
  if command -v sudo >/dev/null; then sudo sysctl -w net.ipv4.ip_local_reserved_ports="$value"
  else sysctl -w net.ipv4.ip_local_reserved_ports="$value"  # a root shell without sudo, as in many containers
  fi
fi
