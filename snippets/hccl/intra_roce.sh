# 仅用于 mooncake、kimi_ckpt_engine；Ascend 950PR/950DT 上不设置 / for mooncake and kimi_ckpt_engine only; not on Ascend 950PR/950DT
export HCCL_INTRA_ROCE_ENABLE=1
