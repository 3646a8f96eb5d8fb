# 仓库不存在时自动创建；--private 将新仓库设为私有
# --trust-remote-code 仅自定义代码模型需要，加上后会执行检查点自带的代码
python -m verl.model_merger merge \
    --backend fsdp \
    --trust-remote-code \
    --local_dir checkpoints/my_project/my_run/global_step_100/actor \
    --target_dir /data/merged/my_run_step100 \
    --hf_upload_path my-org/my-run-step100 \
    --private
