#!/bin/bash
DATA=(
    data.train_files="$PWD/data/gsm8k/train.parquet"
    data.train_batch_size=64
)
TRAINER=(
    trainer.nnodes=1
    trainer.total_epochs=2
)
python3 -m verl.trainer.main_ppo
    "${DATA[@]}" \
    "${TRAINER[@]}" \
    actor_rollout_ref.rollout.name=vllm
