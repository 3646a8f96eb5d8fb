#!/usr/bin/env bash
# Parameter arrays, a launcher array and "$@": the style of verl's current examples.
set -euo pipefail
MODEL=${MODEL:-Qwen/Qwen2.5-0.5B-Instruct}
BATCH=${BATCH:-64}

ALGO=(
    algorithm.adv_estimator=grpo
    algorithm.use_kl_in_rewrd=False
)
DATA=(
    data.train_batch_size=${BATCH}
    +data.max_prompt_length=512
)
DATA+=(data.max_response_length=$((256 * 2)))
ROLLOUT=(
    actor_rollout_ref.model.path="$MODEL"
    actor_rollout_ref.rollout.name=vllm
)
EMPTY=()

LAUNCH=(python3)
if [ "${USE_UV:-1}" = 1 ]; then
    LAUNCH=(uv run --frozen --extra vllm python3)
fi

"${LAUNCH[@]}" -m verl.trainer.main_ppo \
    "${ALGO[@]}" \
    "${DATA[@]}" \
    "${ROLLOUT[@]}" \
    "${EMPTY[@]}" \
    "$@"
