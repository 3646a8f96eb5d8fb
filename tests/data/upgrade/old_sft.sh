#!/bin/bash
# An SFT script written for verl 0.6: the old trainer module; one key the new config also lacks.
torchrun --standalone --nnodes=1 --nproc_per_node=8 \
    -m verl.trainer.fsdp_sft_trainer \
    data.train_batch_size=64 \
    trainer.total_epochs=2 \
    trainer.no_such_key=1
