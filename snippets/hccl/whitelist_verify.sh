# run on every node: the host IP HCCL uses here must be in the whitelist
# (HCCL_IF_IP; else, as HCCL picks among the whitelisted NICs, one NIC HCCL_SOCKET_IFNAME matches must be listed)
python3 - "$HCCL_WHITELIST_FILE" "${HCCL_IF_IP:-}" "${HCCL_SOCKET_IFNAME:-}" "$(ip -4 -o addr show)" <<'PY'
import json, sys
path, ip, ifname, addrs = sys.argv[1:5]
if not path:
    sys.exit("set HCCL_WHITELIST_FILE in this shell to the whitelist file's path")
nics = [(f[1], f[3].split("/")[0]) for f in (line.split() for line in addrs.splitlines()) if len(f) > 3]
if ip:
    ips = [ip]
elif ifname and not ifname.startswith("^"):
    exact, names = ifname.startswith("="), ifname.lstrip("=").split(",")
    ips = [a for dev, a in nics if any(dev == n or (not exact and dev.startswith(n)) for n in names)]
    if not ips:
        sys.exit(f"no IPv4 NIC matches HCCL_SOCKET_IFNAME={ifname}")
else:
    sys.exit("set HCCL_IF_IP (or HCCL_SOCKET_IFNAME to the NICs to use) to check the whitelist")
with open(path) as f:
    hosts = json.load(f)["host_ip"]
print("whitelist ok" if set(ips) & set(hosts) else f"{', '.join(ips)} missing from {path}")
PY
