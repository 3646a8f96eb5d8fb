# 节点 B（发起端），在 Mooncake/build 下执行。--segment_id 为目标端的 IP 和其日志中的端口
cd mooncake-transfer-engine/example
./transfer_engine_ascend_direct_perf --metadata_server=P2PHANDSHAKE \
  --local_server_name=192.168.1.11:12346 --operation=write --device_logicid=0 \
  --mode=initiator --block_size=16384 --batch_size=32 --block_iteration=10 \
  --segment_id=192.168.1.10:15428
