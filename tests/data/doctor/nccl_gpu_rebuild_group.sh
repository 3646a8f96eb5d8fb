#!/usr/bin/env bash
# Disaggregated GRPO on H100s: on GPUs the NCCL engine destroys its group itself, rebuild_group is fine.
export CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7
python3 -m verl.trainer.main_ppo \
    trainer.device=cuda \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.checkpoint_engine.backend=nccl \
    +actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.nccl.rebuild_group=True
