git clone --depth 1 https://github.com/verl-project/verl.git
cd verl
# 记录 verl 文档中已有的检查结果（只需执行一次），并提交生成的基线文件
verl-cookbook check --verl-src . --lenient --write-baseline .verl-cookbook-baseline.json docs/ verl/checkpoint_engine/README.md
# 此后只有新增的检查结果使检查失败（退出码 1）
verl-cookbook check --verl-src . --lenient --baseline .verl-cookbook-baseline.json docs/ verl/checkpoint_engine/README.md
