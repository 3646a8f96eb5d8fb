CKPT=checkpoints/my_project/my_run # 取值同 trainer.default_local_dir
# 磁盘上最新的检查点
ls -d "$CKPT"/global_step_* | sort -V | tail -n 1
# resume_mode=auto 将恢复的步数；文件不存在时从头训练
cat "$CKPT/latest_checkpointed_iteration.txt" 2>/dev/null || echo "no tracker file"
