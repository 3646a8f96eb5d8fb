# on every node, before `ray start` (verl's own NPU test passes these values
# to every Ray worker through ray.init's runtime_env)
export HCCL_CONNECT_TIMEOUT=1500
export HCCL_HOST_SOCKET_PORT_RANGE=60000-60050
export HCCL_NPU_SOCKET_PORT_RANGE=61000-61050
