# an old FSDP checkpoint without fsdp_config.json: world_size is the W of its model_world_size_W_rank_*.pt files
ACTOR=checkpoints/my_project/my_run/global_step_100/actor
W=$(ls "$ACTOR" | sed -n 's/^model_world_size_\([0-9]*\)_rank_[0-9]*\.pt$/\1/p' | sort -u)
N=$(ls "$ACTOR"/model_world_size_"$W"_rank_*.pt | wc -l)
echo "world_size $W, shards present $N"
# written only when every rank's shard is there (N equal to W)
[ "$N" = "$W" ] && echo "{\"FSDP_version\": 1, \"world_size\": $W}" > "$ACTOR/fsdp_config.json"
