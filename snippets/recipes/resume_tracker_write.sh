# before relaunching: point the tracker at the newest complete checkpoint (here global_step_300)
echo 300 > checkpoints/my_project/my_run/latest_checkpointed_iteration.txt
