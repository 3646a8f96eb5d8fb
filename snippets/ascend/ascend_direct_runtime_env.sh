# instead of exporting on every node: hand a variable to every worker from your main_ppo command
# (the leading + adds a key verl's config does not declare; a number in quotes stays a string, as Ray requires)
python3 -m verl.trainer.main_ppo \
    '+ray_kwargs.ray_init.runtime_env.env_vars.ASCEND_TRANSFER_TIMEOUT="36000"'
