# verl asks for this with CANN >= 8.5.0 (kimi_ckpt_engine); HCCL does not support it on Ascend 950PR/950DT.
export HCCL_INTRA_ROCE_ENABLE=1
