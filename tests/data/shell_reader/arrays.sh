#!/bin/bash
# Overrides collected in arrays; one planted unknown key in the second array.
DATA=(
    data.train_batch_size=64
    data.max_prompt_length=512
)
TRAINER=(
    trainer.total_epochs=2
    trainer.no_such_key=1
)
python3 -m verl.trainer.main_ppo "${DATA[@]}" "${TRAINER[@]}"
