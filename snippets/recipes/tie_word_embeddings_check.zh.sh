# 输出为 true 时在合并命令中加 --tie-word-embedding；为 false 或无输出（Llama、Qwen 系列默认不共享）时不加
grep tie_word_embeddings checkpoints/my_project/my_run/global_step_100/actor/model/huggingface/config.json
