# the repository is created if missing; --private makes a new one private
# --trust-remote-code only for models with their own code: it lets the checkpoint's code run
python -m verl.model_merger merge \
    --backend fsdp \
    --trust-remote-code \
    --local_dir checkpoints/my_project/my_run/global_step_100/actor \
    --target_dir /data/merged/my_run_step100 \
    --hf_upload_path my-org/my-run-step100 \
    --private
