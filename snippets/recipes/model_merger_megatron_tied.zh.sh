# 仅用于 config.json 中 "tie_word_embeddings": true 的模型（lm_head 与词嵌入共享权重）
python -m verl.model_merger merge \
    --backend megatron \
    --tie-word-embedding \
    --local_dir checkpoints/my_project/my_run/global_step_100/actor \
    --target_dir /data/merged/my_run_step100
