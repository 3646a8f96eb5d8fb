# for mooncake and kimi_ckpt_engine only; unverified on Ascend 950PR/Ascend 950DT
export HCCL_INTRA_ROCE_ENABLE=1
echo "HCCL_INTRA_ROCE_ENABLE=$HCCL_INTRA_ROCE_ENABLE"
