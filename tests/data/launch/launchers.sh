#!/bin/bash
ENTRY=${ENTRY:-"-m verl.trainer.main_ppo"}
HCCL_CONNECT_TIMEOUT=1200 torchrun --standalone --nproc_per_node=8 ${ENTRY} \
    trainer.total_epochs=1
ray job submit --address=http://127.0.0.1:8265 --runtime-env=runtime.yaml -- \
    python3 -m verl.trainer.main_ppo trainer.totl_epochs=1
uv run --extra vllm python3 -m verl.trainer.main_ppo trainer.nnodes=1
