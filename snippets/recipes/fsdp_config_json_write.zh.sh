# 缺少 fsdp_config.json 的旧 FSDP 检查点：world_size 为 model_world_size_W_rank_*.pt 文件的个数
ACTOR=checkpoints/my_project/my_run/global_step_100/actor
ls "$ACTOR"/model_world_size_*_rank_*.pt | wc -l
echo '{"FSDP_version": 1, "world_size": 8}' > "$ACTOR/fsdp_config.json"
