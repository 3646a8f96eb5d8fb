#!/usr/bin/env bash
# Ascend 950 cluster: HCCL does not support HCCL_INTRA_ROCE_ENABLE here, so it is not set.
source /usr/local/Ascend/cann-8.5.0/set_env.sh
export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3,4,5,6,7
export HCCL_WHITELIST_DISABLE=0
export HCCL_WHITELIST_FILE=whitelist.json
python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 \
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=8 \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=8 \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.checkpoint_engine.backend=kimi_ckpt_engine
