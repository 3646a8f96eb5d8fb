# 将当前目录的 whitelist.json 复制到每个节点
for host in 192.168.1.10 192.168.1.11; do
  ssh "$host" mkdir -p /etc/hccl
  scp whitelist.json "$host:/etc/hccl/whitelist.json"
  # 输出每个节点上文件的校验和，各行的校验和应相同
  ssh "$host" md5sum /etc/hccl/whitelist.json
done
