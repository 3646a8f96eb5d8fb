python -m my_project.ckpt_callbacks checkpoints/my_project/my_run --megatron
