#!/usr/bin/env bash
set -xeuo pipefail
n_gpus=${N_GPUS:-8}
ALGO=(algorithm.adv_estimator=grpo algorithm.use_kl_in_reward=False)
TRAINER=(
    trainer.n_gpus_per_node=${n_gpus}
    trainer.nnodes=1
    trainer.total_epochs=2
)
LAUNCH=(python3)
"${LAUNCH[@]}" -m verl.trainer.main_ppo "${ALGO[@]}" "${TRAINER[@]}" "$@"
