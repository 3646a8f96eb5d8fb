#!/usr/bin/env bash
# 昇腾上分离部署（separate_async）训练中的 Mooncake。
set -euo pipefail

python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_batch_size=64 \
    actor_rollout_ref.model.path=Qwen/Qwen3-8B \
    actor_rollout_ref.actor.ppo_mini_batch_size=16 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 \
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=4 \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=4 \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.nnodes=1 \
    actor_rollout_ref.rollout.n_gpus_per_node=8 \
    actor_rollout_ref.rollout.checkpoint_engine.backend=mooncake \
    +actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.mooncake.device=npu \
    trainer.device=npu \
    trainer.nnodes=1 \
    trainer.n_gpus_per_node=8 \
    trainer.v1.trainer_mode=separate_async \
    trainer.v1.separate_async.parameter_sync_step=4
