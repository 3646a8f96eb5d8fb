#!/bin/bash
# Keys written where older releases (or older habits) put them.
python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.rollout.name=vllm \
    train_batch_size=64 \
    actor_rollout_ref.rollout.test_freq=5 \
    actor_rollout_ref.rollout.update_weights_bucket_megabytes=512 \
    actor_rollout_ref.rollout.skip_rollout=True \
    trainer.total_epochs=2
