#!/bin/bash
# Engine kwargs kept in an associative array and turned into overrides in a loop over its keys.
declare -A LLM_KWARGS=(
    [max_num_seqs]=256
    [enforce_eager]=True
)
LLM_KWARGS[no_such_section.x]=1
ARGS=()
for key in "${!LLM_KWARGS[@]}"; do
    ARGS+=("actor_rollout_ref.rollout.${key}=${LLM_KWARGS[$key]}")
done
python3 -m verl.trainer.main_ppo "${ARGS[@]}"
