#!/bin/bash
# `~` in an assignment and in a ${VAR:-~/...} default is the home folder (bash expands it); in double quotes it
# stays `~`, and Hydra cannot parse an override value that starts with `~`.
DATA_DIR=${DATA_DIR:-~/data/gsm8k}
CKPT=${CKPT:-~/ckpt/${NAME}/run}
QUOTED="${QUOTED:-~/val}"
NGPUS=${NGPUS:-$((2 * 4))}
NNODES=$(( ${NNODES_HINT:-1} * 1 ))
python3 -m verl.trainer.main_ppo \
    data.train_files=${DATA_DIR}/train.parquet \
    trainer.default_local_dir=$CKPT \
    trainer.n_gpus_per_node=$NGPUS \
    trainer.nnodes=$NNODES \
    data.val_files=$QUOTED
