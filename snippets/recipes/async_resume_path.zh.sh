# 仅列出本实践涉及的覆盖项：请加到完整的训练命令中（数据、模型、micro batch 等）
python3 -m verl.trainer.main_ppo \
    trainer.use_v1=true \
    trainer.v1.trainer_mode=separate_async \
    actor_rollout_ref.rollout.nnodes=1 \
    actor_rollout_ref.rollout.checkpoint_engine.backend=nccl \
    trainer.save_freq=100 \
    trainer.resume_mode=resume_path \
    trainer.resume_from_path=checkpoints/my_project/my_run/global_step_300
