# Ascend Direct timeouts in step with the RDMA NIC's retransmissions (values are an example).
# HCCL_RDMA_TIMEOUT=17: each retransmission waits at least 4.096 us * 2^17 = 0.54 s
export HCCL_RDMA_TIMEOUT=17
export HCCL_RDMA_RETRY_CNT=7
# a little more than 0.54 s * 7 = 3.8 s, as Mooncake advises
export ASCEND_TRANSFER_TIMEOUT=5000
export ASCEND_CONNECT_TIMEOUT=10000
