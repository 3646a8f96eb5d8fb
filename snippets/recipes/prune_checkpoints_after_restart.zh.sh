# 续训后已保存 2 个（max_actor_ckpt_to_keep 个）新检查点时：保留最新的 2 个 global_step_* 目录，删除其余目录
CKPT=checkpoints/my_project/my_run # trainer.default_local_dir
ls -d "$CKPT"/global_step_* | sort -V | head -n -2 | xargs -r rm -rf
ls -d "$CKPT"/global_step_*
