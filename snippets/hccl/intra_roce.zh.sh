# 仅用于 mooncake、kimi_ckpt_engine；Ascend 950PR/Ascend 950DT 上是否需要未经验证
export HCCL_INTRA_ROCE_ENABLE=1
echo "HCCL_INTRA_ROCE_ENABLE=$HCCL_INTRA_ROCE_ENABLE"
