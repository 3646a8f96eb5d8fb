CKPT=checkpoints/my_project/my_run # trainer.default_local_dir
# the newest checkpoint on disk
ls -d "$CKPT"/global_step_* | sort -V | tail -n 1
# the step resume_mode=auto will resume from; missing means training starts from the beginning
cat "$CKPT/latest_checkpointed_iteration.txt" 2>/dev/null || echo "no tracker file"
