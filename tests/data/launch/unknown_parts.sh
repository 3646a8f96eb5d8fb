#!/bin/bash
STAMP=$(date +%s)
python3 -m verl.trainer.main_ppo \
    trainer.experiment_name=run_${STAMP} \
    ${EXTRA_ARGS} \
    $(cat overrides.txt)
