# 不在各节点导出时：在 main_ppo 命令中追加参数，将变量传递给所有 worker
# （开头的 + 用于新增 verl 配置中未声明的键；数字加引号，以字符串形式传入，Ray 只接受字符串）
python3 -m verl.trainer.main_ppo \
    '+ray_kwargs.ray_init.runtime_env.env_vars.ASCEND_TRANSFER_TIMEOUT="36000"'
