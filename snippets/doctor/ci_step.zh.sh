# 在 CI 中：每条检查结果输出一条 GitHub 注解，标注在脚本中出错的行上。
verl-cookbook doctor scripts/*.sh configs/*.yaml --format github
