#!/usr/bin/env bash
# The same overrides handed to main_ppo (a training run): verl stops at startup,
# because main_ppo runs validate_config: both pairs are missing.
MODEL_PATH=${MODEL_PATH:-deepseek-ai/deepseek-llm-7b-chat}
python3 -m verl.trainer.main_ppo \
    trainer.nnodes=1 \
    trainer.n_gpus_per_node=8 \
    data.train_files="$HOME/data/gsm8k/test.parquet" \
    data.prompt_key=prompt \
    +data.output_path="$HOME/data/gsm8k/gen.parquet" \
    actor_rollout_ref.model.path="${MODEL_PATH}" \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.load_format=auto \
    actor_rollout_ref.rollout.tensor_model_parallel_size=2
