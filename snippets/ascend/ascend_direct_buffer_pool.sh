# Intermediate-buffer mode: 4 buffers of 8 MB (Mooncake's suggested start). Async transfer must stay
# off, and Mooncake turns it on whenever ASCEND_USE_ASYNC_TRANSFER is set at all, even to 0.
export ASCEND_BUFFER_POOL=4:8
unset ASCEND_USE_ASYNC_TRANSFER
