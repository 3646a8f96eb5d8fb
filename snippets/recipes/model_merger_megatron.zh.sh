# 以 actor.megatron.use_dist_checkpointing=true 保存的 Megatron 检查点
python -m verl.model_merger merge \
    --backend megatron \
    --local_dir checkpoints/my_project/my_run/global_step_100/actor \
    --target_dir /data/merged/my_run_step100
