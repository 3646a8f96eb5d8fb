# a checkpoint saved without hf_model: give the merger the base model's config and tokenizer first
BASE=/models/Qwen3-8B                      # actor_rollout_ref.model.path of the run
ACTOR=checkpoints/my_project/my_run/global_step_100/actor
mkdir -p "$ACTOR/model/huggingface"
cp "$BASE"/*.json "$BASE"/*.txt "$BASE"/*.model "$ACTOR/model/huggingface/" 2>/dev/null
ls "$ACTOR/model/huggingface/config.json"
