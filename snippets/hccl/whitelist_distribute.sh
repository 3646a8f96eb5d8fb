# copy whitelist.json from this folder to every node
for host in 192.168.1.10 192.168.1.11; do
  ssh "$host" mkdir -p /etc/hccl
  scp whitelist.json "$host:/etc/hccl/whitelist.json"
  # print the copy's checksum on each node: all lines must show the same sum
  ssh "$host" md5sum /etc/hccl/whitelist.json
done
