python -m verl.model_merger test \
    --backend fsdp \
    --local_dir checkpoints/my_project/my_run/global_step_100/actor \
    --test_hf_dir checkpoints/my_project/my_run/global_step_100/actor/huggingface
