# Megatron checkpoint saved with actor.megatron.use_dist_checkpointing=true
python -m verl.model_merger merge \
    --backend megatron \
    --local_dir checkpoints/my_project/my_run/global_step_100/actor \
    --target_dir /data/merged/my_run_step100
