# 缺少 fsdp_config.json 的旧 FSDP 检查点：world_size 为文件名 model_world_size_W_rank_*.pt 中的 W
ACTOR=checkpoints/my_project/my_run/global_step_100/actor
W=$(ls "$ACTOR" | sed -n 's/^model_world_size_\([0-9]*\)_rank_[0-9]*\.pt$/\1/p' | sort -u)
N=$(ls "$ACTOR"/model_world_size_"$W"_rank_*.pt | wc -l)
echo "world_size $W, shards present $N"
# 仅当每个 rank 的分片都存在（N 等于 W）时写入
[ "$N" = "$W" ] && echo "{\"FSDP_version\": 1, \"world_size\": $W}" > "$ACTOR/fsdp_config.json"
