#!/bin/bash
python3 -m verl.trainer.main_ppo \
    trainer.total_epochs=1 \
    # the rollout
    actor_rollout_ref.rollout.name=vllm \
    trainer.nnodes=1
