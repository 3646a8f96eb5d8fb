# 节点 A（目标端），在 Mooncake/build 下执行。记下日志 "Transfer Engine RPC using P2P handshake, listening on <IP>:<port>" 中的端口
cd mooncake-transfer-engine/example
./transfer_engine_ascend_direct_perf --metadata_server=P2PHANDSHAKE \
  --local_server_name=192.168.1.10:12345 --operation=write --device_logicid=0 \
  --mode=target --block_size=16384 --batch_size=32 --block_iteration=10
