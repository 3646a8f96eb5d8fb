#!/bin/bash
# Plain command: one planted unknown key, everything else right.
set -x
python3 -m verl.trainer.main_ppo \
    data.train_batch_size=64 \
    trainer.total_epochs=2 \
    trainer.no_such_key=1
