# on every node, before `ray start`; export the two port variables in the shell that
# runs main_ppo too, or verl sets both to auto for every worker (see below)
export HCCL_CONNECT_TIMEOUT=1500
export HCCL_HOST_SOCKET_PORT_RANGE=60000-60050
export HCCL_NPU_SOCKET_PORT_RANGE=61000-61050
