#!/bin/bash
# 为 verl 0.9.0 编写，该版本提供 MindSpeed-LLM 引擎选项（model_engine=mindspeed）。
ACTOR=(
    actor_rollout_ref.actor.mindspeed.tensor_model_parallel_size=4
    actor_rollout_ref.actor.mindspeed.param_offload=True
    +actor_rollout_ref.actor.mindspeed.llm_kwargs.num_layers=4
    +actor_rollout_ref.actor.mindspeed.llm_kwargs.swap_optimizer=True
)
python3 -m verl.trainer.main_ppo \
    model_engine=mindspeed \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1 \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=1 \
    trainer.device=npu \
    trainer.use_legacy_worker_impl=disable \
    "${ACTOR[@]}"
