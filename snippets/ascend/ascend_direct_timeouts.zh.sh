# HCCL 的 RDMA 重传参数保持不变，传输超时（毫秒）设得比重传总时间略大
export ASCEND_TRANSFER_TIMEOUT=36000
