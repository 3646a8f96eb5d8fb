python -m verl.model_merger merge \
    --backend fsdp \
    --local_dir checkpoints/run/global_step_100/actor \
    --target_dir merged_hf_model
