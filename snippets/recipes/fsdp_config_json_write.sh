# an old FSDP checkpoint without fsdp_config.json: world_size = the number of model_world_size_W_rank_*.pt files
ACTOR=checkpoints/my_project/my_run/global_step_100/actor
ls "$ACTOR"/model_world_size_*_rank_*.pt | wc -l
echo '{"FSDP_version": 1, "world_size": 8}' > "$ACTOR/fsdp_config.json"
