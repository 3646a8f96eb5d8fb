# 中转缓冲区模式：4 块 8 MB 的缓冲区（Mooncake 建议的起始值）
export ASCEND_BUFFER_POOL=4:8
# 只要设置了该变量（即使为 0）异步传输就会开启，因此取消设置
unset ASCEND_USE_ASYNC_TRANSFER
