# 在 CI 中：检查结果以 GitHub 注解标注在脚本中出错的行上（每个级别最多 10 条）。
# nullglob：没有匹配项的模式（例如没有 configs/ 目录）会被去掉，不会作为文件名传给 doctor。
shopt -s nullglob
files=(scripts/*.sh configs/*.yaml)
# 两个模式都没有匹配项时不调用 doctor（没有文件参数时它以用法错误结束，退出码 2），只输出一条警告注解。
if [ "${#files[@]}" -eq 0 ]; then
    echo "::warning::no file matches scripts/*.sh or configs/*.yaml; nothing was checked"
else
    verl-cookbook doctor "${files[@]}" --format github
fi
