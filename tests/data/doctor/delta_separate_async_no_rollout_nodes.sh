#!/usr/bin/env bash
# A disaggregated delta_sharded launch that forgets the standalone rollout pool's size.
export CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7
python3 -m verl.trainer.main_ppo \
    trainer.v1.trainer_mode=separate_async \
    trainer.nnodes=1 \
    data.train_batch_size=128 \
    actor_rollout_ref.actor.ppo_mini_batch_size=32 \
    actor_rollout_ref.rollout.name=sglang \
    actor_rollout_ref.rollout.checkpoint_engine.backend=delta_sharded
