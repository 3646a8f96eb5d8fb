#!/bin/bash
# A config-group option that another package's Hydra search-path plugin provides, and its own keys.
python3 -m verl.trainer.main_ppo \
    actor@actor_rollout_ref.actor=plugin_actor \
    actor_rollout_ref.actor.engine.tp=2
