#!/usr/bin/env bash
export CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7
python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.data_parallel_size=2 \
    actor_rollout_ref.rollout.checkpoint_engine.backend=delta_sharded
