# one process per node, 8 nodes: each process builds and writes its share of the layers
torchrun --nproc_per_node 1 --nnodes 8 --node_rank "$NODE_RANK" \
    --master_addr "$MASTER_ADDR" --master_port 29500 \
    -m verl.model_merger merge \
    --backend megatron \
    --local_dir checkpoints/my_project/my_run/global_step_100/actor \
    --target_dir /data/merged/my_run_step100
