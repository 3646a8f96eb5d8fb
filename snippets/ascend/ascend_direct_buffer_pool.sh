# intermediate buffers: 4 of 8 MB (Mooncake's suggested start)
export ASCEND_BUFFER_POOL=4:8
# set at all (even to 0) it turns async transfer on: unset it
unset ASCEND_USE_ASYNC_TRANSFER
