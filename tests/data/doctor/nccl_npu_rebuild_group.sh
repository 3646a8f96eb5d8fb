#!/usr/bin/env bash
# Disaggregated GRPO on Atlas A3; the rollout pool is resized between runs, so the group is rebuilt.
set -euo pipefail
source /usr/local/Ascend/ascend-toolkit/set_env.sh
export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3,4,5,6,7

python3 -m verl.trainer.main_ppo \
    trainer.device=npu \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.checkpoint_engine.backend=nccl \
    +actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.nccl.rebuild_group=true
