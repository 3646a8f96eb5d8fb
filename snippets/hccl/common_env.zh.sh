# 在每个节点执行 ray start 之前导出（verl 自带的 NPU 检查点引擎测试
# 通过 ray.init 的 runtime_env 将这些值传给每个 Ray worker）
export HCCL_CONNECT_TIMEOUT=1500
export HCCL_HOST_SOCKET_PORT_RANGE=60000-60050
export HCCL_NPU_SOCKET_PORT_RANGE=61000-61050
