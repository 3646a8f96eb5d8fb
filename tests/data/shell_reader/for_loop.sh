#!/bin/bash
# Overrides appended in a loop over a literal list, and a loop over words not known statically.
ARGS=()
for k in total_epochs save_freq test_freq; do
    ARGS+=("trainer.${k}=1")
done
for k in no_such_key; do
    ARGS+=("trainer.${k}=2")
done
for k in "${!EXTRA[@]}"; do
    ARGS+=("++actor_rollout_ref.rollout.engine_kwargs.vllm.${k}=${EXTRA[$k]}")
done
python3 -m verl.trainer.main_ppo "${ARGS[@]}"
