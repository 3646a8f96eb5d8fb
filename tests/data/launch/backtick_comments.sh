#!/bin/bash
# Comments between the arguments, each inside backticks so that the `\` after it still continues the command.
python3 -m verl.trainer.main_ppo \
    `# data` \
    data.train_batch_size=64 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 \
    `# rollout: vLLM, two cards per replica` \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=8 \
    \
    `# trainer` \
    trainer.totl_epochs=2 \
    trainer.nnodes=1
