# 也可以将同样的端口范围传递给所有 worker：在 main_ppo 命令中追加以下参数
# （开头的 + 用于新增 verl 配置中未声明的键；数字加引号，以字符串形式传入，Ray 只接受字符串）
python3 -m verl.trainer.main_ppo \
    +ray_kwargs.ray_init.runtime_env.env_vars.HCCL_HOST_SOCKET_PORT_RANGE=61000-61099 \
    +ray_kwargs.ray_init.runtime_env.env_vars.HCCL_NPU_SOCKET_PORT_RANGE=61100-61199 \
    '+ray_kwargs.ray_init.runtime_env.env_vars.MC_MIN_RPC_PORT="17100"' \
    '+ray_kwargs.ray_init.runtime_env.env_vars.MC_MAX_RPC_PORT="17999"' \
    '+ray_kwargs.ray_init.runtime_env.env_vars.ASCEND_BASE_PORT="22000"'
