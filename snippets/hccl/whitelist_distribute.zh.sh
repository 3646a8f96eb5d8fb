# 将当前目录的 whitelist.json 复制到每个节点
for host in 192.168.1.10 192.168.1.11; do
  ssh "$host" mkdir -p /etc/hccl
  scp whitelist.json "$host:/etc/hccl/whitelist.json"
done
