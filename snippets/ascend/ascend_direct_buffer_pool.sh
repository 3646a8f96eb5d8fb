# 中转缓冲区模式：4 块 8 MB 的缓冲区（Mooncake 建议的起始值）/ intermediate buffers: 4 of 8 MB (Mooncake's suggested start)
export ASCEND_BUFFER_POOL=4:8
# 只要设置了该变量（即使为 0）异步传输就会开启，因此取消设置 / set at all (even to 0) it turns async transfer on: unset it
unset ASCEND_USE_ASYNC_TRANSFER
