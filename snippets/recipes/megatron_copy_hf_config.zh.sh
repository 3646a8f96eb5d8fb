# 未保存 hf_model 的检查点：先为合并工具提供基座模型的配置和 tokenizer
BASE=/models/Qwen3-8B                      # 训练时的 actor_rollout_ref.model.path
ACTOR=checkpoints/my_project/my_run/global_step_100/actor
mkdir -p "$ACTOR/model/huggingface"
# 复制权重以外的全部文件：配置、tokenizer、chat_template.jinja、自定义模型代码（*.py）等
find "$BASE" -maxdepth 1 -xtype f ! -name '*.safetensors' ! -name '*.bin' ! -name '*.pt' ! -name '*.pth' \
    ! -name '*.index.json' -exec cp {} "$ACTOR/model/huggingface/" \;
ls "$ACTOR/model/huggingface/config.json"
