#!/usr/bin/env bash
# A correct Ascend launch: HCCL engine under its registered name, kwargs under engine_kwargs.nccl.
set -euo pipefail
export HCCL_CONNECT_TIMEOUT=1500
export HCCL_HOST_SOCKET_PORT_RANGE=60000-60050
export HCCL_NPU_SOCKET_PORT_RANGE=61000-61050
export HCCL_WHITELIST_DISABLE=0
export HCCL_WHITELIST_FILE=/etc/hccl/whitelist.json
export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3
python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.rollout.checkpoint_engine.backend=nccl \
    +actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.nccl.rebuild_group=true \
    trainer.n_gpus_per_node="${NPUS:-8}" \
    trainer.logger='["console"]' 2>&1 | tee train.log
