#!/usr/bin/env bash
# 在 Atlas A3 训练系列产品的一个节点上运行 GRPO：训练端使用 0~3 号卡，独立推理端使用 4~7 号卡（v1 训练器的
# separate_async 模式）；权重经 HCCL 从训练端同步到推理端。
source /usr/local/Ascend/cann-8.5.0/set_env.sh
export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3,4,5,6,7

python3 -m verl.trainer.main_ppo \
    trainer.device=npu \
    trainer.nnodes=1 \
    trainer.n_gpus_per_node=4 \
    trainer.v1.trainer_mode=separate_async \
    trainer.v1.separate_async.parameter_sync_step=4 \
    algorithm.adv_estimator=grpo \
    data.train_batch_size=128 \
    actor_rollout_ref.actor.ppo_mini_batch_size=32 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 \
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=8 \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.n=4 \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=8 \
    actor_rollout_ref.rollout.nnodes=1 \
    actor_rollout_ref.rollout.n_gpus_per_node=4 \
    actor_rollout_ref.rollout.checkpoint_engine.backend=nccl \
    +actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.nccl.rebuild_group=False
# 在昇腾上，HCCL 引擎以 `nccl` 名称注册；rebuild_group 须保持 False（设为 True 时在 finalize() 中失败）。
# train_batch_size = parameter_sync_step × ppo_mini_batch_size（128 = 4 × 32）：separate_async 模式会校验该等式。
