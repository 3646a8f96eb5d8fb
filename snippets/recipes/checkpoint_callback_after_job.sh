# FSDP (and the other engines that save synchronously)
python -m my_project.ckpt_callbacks checkpoints/my_project/my_run
# Megatron: a checkpoint counts as complete only once its ckpt_contents.json is there
python -m my_project.ckpt_callbacks checkpoints/my_project/my_run --megatron
