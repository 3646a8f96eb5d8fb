# verl 自带的 NPU 检查点引擎测试传给每个 Ray worker 的值 / the values verl's own NPU test gives every Ray worker
export HCCL_CONNECT_TIMEOUT=1500
export HCCL_HOST_SOCKET_PORT_RANGE=60000-60050
export HCCL_NPU_SOCKET_PORT_RANGE=61000-61050
