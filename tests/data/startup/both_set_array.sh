#!/usr/bin/env bash
# Overrides kept in a bash array; the deprecated and the new actor micro-batch key are both set.
ARGS=(
    algorithm.adv_estimator=grpo
    data.train_batch_size=64
    actor_rollout_ref.actor.ppo_mini_batch_size=16
    actor_rollout_ref.actor.ppo_micro_batch_size=16
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2
    actor_rollout_ref.rollout.name=vllm
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=4
)
python3 -m verl.trainer.main_ppo "${ARGS[@]}" trainer.n_gpus_per_node=8
