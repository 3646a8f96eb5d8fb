# a checkpoint saved without hf_model: give the merger the base model's config and tokenizer first
BASE=/models/Qwen3-8B                      # actor_rollout_ref.model.path of the run
ACTOR=checkpoints/my_project/my_run/global_step_100/actor
mkdir -p "$ACTOR/model/huggingface"
# copy every file but the weights: config, tokenizer, chat_template.jinja, custom model code (*.py) and the rest
find "$BASE" -maxdepth 1 -xtype f ! -name '*.safetensors' ! -name '*.bin' ! -name '*.pt' ! -name '*.pth' \
    ! -name '*.index.json' -exec cp {} "$ACTOR/model/huggingface/" \;
ls "$ACTOR/model/huggingface/config.json"
