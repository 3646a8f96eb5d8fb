# A second training job on the same nodes: give each port user a range of its own.
# HCCL (root-info communicators): host side and NPU side
export HCCL_HOST_SOCKET_PORT_RANGE=61000-61099
export HCCL_NPU_SOCKET_PORT_RANGE=61100-61199
# Mooncake Transfer Engine RPC listener (must stay outside 32768-60999)
export MC_MIN_RPC_PORT=17100
export MC_MAX_RPC_PORT=17999
# ADXL/HIXL listen ports of the Ascend Direct transport: 100 per physical device from this base
export ASCEND_BASE_PORT=22000
