# HCCL's RDMA retransmission settings unchanged; transfer timeout (ms) a little above their total
export ASCEND_TRANSFER_TIMEOUT=36000
