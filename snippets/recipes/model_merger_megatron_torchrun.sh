# one process per node, 8 nodes; --local_dir and --target_dir on storage every node shares
torchrun --nproc_per_node 1 --nnodes 8 --node_rank "$NODE_RANK" \
    --master_addr "$MASTER_ADDR" --master_port 29500 \
    -m verl.model_merger merge \
    --backend megatron \
    --local_dir /shared/checkpoints/my_project/my_run/global_step_100/actor \
    --target_dir /shared/merged/my_run_step100
