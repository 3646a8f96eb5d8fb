# changes a kernel setting (root, lost at reboot): appends 60000-60031 to the ports already reserved
current=$(sysctl -n net.ipv4.ip_local_reserved_ports)
sudo sysctl -w net.ipv4.ip_local_reserved_ports="${current:+$current,}60000-60031"
