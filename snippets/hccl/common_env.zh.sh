# 在每个节点执行 ray start 之前导出；两个端口变量还须在运行 main_ppo 的 shell 中
# 导出，否则 verl 将每个 worker 的这两个变量设为 auto（见下文）
export HCCL_CONNECT_TIMEOUT=1500
export HCCL_HOST_SOCKET_PORT_RANGE=60000-60050
export HCCL_NPU_SOCKET_PORT_RANGE=61000-61050
