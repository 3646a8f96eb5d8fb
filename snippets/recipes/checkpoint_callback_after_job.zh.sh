# 当前 shell 中没有第 2 步经 runtime_env 传入的两个环境变量，须按训练任务的取值重新设置。
# CKPT_UPLOAD_ROOT：训练任务的上传目录（从中读取 registry.jsonl）；PYTHONPATH：my_project/ 所在的目录
export CKPT_UPLOAD_ROOT=/mnt/shared/checkpoints
export PYTHONPATH=/workspace/src${PYTHONPATH:+:$PYTHONPATH}
# FSDP 及其他同步保存的后端
python -m my_project.ckpt_callbacks checkpoints/my_project/my_run
# Megatron：只有已生成 ckpt_contents.json 的检查点才视为已写完
python -m my_project.ckpt_callbacks checkpoints/my_project/my_run --megatron
