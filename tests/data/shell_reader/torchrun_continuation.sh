#!/bin/bash
# torchrun continued onto the next line: the module and every override sit on lines of their own.
torchrun --standalone --nnodes=1 --nproc_per_node=8 \
    -m verl.trainer.fsdp_sft_trainer \
    data.train_batch_size=64 \
    trainer.no_such_key=1
