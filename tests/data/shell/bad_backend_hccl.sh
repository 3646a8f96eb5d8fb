python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.rollout.checkpoint_engine.backend=hccl
