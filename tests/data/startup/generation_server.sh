#!/usr/bin/env bash
# Rollout-only generation, written like verl's examples/generation/run_deepseek_llm_7b.sh: no micro-batch keys,
# because main_generation_server never runs validate_config.
MODEL_PATH=${MODEL_PATH:-deepseek-ai/deepseek-llm-7b-chat}
python3 -m verl.trainer.main_generation_server \
    trainer.nnodes=1 \
    trainer.n_gpus_per_node=8 \
    data.train_files="$HOME/data/gsm8k/test.parquet" \
    data.prompt_key=prompt \
    +data.output_path="$HOME/data/gsm8k/gen.parquet" \
    actor_rollout_ref.model.path="${MODEL_PATH}" \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.load_format=auto \
    actor_rollout_ref.rollout.tensor_model_parallel_size=2
