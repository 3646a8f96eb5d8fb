# Megatron: build the model in CPU memory instead of on the device
python -m verl.model_merger merge \
    --backend megatron \
    --use_cpu_initialization \
    --local_dir checkpoints/my_project/my_run/global_step_100/actor \
    --target_dir /data/merged/my_run_step100
