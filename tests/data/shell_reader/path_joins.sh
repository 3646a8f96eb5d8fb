#!/bin/bash
# Paths built by writing variables next to each other, unquoted: bash reads each override as one word.
# Two planted mistakes: a value split by a space, and a variable whose value holds a space.
rollout_data_dir=/data/rollouts
run_name=qwen2.5-7b-grpo
project=math
label="ablation two"
CKPT_ROOT=$rollout_data_dir/$run_name/ckpt
python3 -m verl.trainer.main_ppo \
    trainer.project_name=$project-$run_name \
    trainer.experiment_name=${run_name}_$project.v1 \
    trainer.rollout_data_dir=$rollout_data_dir/$run_name \
    trainer.validation_data_dir=$rollout_data_dir/$run_name/validation \
    trainer.default_local_dir="$CKPT_ROOT"/$project/$run_name \
    data.train_files=$DATA_HOME/$run_name/train.parquet \
    data.val_files=$rollout_data_dir/$(whoami)/val.parquet \
    trainer.resume_from_path=$rollout_data_dir/$1/$run_name \
    actor_rollout_ref.model.path=$MODEL_ROOT/$MODEL_NAME/hf \
    trainer.total_epochs=1 2 \
    trainer.default_hdfs_dir=$label/$run_name
