# 在执行带 --hf_upload_path 的合并前，每台服务器执行一次（或改为设置 HF_TOKEN）
hf auth login
