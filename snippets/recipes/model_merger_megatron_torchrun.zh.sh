# 8 个节点，每节点 1 个进程；--local_dir 和 --target_dir 位于所有节点共享的存储上
torchrun --nproc_per_node 1 --nnodes 8 --node_rank "$NODE_RANK" \
    --master_addr "$MASTER_ADDR" --master_port 29500 \
    -m verl.model_merger merge \
    --backend megatron \
    --local_dir /shared/checkpoints/my_project/my_run/global_step_100/actor \
    --target_dir /shared/merged/my_run_step100
