#!/usr/bin/env bash
# GRPO on Atlas A3, trainer and rollout on separate cards; weights synced over HCCL.
source /usr/local/Ascend/cann-8.5.0/set_env.sh
export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3,4,5,6,7

python3 -m verl.trainer.main_ppo \
    trainer.device=npu \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.checkpoint_engine.backend=nccl \
    +actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.nccl.rebuild_group=False
# Keep rebuild_group=False on Ascend: with True the HCCL engine fails in finalize() (see known issues).
