# once the resumed run has saved 2 (max_actor_ckpt_to_keep) new checkpoints: keep the newest 2 global_step_* folders, delete the rest
CKPT=checkpoints/my_project/my_run # trainer.default_local_dir
ls -d "$CKPT"/global_step_* | sort -V | head -n -2 | xargs -r rm -rf
ls -d "$CKPT"/global_step_*
