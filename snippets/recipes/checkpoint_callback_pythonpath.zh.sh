# 以下只列出本实践指南的覆盖项，请将其加入完整的训练命令（数据、模型、micro batch 等配置）。
# PYTHONPATH 为 my_project/ 所在的目录；verl 的默认配置中没有 env_vars，因此该键以 + 开头
# 示例回调从 CKPT_UPLOAD_ROOT 读取上传目录，该变量以同样方式传给驱动进程
python3 -m verl.trainer.main_ppo \
    +ray_kwargs.ray_init.runtime_env.env_vars.PYTHONPATH=/workspace/src \
    +ray_kwargs.ray_init.runtime_env.env_vars.CKPT_UPLOAD_ROOT=/mnt/shared/checkpoints
