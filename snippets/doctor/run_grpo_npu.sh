#!/usr/bin/env bash
# GRPO on one Atlas A3 node: the trainer on cards 0-3, the standalone rollout on cards 4-7 (v1 trainer in
# separate_async mode); weights synced from trainer to rollout over HCCL.
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
# On Ascend the HCCL engine registers as `nccl`; keep rebuild_group=False (with True it fails in finalize()).
# train_batch_size = parameter_sync_step x ppo_mini_batch_size (128 = 4 x 32): separate_async asserts it.
