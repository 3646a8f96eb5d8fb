# Node A (target), from Mooncake/build. Note the port in "Transfer Engine RPC using P2P handshake, listening on <IP>:<port>".
cd mooncake-transfer-engine/example
./transfer_engine_ascend_direct_perf --metadata_server=P2PHANDSHAKE \
  --local_server_name=192.168.1.10:12345 --operation=write --device_logicid=0 \
  --mode=target --block_size=16384 --batch_size=32 --block_iteration=10
