#!/usr/bin/env bash
# Run through torchrun; the rollout's log-prob micro-batch keys are never set, nor the rollout name.
torchrun --nproc_per_node=1 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_batch_size=64 \
    actor_rollout_ref.actor.ppo_mini_batch_size=16 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 \
    trainer.n_gpus_per_node=8
