# only for a model whose config.json has "tie_word_embeddings": true (lm_head shares the embedding)
python -m verl.model_merger merge \
    --backend megatron \
    --tie-word-embedding \
    --local_dir checkpoints/my_project/my_run/global_step_100/actor \
    --target_dir /data/merged/my_run_step100
