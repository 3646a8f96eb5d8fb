# Your shell gets neither variable of step 2's runtime_env: set them again, with the job's values.
# CKPT_UPLOAD_ROOT: where the job uploaded (registry.jsonl is read there); PYTHONPATH: the folder that holds my_project/
export CKPT_UPLOAD_ROOT=/mnt/shared/checkpoints
export PYTHONPATH=/workspace/src${PYTHONPATH:+:$PYTHONPATH}
# FSDP (and the other engines that save synchronously)
python -m my_project.ckpt_callbacks checkpoints/my_project/my_run
# Megatron: a checkpoint counts as complete only once its ckpt_contents.json is there
python -m my_project.ckpt_callbacks checkpoints/my_project/my_run --megatron
