#!/bin/bash
# Every key of a section this verl does not have: one cause, one finding.
python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.actor.mindspeed.use_fused_rmsnorm=True \
    actor_rollout_ref.actor.mindspeed.use_flash_attn=True \
    actor_rollout_ref.actor.mindspeed.recompute_granularity=full \
    trainer.total_epochs=2
