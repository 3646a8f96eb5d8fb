# 重启前：将记录文件指向最新的完整检查点（此处为 global_step_300）
echo 300 > checkpoints/my_project/my_run/latest_checkpointed_iteration.txt
