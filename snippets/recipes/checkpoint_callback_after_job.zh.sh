# FSDP 及其他同步保存的后端
python -m my_project.ckpt_callbacks checkpoints/my_project/my_run
# Megatron：只有已生成 ckpt_contents.json 的检查点才视为已写完
python -m my_project.ckpt_callbacks checkpoints/my_project/my_run --megatron
