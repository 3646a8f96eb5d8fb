# a second single-process Megatron merge on the same node: its own NPU and its own port
export ASCEND_RT_VISIBLE_DEVICES=1
export WORLD_SIZE=1 RANK=0 LOCAL_RANK=0 MASTER_ADDR=localhost MASTER_PORT=12356
python -m verl.model_merger merge \
    --backend megatron \
    --local_dir checkpoints/my_project/my_run/global_step_200/actor \
    --target_dir /data/merged/my_run_step200
