# Only the overrides of this recipe: add them to your whole training command (data, model, micro-batch sizes, ...).
# the folder that holds my_project/; env_vars is not in verl's default config, so the key needs a leading +
# the example callback reads its upload folder from CKPT_UPLOAD_ROOT: it reaches the driver the same way
python3 -m verl.trainer.main_ppo \
    +ray_kwargs.ray_init.runtime_env.env_vars.PYTHONPATH=/workspace/src \
    +ray_kwargs.ray_init.runtime_env.env_vars.CKPT_UPLOAD_ROOT=/mnt/shared/checkpoints
