# the second job's ranges: export in the shell that runs main_ppo and on each node before Ray starts
# HCCL (root-info communicators): host and NPU side
export HCCL_HOST_SOCKET_PORT_RANGE=61000-61099
export HCCL_NPU_SOCKET_PORT_RANGE=61100-61199
# Mooncake RPC listener, outside 32768-60999
export MC_MIN_RPC_PORT=17100
export MC_MAX_RPC_PORT=17999
# ADXL/HIXL listen ports: 101 per physical device from ASCEND_BASE_PORT + 100 x device id (neighbours share the edge port)
export ASCEND_BASE_PORT=22000
