#!/usr/bin/env bash
# 在 Atlas A3 训练系列产品上运行 GRPO，训练端与推理端使用不同的卡；权重同步的设置照搬自 GPU 上的脚本。
source /usr/local/Ascend/cann-8.5.0/set_env.sh
export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3,4,5,6,7

python3 -m verl.trainer.main_ppo \
    trainer.device=npu \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 \
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=8 \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=8 \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.checkpoint_engine.backend=nccl \
    +actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.hccl.rebuild_group=True \
    +actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.nccl.multi_sender=False
