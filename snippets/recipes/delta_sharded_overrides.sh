python3 -m verl.trainer.main_ppo \
    trainer.use_v1=true \
    trainer.v1.trainer_mode=separate_async \
    trainer.nnodes=2 \
    trainer.n_gpus_per_node=8 \
    trainer.v1.separate_async.parameter_sync_step=4 \
    algorithm.adv_estimator=grpo \
    data.train_batch_size=256 \
    actor_rollout_ref.actor.ppo_mini_batch_size=64 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=8 \
    actor_rollout_ref.rollout.name=sglang \
    actor_rollout_ref.rollout.n=4 \
    actor_rollout_ref.rollout.nnodes=2 \
    actor_rollout_ref.rollout.n_gpus_per_node=8 \
    actor_rollout_ref.rollout.checkpoint_engine.backend=delta_sharded \
    +actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.delta_sharded.batch_gather=32 \
    +actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.delta_sharded.verify_every=0
