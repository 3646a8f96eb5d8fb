#!/bin/bash
# A function that launches, a here-document that writes a file, a log through tee.
cat > /tmp/extra.yaml <<YAML
trainer:
  total_epochs: 1
YAML

train() {
    python3 -m verl.trainer.main_ppo \
        trainer.total_epochs=1 \
        "$@" 2>&1 | tee train.log \
        trainer.save_freq=10
}

train actor_rollout_ref.rollout.nme=vllm
