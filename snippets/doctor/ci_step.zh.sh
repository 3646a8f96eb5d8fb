# 在 CI 中：检查结果以 GitHub 注解标注在脚本中出错的行上（每个级别最多 10 条）。
# nullglob：没有匹配项的模式（例如没有 configs/ 目录）会被去掉，不会作为文件名传给 doctor。
shopt -s nullglob
verl-cookbook doctor scripts/*.sh configs/*.yaml --format github
