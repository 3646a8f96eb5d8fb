#!/bin/bash
# The reference model's settings copied from the actor's in a loop, as the DeepSeek-V4 recipes of
# verl-ascend-recipe do: a pattern test picks the keys, `continue` skips one, `${arg/…/…}` renames them.
LAYERS=$(python3 -c 'print(4)')
ACTOR=(
    actor_rollout_ref.actor.megatron.tensor_model_parallel_size=2
    actor_rollout_ref.actor.megatron.param_offlod=True
    actor_rollout_ref.actor.megatron.pipeline_model_parallel_size="${LAYERS}"
    actor_rollout_ref.actor.megatron.use_mbridge=True
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1
)
REF=(actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=1)
for arg in "${ACTOR[@]}"; do
    if [[ "$arg" == *".use_mbridge="* ]]; then
        continue
    fi
    if [[ "$arg" == *".actor.megatron."* ]]; then
        REF+=("${arg/actor_rollout_ref.actor.megatron/actor_rollout_ref.ref.megatron}")
    fi
done
python3 -m verl.trainer.main_ppo model_engine=megatron \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=1 \
    "${ACTOR[@]}" "${REF[@]}"
