# instead of exporting on every node: hand both variables to every worker from your main_ppo command
# (the leading + adds a key verl's config does not declare; "0" in quotes stays a string, as Ray requires)
python3 -m verl.trainer.main_ppo \
    '+ray_kwargs.ray_init.runtime_env.env_vars.HCCL_WHITELIST_DISABLE="0"' \
    +ray_kwargs.ray_init.runtime_env.env_vars.HCCL_WHITELIST_FILE=/etc/hccl/whitelist.json
