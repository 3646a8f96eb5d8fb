#!/bin/bash
# A recipe's module imported by verl before Hydra composes: the keys it may add are not judged.
export VERL_USE_EXTERNAL_MODULES=my_recipe.plugin
python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.actor.my_plugin_section.depth=3 \
    trainer.total_epochs=2
