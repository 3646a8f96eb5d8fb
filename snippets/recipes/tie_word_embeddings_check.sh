# true: add --tie-word-embedding to the merge; false or absent (Llama and Qwen default to untied): leave it out
grep tie_word_embeddings checkpoints/my_project/my_run/global_step_100/actor/model/huggingface/config.json
