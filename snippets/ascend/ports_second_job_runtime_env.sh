# the same ranges handed to every worker: add these lines to your main_ppo command
# (the leading + adds a key verl's config does not declare; numbers in quotes stay strings, as Ray requires)
python3 -m verl.trainer.main_ppo \
    +ray_kwargs.ray_init.runtime_env.env_vars.HCCL_HOST_SOCKET_PORT_RANGE=61000-61099 \
    +ray_kwargs.ray_init.runtime_env.env_vars.HCCL_NPU_SOCKET_PORT_RANGE=61100-61199 \
    '+ray_kwargs.ray_init.runtime_env.env_vars.MC_MIN_RPC_PORT="17100"' \
    '+ray_kwargs.ray_init.runtime_env.env_vars.MC_MAX_RPC_PORT="17999"' \
    '+ray_kwargs.ray_init.runtime_env.env_vars.ASCEND_BASE_PORT="22000"'
