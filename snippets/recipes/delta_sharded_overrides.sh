python3 -m verl.trainer.main_ppo \
    trainer.use_v1=true \
    trainer.v1.trainer_mode=separate_async \
    actor_rollout_ref.rollout.name=sglang \
    actor_rollout_ref.rollout.checkpoint_engine.backend=delta_sharded \
    +actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.delta_sharded.batch_gather=32 \
    +actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.delta_sharded.verify_every=0
