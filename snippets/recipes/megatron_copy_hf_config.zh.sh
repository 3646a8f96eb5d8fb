# 未保存 hf_model 的检查点：先为合并工具提供基座模型的配置和 tokenizer
BASE=/models/Qwen3-8B                      # 训练时的 actor_rollout_ref.model.path
ACTOR=checkpoints/my_project/my_run/global_step_100/actor
mkdir -p "$ACTOR/model/huggingface"
cp "$BASE"/*.json "$BASE"/*.txt "$BASE"/*.model "$ACTOR/model/huggingface/" 2>/dev/null
ls "$ACTOR/model/huggingface/config.json"
