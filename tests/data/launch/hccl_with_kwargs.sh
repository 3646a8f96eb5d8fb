#!/bin/bash
# Ascend, with the backend written as `hccl` and its kwargs keyed the same way.
export HCCL_CONNECT_TIMEOUT=1200
CKPT=(
    actor_rollout_ref.rollout.checkpoint_engine.backend=hccl
    +actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.hccl.rebuild_group=True
    +actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.hccl.multi_sender=True
)
python3 -m verl.trainer.main_ppo trainer.device=npu "${CKPT[@]}"
